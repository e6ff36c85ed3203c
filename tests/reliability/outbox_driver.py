"""The child process of the outbox kill test (tests/reliability/test_outbox_kill.py).

`python -m tests.reliability.outbox_driver DB` opens a two-player Crisis: 1914 table in the
console's channel, prints what each answer says through the console (its front end), and
plays automatic moves until an answer tells the other player it is their turn. That answer
is acknowledged (`ACK`, then the turn notice's first line as JSON) and never printed: the
process then waits to be killed, as a bot killed between a save and its delivery would be.
"""

from __future__ import annotations

import asyncio
import json
import os
import sys
import traceback
from pathlib import Path


async def drive(db: Path) -> None:
    from bot.console.console import CHANNEL, Console, user_id_for
    from bot.service.tables import TableService
    from bot.store import open_store

    store = await open_store(db)
    service = TableService(store, seed_source=lambda: 7, draw_pictures=False)
    console = Console(service, sys.stdout)
    anna, ben = user_id_for("anna"), user_id_for("ben")
    await console.show(await service.lobby.create(CHANNEL, None, "crisis1914", anna, "anna"))
    await console.show(await service.lobby.join(CHANNEL, ben, "ben"))
    await console.show(await service.lobby.start(CHANNEL, anna))
    for _ in range(200):
        out = await service.auto(CHANNEL)
        assert out is not None, "the game ended before a turn notice"
        notices = [p for p in out.posts if p.kind == "prompt" and p.to == "seat" and p.dm]
        if notices:
            # as the console prints it; its times move with the clock, so the line stops before them
            line = console.words(notices[0].text).splitlines()[0].split(" Due ")[0]
            who = "anna" if notices[0].user_id == anna else "ben"
            print("ACK", json.dumps({"line": f"[private to {who}] {line}"}))
            sys.stdout.flush()
            await asyncio.sleep(3600)  # killed here: saved and acknowledged, not yet said
        await console.show(out)
    raise AssertionError("no turn notice in 200 moves")


if __name__ == "__main__":
    try:
        asyncio.run(drive(Path(sys.argv[1])))
    except BaseException:
        traceback.print_exc()
        os._exit(1)  # at once: nothing the service started may keep a failed driver (and its test) waiting
