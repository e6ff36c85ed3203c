"""Configuration mistakes and an unreachable or refusing Discord end with one clear line
and a non-zero exit (docs/reliability.md)."""

from __future__ import annotations

import io

import aiohttp
import discord
import pytest

from bot.__main__ import main
from bot.process.config import ConfigError, load_config


def test_an_unknown_chancellery_variable_is_an_error(clean_env, monkeypatch, capsys):
    monkeypatch.setenv("CHANCELLERY_DATABSE", "elsewhere.sqlite3")
    with pytest.raises(ConfigError, match="unknown variable CHANCELLERY_DATABSE; known: .*CHANCELLERY_DATABASE"):
        load_config()
    assert main(["console"], stdin=io.StringIO(""), stdout=io.StringIO()) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "CHANCELLERY_DATABSE" in err


def test_the_token_variable_is_pointed_to(clean_env, monkeypatch):
    monkeypatch.setenv("CHANCELLERY_TOKEN", "abc")
    with pytest.raises(ConfigError, match=r"the token is DISCORD_TOKEN"):
        load_config()


def test_known_variables_still_work(clean_env, monkeypatch):
    monkeypatch.setenv("CHANCELLERY_LOG_LEVEL", "debug")
    monkeypatch.setenv("CHANCELLERY_CONFIG", str(clean_env / "none.toml"))
    (clean_env / "none.toml").write_text("")
    assert load_config().log_level == "DEBUG"


@pytest.mark.parametrize(
    "failure, said",
    [
        (discord.LoginFailure("Improper token has been passed."), "Discord refused the token"),
        (
            aiohttp.ClientConnectorError(
                aiohttp.client_reqrep.ConnectionKey("discord.com", 443, True, True, None, None, None),
                OSError(-3, "Temporary failure in name resolution"),
            ),
            "cannot reach Discord (ClientConnectorError",
        ),
        (TimeoutError(), "cannot reach Discord (TimeoutError: timed out)"),
    ],
)
def test_a_refused_token_or_no_network_is_one_line(clean_env, monkeypatch, capsys, failure, said):
    from bot.discord.client import ChancelleryBot

    async def start(self, token, *, reconnect=True):
        raise failure

    monkeypatch.setattr(ChancelleryBot, "start", start)
    monkeypatch.setenv("DISCORD_TOKEN", "not-a-token")
    code = main(["run", "--db", str(clean_env / "d.sqlite3")], stdin=io.StringIO(), stdout=io.StringIO())
    err = capsys.readouterr().err
    assert code == 2
    assert err.count("\n") == 1 and err.startswith("chancellery: cannot start: ") and said in err
    assert "not-a-token" not in err
