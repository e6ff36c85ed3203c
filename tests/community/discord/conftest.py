"""SimCord for the community's commands: the real bot over a real table service
(tests/discord/conftest.py's fixtures)."""

from __future__ import annotations

from tests.discord.conftest import (  # noqa: F401
    BotConfig,
    clock,
    draw_pictures,
    env,
    make_bot,
    only_tinygame,
    service,
    simcord_bot,
    store,
)
