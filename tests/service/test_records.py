"""At service level: seed commitment, export, replay, import, publish, and real
games played by automatic seats (Origins of World War I)."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from bot.discord.markup import markup
from bot.service.posts import own_lines
from bot.service.tables import TableError, TableService
from bot.store.records import Record, replay, state_hash
from engine import games
from engine.core import seed_commitment

from .conftest import ALICE, BOB, CAROL, CHANNEL, seated

OTHER = CHANNEL + 1
DAVE = 4


async def _origins(service: TableService, seed: int = 1914) -> None:
    await service.lobby.create(CHANNEL, 9, "origins", ALICE, "alice")
    await service.lobby.join(CHANNEL, BOB, "bob")
    await service.lobby.join(CHANNEL, CAROL, "carol")
    await service.lobby.start(CHANNEL, ALICE, seed=seed)


async def test_the_seed_is_committed_at_the_start_and_revealed_in_the_standings(service):
    await service.lobby.create(CHANNEL, 9, "envoys", ALICE, "alice")
    await service.controls.set_automatic(CHANNEL, ALICE, None, True)
    out = await service.lobby.start(CHANNEL, ALICE, seed=11)
    assert any(f"Seed commitment: `{seed_commitment(11)}`" in p.text for p in out.public())
    out = await service.controls.set_automatic(
        CHANNEL, ALICE, "alice", True
    )  # every seat automatic: played to the end
    (final,) = [p for p in out.posts if p.kind == "standings"]
    assert "Seed: `11`" in final.text
    assert seed_commitment(11) not in final.text  # shown once, at the start


async def test_the_seed_source_gives_the_seed_when_none_is_passed(store, clock):
    service = TableService(store, clock=clock, seed_source=lambda: 4242)
    await seated(service, "alice", "bob", seed=None)
    assert (await store.get_table(CHANNEL)).seed == 4242


@pytest.mark.parametrize("game", ["crisis1914", "schonbrunn"])  # the games that tell players secrets
async def test_an_automatic_table_plays_a_real_game_to_its_end_without_posting_private_lines(service, game):
    await service.lobby.create(CHANNEL, 9, game, ALICE, "alice")
    for _ in range(2):
        await service.controls.set_automatic(CHANNEL, ALICE, None, True)
    await service.lobby.start(CHANNEL, ALICE, seed=3)
    out = await service.controls.set_automatic(CHANNEL, ALICE, "alice", True)
    assert (await service.table_info(CHANNEL)).status == "finished"
    assert not any(p.to == "seat" for p in out.posts)  # nobody to tell: every seat is automatic
    events = await service.store.get_all_events(CHANNEL)
    public = {e.text for e in events if e.audience is None}
    private = {e.text for e in events if e.audience is not None} - public
    assert private, f"{game} told nobody anything private; the check would be empty"
    posted = "\n".join(p.text for p in out.posts)
    assert not [text for text in private if text in posted]


async def test_undo_in_origins_takes_back_a_quiet_action_and_refuses_after_chance(service):
    await _origins(service)
    g = games.get("origins")
    undone = refused = False
    for _ in range(400):
        t = await service.load(CHANNEL)
        if t.row.status != "running" or (undone and refused):
            break
        before = t.state
        await service.auto(CHANNEL)
        last = (await service.store.get_actions(CHANNEL))[-1]
        applied = g.step(before, last.seat, g.parse_action(json.loads(last.action)))
        if applied.used_randomness and not refused:
            with pytest.raises(TableError, match="used chance"):
                await service.controls.undo(CHANNEL, ALICE)
            refused = True
        elif applied.revealed and not refused:
            with pytest.raises(TableError, match="revealed hidden information"):
                await service.controls.undo(CHANNEL, ALICE)
        elif applied.undoable and not undone:
            await service.controls.undo(CHANNEL, ALICE)
            assert (await service.load(CHANNEL)).state == before
            await service.auto(CHANNEL)  # the same seeded move again
            undone = True
    assert undone and refused


@pytest.mark.whole_game
async def test_an_exported_origins_game_replays_and_continues_in_another_channel(service):
    await _origins(service, seed=77)
    for _ in range(25):
        await service.auto(CHANNEL)
    await service.lobby.create(OTHER + 5, 9, "origins", ALICE, "alice")
    with pytest.raises(TableError, match="not started"):
        await service.history.export(OTHER + 5)
    await service.controls.substitute(CHANNEL, ALICE, "carol", DAVE, "dave")
    data = await service.history.operator_export(CHANNEL)  # only the operator moves a running game
    data = json.loads(json.dumps(data))  # as the file carries it
    assert data["secret"] is True and data["seed_commitment"] == seed_commitment(77)
    assert [(h["seat"], h["name"], h["from_action"]) for h in data["seats_over_time"]][-1] == (
        "s3",
        "dave",
        26,
    )
    assert replay(games.get("origins"), Record.model_validate(data)).ok

    out = await service.history.import_record(OTHER, 9, BOB, "bob", data)
    assert "checked by replay" in out.posts[0].text
    original, copy = await service.load(CHANNEL), await service.load(OTHER)
    assert state_hash(copy.state) == state_hash(original.state)
    assert copy.row.status == "paused" and copy.row.host_id == BOB
    with pytest.raises(TableError, match="Seats still empty"):
        await service.controls.resume(OTHER, BOB)
    for uid, name in ((ALICE, "alice"), (BOB, "bob"), (CAROL, "carol")):
        joined = await service.lobby.join(OTHER, uid, name)
        assert any(p.kind == "briefing" and p.user_id == uid for p in joined.posts)
    await service.controls.resume(OTHER, BOB)
    for _ in range(1000):
        if await service.auto(OTHER) is None:
            break
    assert (await service.table_info(OTHER)).status == "finished"
    final = await service.history.export(OTHER)
    assert final["secret"] is False and final["outcome"] is not None
    assert replay(games.get("origins"), Record.model_validate(final)).ok


async def test_import_refuses_a_record_that_does_not_replay(service):
    await seated(service, "alice", "bob")
    await service.command(CHANNEL, ALICE, "commit", {"value": "2"})
    data = await service.history.operator_export(CHANNEL)
    data["actions"][0]["action"]["value"] = 3  # tampered: the recorded hash no longer matches
    with pytest.raises(TableError, match="does not replay"):
        await service.history.import_record(OTHER, 9, BOB, "bob", data)
    with pytest.raises(TableError, match="not a game record"):
        await service.history.import_record(OTHER, 9, BOB, "bob", {"game": "envoys"})
    assert await service.table_info(OTHER) is None


async def test_the_full_history_is_published_only_after_the_end(service):
    await service.lobby.create(CHANNEL, 9, "envoys", ALICE, "alice")
    await service.lobby.join(CHANNEL, BOB, "bob")
    await service.lobby.start(CHANNEL, ALICE, seed=2)
    await service.command(CHANNEL, BOB, "commit", {"value": "3"})
    with pytest.raises(TableError, match="only after the game ends"):
        await service.history.publish(CHANNEL, ALICE)
    await service.controls.set_automatic(CHANNEL, ALICE, "bob", True)
    with pytest.raises(TableError, match="Only the host"):
        await service.history.publish(CHANNEL, BOB)
    await service.controls.set_automatic(CHANNEL, ALICE, "alice", True)
    assert (await service.table_info(CHANNEL)).status == "finished"
    out = await service.history.publish(CHANNEL, ALICE)
    text = "\n".join(p.text for p in out.posts)
    assert all(p.to == "channel" and len(p.text) <= 2000 for p in out.posts)
    assert "[to s2] You committed 3." in text  # bob's secret commit, published after the end


async def test_replay_checks_the_seed_against_the_commitment_posted_at_the_start(service):
    await seated(service, "alice", "bob", seed=5)
    await service.command(CHANNEL, ALICE, "commit", {"value": "2"})
    data = await service.history.operator_export(CHANNEL)
    assert replay(games.get("envoys"), Record.model_validate(data)).ok
    forged = {**data, "seed": 6}
    result = replay(games.get("envoys"), Record.model_validate(forged))
    assert not result.ok and "commitment" in result.message


@pytest.mark.processes
async def test_python_m_bot_replay_checks_an_exported_crisis_game(service, tmp_path):
    await service.lobby.create(CHANNEL, 9, "crisis1914", ALICE, "alice")
    await service.controls.set_automatic(CHANNEL, ALICE, None, True)
    await service.controls.set_automatic(CHANNEL, ALICE, None, True)
    await service.lobby.start(CHANNEL, ALICE, seed=21)
    await service.controls.set_automatic(CHANNEL, ALICE, "alice", True)  # played to the end
    path = tmp_path / "crisis.json"
    path.write_text(json.dumps(await service.history.export(CHANNEL)), encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-m", "bot", "replay", str(path)], capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    assert "OK:" in done.stdout


async def test_a_substitute_in_crisis_is_briefed_with_the_hand_and_nobody_else_sees_it(service):
    await service.lobby.create(CHANNEL, 9, "crisis1914", ALICE, "alice")
    await service.lobby.join(CHANNEL, BOB, "bob")
    await service.lobby.join(CHANNEL, CAROL, "carol")
    await service.lobby.start(CHANNEL, ALICE, seed=8)
    for _ in range(6):
        await service.auto(CHANNEL)
    t = await service.load(CHANNEL)
    g = t.game
    # what bob's seat knows that the public does not: his Hand
    private = "\n".join(own_lines(g.describe(g.view(t.state, "s2")), g.describe(g.view(t.state, None))))
    assert "Your Hand" in private
    out = await service.controls.substitute(CHANNEL, ALICE, "s2", DAVE, "dave")
    (briefing,) = [p for p in out.posts if p.kind == "briefing"]
    assert private in markup(briefing.text) and briefing.user_id == DAVE
    assert not any(private in markup(p.text) for p in out.public())


# -- imported games ---------------------------------------------------------------------------


async def _finish(service: TableService, channel: int) -> None:
    for _ in range(1000):
        if await service.auto(channel) is None:
            break
    assert (await service.table_info(channel)).status == "finished"


async def test_a_game_seated_by_preference_out_of_join_order_exports_a_record_that_replays(service):
    await service.lobby.create(CHANNEL, 9, "envoys", ALICE, "alice")
    await service.lobby.join(CHANNEL, BOB, "bob", preference="s1")  # bob takes s1 though alice joined first
    await service.lobby.start(CHANNEL, ALICE, seed=12)
    await _finish(service, CHANNEL)
    data = await service.history.export(CHANNEL)
    assert data["seats"] == ["s1", "s2"]  # the order setup was given, not join order
    assert replay(games.get("envoys"), Record.model_validate(data)).ok


async def test_an_imported_game_whose_seats_were_filled_out_of_order_exports_and_replays(service):
    await seated(service, "alice", "bob", "carol", seed=40)
    await service.command(CHANNEL, ALICE, "commit", {"value": "1"})
    data = json.loads(json.dumps(await service.history.operator_export(CHANNEL)))
    await service.history.import_record(OTHER, 9, BOB, "bob", data)
    await service.controls.substitute(OTHER, BOB, "s3", CAROL, "carol")  # the last seat filled first
    await service.controls.set_automatic(OTHER, BOB, "s2", True)
    await service.lobby.join(OTHER, ALICE, "alice")  # takes s1, the seat left
    await service.controls.resume(OTHER, BOB)
    await _finish(service, OTHER)
    final = await service.history.export(OTHER)
    assert final["seats"] == ["s1", "s2", "s3"]
    assert replay(games.get("envoys"), Record.model_validate(final)).ok


@pytest.mark.parametrize(
    ("change", "refusal"),
    [
        ({"format": "chancellery-record/2"}, "record format 'chancellery-record/2'; this version reads"),
        ({"names": ["alice", "bob"]}, "names must map each seat to a player's name"),
        ({"names": "alice"}, "names must map each seat to a player's name"),
        ({"seed": 2**63}, "seed is out of range"),
        ({"seed": -(2**63) - 1}, "seed is out of range"),
    ],
)
async def test_import_refuses_what_it_cannot_continue_before_creating_the_table(service, change, refusal):
    await seated(service, "alice", "bob", seed=3)
    await service.command(CHANNEL, ALICE, "commit", {"value": "2"})
    data = {**await service.history.operator_export(CHANNEL), **change}
    with pytest.raises(TableError, match=refusal):
        await service.history.import_record(OTHER, 9, BOB, "bob", data)
    assert await service.table_info(OTHER) is None  # nothing created: "unchanged" is true


async def test_import_of_a_record_whose_options_belong_to_another_game_says_so_in_words(service):
    from tests.render.lint import problems

    await service.lobby.create(CHANNEL, 9, "crisis1914", ALICE, "alice")
    await service.lobby.join(CHANNEL, BOB, "bob")
    await service.lobby.start(CHANNEL, ALICE, seed=5)
    data = await service.history.operator_export(CHANNEL)
    data["options"] = {**data["options"], "gold_standard": True, "italy": True}
    with pytest.raises(TableError) as refused:
        await service.history.import_record(OTHER, 9, BOB, "bob", json.loads(json.dumps(data)))
    text = str(refused.value)
    assert text == (
        "This record's options are not Crisis: 1914's: it has `gold_standard` and `italy`, "
        "which Crisis: 1914 does not take."
    )
    assert problems(text) == []
    result = replay(games.get("crisis1914"), Record.model_validate(data))  # python -m bot replay
    assert not result.ok and result.message == text
    data["options"] = {"congress": "perhaps"}
    wrong = replay(games.get("crisis1914"), Record.model_validate(data)).message
    assert wrong.startswith("This record's options do not suit Crisis: 1914: `congress` (")
    assert "pydantic" not in wrong and "[type=" not in wrong
    assert await service.table_info(OTHER) is None
