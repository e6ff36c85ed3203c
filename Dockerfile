# Chancellery in a container: `docker build -t chancellery .` then
#   docker run -d --name chancellery -e DISCORD_TOKEN=... -v chancellery-data:/srv/chancellery/data \
#     --stop-timeout 30 chancellery
# The SQLite database lives in the data volume; compose.yaml runs it on PostgreSQL instead.
FROM python:3.11-slim

ENV PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    CHANCELLERY_METRICS_PORT=9108 \
    CHANCELLERY_METRICS_HOST=0.0.0.0

WORKDIR /opt/chancellery
COPY pyproject.toml README.md ./
COPY engine ./engine
COPY bot ./bot
RUN pip install . \
    && useradd --system --create-home --home-dir /srv/chancellery --uid 10001 chancellery \
    && mkdir -p /srv/chancellery/data \
    && chown -R chancellery:chancellery /srv/chancellery

USER chancellery
WORKDIR /srv/chancellery
VOLUME ["/srv/chancellery/data"]
EXPOSE 9108
STOPSIGNAL SIGTERM
# 200 only while the database answers, Discord is connected and deadlines run (no curl in
# the slim image: python's urllib fails on any other status)
HEALTHCHECK --interval=30s --timeout=5s --start-period=60s --retries=3 \
    CMD ["python", "-c", "import os, urllib.request; urllib.request.urlopen('http://127.0.0.1:%s/healthz' % os.environ['CHANCELLERY_METRICS_PORT'], timeout=4)"]
ENTRYPOINT ["python", "-m", "bot"]
CMD ["run"]
