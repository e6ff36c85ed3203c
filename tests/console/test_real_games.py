"""Every registered real game, played to its end through the console, the table service
and a real SQLite file by automatic players; the stored log replays to the stored state."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from bot.console.console import CHANNEL, run_console
from bot.service.tables import TableService
from bot.store import open_store
from engine import games
from tests.service.conftest import Clock

pytestmark = pytest.mark.whole_game


def _real_games() -> list[str]:
    try:
        return games.ids()
    except Exception:  # noqa: BLE001 - a game package mid-edit elsewhere
        return []


@pytest.mark.parametrize("game_id", _real_games())
async def test_a_whole_game_through_the_console(tmp_path: Path, game_id: str):
    game = games.get(game_id)
    players = ["anna", "boris", "clara", "dmitri", "emil"][: max(game.min_players, min(3, game.max_players))]
    lines = [f"as {players[0]} /game new game:{game_id}"]
    lines += [f"as {p} /game join" for p in players[1:]]
    lines += [f"as {players[0]} /game start seed:5", "auto all", f"as {players[0]} /game status"]
    script = tmp_path / "game.script"
    script.write_text("\n".join(lines), encoding="utf-8")
    store = await open_store(tmp_path / "console.sqlite3")
    try:
        out = io.StringIO()
        rc = await run_console(TableService(store, clock=Clock()), script=script, stdout=out)
        text = out.getvalue()
        assert rc == 0, text[-2000:]
        assert text.count("**Final standings**") == 1 and "Seed: `5`" in text
        row = await store.get_table(CHANNEL)
        assert row.status == "finished"
        state = game.setup(
            [f"s{i}" for i in range(1, len(players) + 1)], game.Options.model_validate(row.options), 5
        )
        for a in await store.get_actions(CHANNEL):
            state, _ = game.apply(state, a.seat, game.parse_action(json.loads(a.action)))
        assert state.model_dump_json() == row.state
        # private lines are labelled with a player's name, never printed plain
        for line in text.splitlines():
            if line.startswith("[private to "):
                assert line.split("]")[0][len("[private to ") :] in players
    finally:
        await store.close()


async def test_auto_makes_one_move_by_default(tmp_path):
    store = await open_store(tmp_path / "console.sqlite3")
    try:
        script = tmp_path / "s.script"
        script.write_text(
            "as a /game new game:envoys\nas b /game join\nas a /game start seed:1\nauto\nauto 1\nauto x\n"
        )
        out = io.StringIO()
        rc = await run_console(TableService(store, clock=Clock()), script=script, stdout=out)
        assert rc == 1 and "! auto takes a number of moves or all" in out.getvalue()
        assert [a.seat for a in await store.get_actions(CHANNEL)] == ["s1", "s2"]
    finally:
        await store.close()


async def test_the_console_writes_each_board_picture_and_prints_its_path(tmp_path):
    lines = ["as anna /game new game:origins", "as boris /game join", "as anna /game start seed:5"]
    lines += ["auto all", "as anna /game status"]
    script = tmp_path / "game.script"
    script.write_text("\n".join(lines), encoding="utf-8")
    store = await open_store(tmp_path / "console.sqlite3")
    try:
        out = io.StringIO()
        pictures = tmp_path / "pictures"
        service = TableService(store, clock=Clock())
        read_for_a_board = []
        reading = service.picture

        async def picture(channel_id, reader=None):
            read_for_a_board.append(reader)
            return await reading(channel_id, reader)

        service.picture = picture  # type: ignore[method-assign]
        rc = await run_console(service, script=script, stdout=out, pictures=pictures)
        assert rc == 0, out.getvalue()[-2000:]
        # each action's board is drawn from what its save stored; only /game status reads the table
        assert len(read_for_a_board) == 1
        printed = [
            line.split("(picture: ")[1].rstrip(")")
            for line in out.getvalue().splitlines()
            if "(picture: " in line
        ]
        written = sorted(str(p) for p in pictures.glob("*.png"))
        assert printed and sorted(printed) == written  # every picture written is announced, once
        assert all(Path(p).read_bytes().startswith(b"\x89PNG") for p in written)
        assert [p.name for p in pictures.glob("scores-*.png")] == ["scores-001.png"]  # the chart at the end
    finally:
        await store.close()


async def test_a_standing_order_given_in_the_console_answers_the_bidding(tmp_path):
    """`/game standing order:"pass_unless …"` in the console, applied at the turn."""
    store = await open_store(tmp_path / "console.sqlite3")
    service = TableService(store, clock=Clock())
    try:
        players = ["anna", "boris", "clara"]
        lines = ["as anna /game new game:origins", "as boris /game join", "as clara /game join"]
        lines.append("as anna /game start seed:5")
        script = tmp_path / "start.script"
        script.write_text("\n".join(lines), encoding="utf-8")
        assert await run_console(service, script=script, stdout=io.StringIO()) == 0
        t = await service.load(CHANNEL)
        first = t.state.bidder
        names = dict(zip(t.state.seats, players, strict=True))
        waiting = [s for s in t.state.seats if s != first]
        cards = {s: games.get("origins").seat_label(t.state, s).split(" & ")[0] for s in waiting}
        orders = [f'as {names[s]} /game standing order:"pass_unless {cards[s]}"' for s in waiting]
        script.write_text("\n".join([*orders, f"as {names[first]} /origins pass"]), encoding="utf-8")
        out = io.StringIO()
        assert await run_console(service, script=script, stdout=out) == 0
        text = out.getvalue()
        assert text.count("Standing order noted (only you see it)") == len(waiting)
        assert text.count("Your standing order was applied: pass in this turn's bidding unless") == len(
            waiting
        )
        assert (await service.load(CHANNEL)).state.phase == "placement"  # everyone passed
    finally:
        await store.close()
