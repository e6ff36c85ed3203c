"""The community's tests: a table service over each database (tests/service/conftest.py's
fixtures), and helpers that play whole games of the tiny test game to their end."""

from __future__ import annotations

from tests.service.conftest import ALICE, BOB, CAROL, Clock, clock, registry, service, store  # noqa: F401

GUILD = 9


async def finish(tables, channel: int, names: dict[int, str], *, seed: int = 7, rated: bool = True) -> None:
    """A table of Envoys in `channel` with the members `names` (user id -> name), played to
    its end by each seat's basic automatic player, a minute a decision."""
    (host, host_name), *others = names.items()
    await tables.lobby.create(channel, GUILD, "envoys", host, host_name)
    for uid, name in others:
        await tables.lobby.join(channel, uid, name)
    if not rated:
        await tables.community.set_rated(channel, host, False)
    await tables.lobby.start(channel, host, seed=seed)
    for _ in range(200):
        tables.clock.advance(60)
        if await tables.auto(channel) is None:
            break
    assert (await tables.table_info(channel)).status == "finished"
