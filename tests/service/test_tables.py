"""The table service over a temporary SQLite file: lifecycle, play, refusals, concurrency."""

from __future__ import annotations

import asyncio
import json
import random
from typing import Annotated, Any, Literal

import pytest
from pydantic import Field, TypeAdapter

from bot.discord.markup import markup
from bot.service.lobby import _honour_preferences
from bot.service.tables import TableError, TableService
from bot.store import SeatRow, open_store
from engine import games
from engine.core import Event, Game, GameState, Model, Outcome, Prompt
from tests.tinygame import EnvoyOptions, Envoys

from .conftest import ALICE, BOB, CAROL, CHANNEL, seated


@pytest.fixture(autouse=True)
def more_games(registry):
    registry.register(Preferring())
    registry.register(Counter())


async def _play_round(service: TableService, commits=(2, 3), presser=ALICE) -> None:
    for user, value in zip((ALICE, BOB), commits, strict=True):
        await service.command(CHANNEL, user, "commit", {"value": str(value)})
    await service.command(CHANNEL, presser, "press", {})  # the round's first seat
    for user in (ALICE, BOB):
        await service.command(CHANNEL, user, "ready", {})


# -- lifecycle ---------------------------------------------------------------------------------


async def test_create_join_start_seats_players_in_join_order(service):
    out = await service.lobby.create(CHANNEL, 9, "envoys", ALICE, "alice")
    assert "Envoys" in out.posts[0].text and out.reply
    await service.lobby.join(CHANNEL, BOB, "bob", "s2")
    await service.lobby.join(CHANNEL, CAROL, "carol")
    await service.lobby.leave(CHANNEL, CAROL)
    out = await service.lobby.start(CHANNEL, ALICE, seed=7)
    info = await service.table_info(CHANNEL)
    assert info.status == "running" and info.game == "envoys" and info.host_id == ALICE
    assert [(s.seat, s.user_id, s.name) for s in info.seats] == [("s1", ALICE, "alice"), ("s2", BOB, "bob")]
    assert await service.seat_user(CHANNEL, "s2") == BOB
    # both owe a secret commit, told by DM with the deadline as a Discord timestamp
    prompts = [p for p in out.posts if p.kind == "prompt"]
    assert {(p.seat, p.user_id, p.dm) for p in prompts} == {("s1", ALICE, True), ("s2", BOB, True)}
    assert all("<t:" in markup(p.text) and ":R>" in markup(p.text) for p in prompts)


async def test_lobby_refusals_say_what_is_wrong(service):
    with pytest.raises(TableError, match="There is no table in this channel."):
        await service.lobby.join(CHANNEL, BOB, "bob")
    with pytest.raises(TableError, match="No game called 'chess'"):
        await service.lobby.create(CHANNEL, 9, "chess", ALICE, "alice")
    await service.lobby.create(CHANNEL, 9, "envoys", ALICE, "alice")
    with pytest.raises(TableError, match="already has a table"):
        await service.lobby.create(CHANNEL, 9, "envoys", BOB, "bob")
    with pytest.raises(TableError, match="already seated"):
        await service.lobby.join(CHANNEL, ALICE, "alice")
    with pytest.raises(TableError, match="needs at least 2 players; 1 seated"):
        await service.lobby.start(CHANNEL, ALICE)
    await service.lobby.join(CHANNEL, BOB, "bob")
    with pytest.raises(TableError, match=r"Only the host \(alice\) can start"):
        await service.lobby.start(CHANNEL, BOB)
    for uid in (3, 4):
        await service.lobby.join(CHANNEL, uid, f"p{uid}")
    with pytest.raises(TableError, match=r"The table is full \(4 players\)"):
        await service.lobby.join(CHANNEL, 5, "p5")
    with pytest.raises(TableError, match="You are not seated"):
        await service.lobby.leave(CHANNEL, 5)


async def test_the_host_leaving_passes_the_host_role_on(service):
    await service.lobby.create(CHANNEL, 9, "envoys", ALICE, "alice")
    await service.lobby.join(CHANNEL, BOB, "bob")
    out = await service.lobby.leave(CHANNEL, ALICE)
    assert "bob is now the host" in out.posts[0].text
    assert (await service.table_info(CHANNEL)).host_id == BOB


async def test_abandon_only_by_the_host_or_a_server_manager(service):
    await seated(service, "alice", "bob")
    with pytest.raises(TableError, match="Only the host"):
        await service.abandon(CHANNEL, BOB)
    await service.abandon(CHANNEL, BOB, admin=True)
    assert (await service.table_info(CHANNEL)).status == "abandoned"
    with pytest.raises(TableError, match="The game is over."):
        await service.command(CHANNEL, ALICE, "commit", {"value": "1"})
    await service.lobby.create(CHANNEL, 9, "envoys", BOB, "bob")  # the channel is free again


class PreferenceOptions(EnvoyOptions):
    preferences: dict[str, str] = Field(default_factory=dict)


class PreferenceState(Envoys.State):  # type: ignore[name-defined]
    nations: dict[str, str] = Field(default_factory=dict)


class Preferring(Envoys):
    """Envoys whose setup honours nation preferences, as a real game's may."""

    id = "envoys-pref"
    Options = PreferenceOptions
    State = PreferenceState

    def setup(self, seats, options, seed):
        base = super().setup(seats, EnvoyOptions(rounds=options.rounds), seed)
        return PreferenceState(**base.model_dump(), nations=dict(options.preferences))

    def seat_label(self, state, seat):
        return state.nations.get(seat, seat)


async def test_a_nation_preference_reaches_a_game_that_takes_preferences(service):
    await service.lobby.create(CHANNEL, 9, "envoys-pref", ALICE, "alice")
    await service.lobby.join(CHANNEL, BOB, "bob", preference="France")
    await service.lobby.start(CHANNEL, ALICE, seed=1)
    info = await service.table_info(CHANNEL)
    assert [(s.name, s.label) for s in info.seats] == [("alice", "s1"), ("bob", "France")]
    assert "2. bob — France" in markup(await service.status(CHANNEL))


# -- play --------------------------------------------------------------------------------------


async def test_play_refusals_are_clear(service):
    await seated(service, "alice", "bob", "carol")
    with pytest.raises(TableError, match="You are not seated at this table."):
        await service.command(CHANNEL, 99, "commit", {"value": "1"})
    with pytest.raises(TableError, match=r"^Commit 1, 2 or 3, not 5\.$"):  # the engine's words
        await service.command(CHANNEL, ALICE, "commit", {"value": "5"})
    with pytest.raises(TableError, match="value must be a whole number"):
        await service.command(CHANNEL, ALICE, "commit", {"value": "two"})
    with pytest.raises(TableError, match="needs value:"):
        await service.command(CHANNEL, ALICE, "commit", {})
    with pytest.raises(TableError, match="There is no /envoys bid"):
        await service.command(CHANNEL, ALICE, "bid", {})
    with pytest.raises(TableError, match="That is not possible in this phase"):
        await service.act(CHANNEL, ALICE, {"kind": "bid"})
    await service.command(CHANNEL, ALICE, "commit", {"value": "1"})
    with pytest.raises(TableError, match=r"It is not your turn: bob owes commit; carol owes commit\."):
        await service.command(CHANNEL, ALICE, "commit", {"value": "2"})
    with pytest.raises(TableError, match="It is not the press phase."):  # engine refusal passed through
        await service.command(CHANNEL, BOB, "press", {})
    assert [a.idx for a in await service.store.get_actions(CHANNEL)] == [0]


async def test_a_query_command_shows_only_the_callers_view(service):
    await seated(service, "alice", "bob")
    await service.command(CHANNEL, ALICE, "commit", {"value": "3"})
    out = await service.command(CHANNEL, ALICE, "hand", {})
    assert "Your commit: 3" in markup(out.reply) and out.posts == []
    assert "Your commit" not in markup((await service.command(CHANNEL, BOB, "hand", {})).reply)
    assert "Your commit: 3" in markup(await service.me(CHANNEL, ALICE))
    with pytest.raises(TableError, match="not seated"):
        await service.me(CHANNEL, 99)


async def test_autocomplete_offers_the_commands_choices_and_never_raises(service):
    await seated(service, "alice", "bob")
    values = await service.suggest(CHANNEL, ALICE, "commit", "value", {}, "")
    assert [c.value for c in values] == ["1", "2", "3"]
    assert [c.value for c in await service.suggest(CHANNEL, ALICE, "commit", "value", {}, "2")] == ["2"]
    assert await service.suggest(CHANNEL, 99, "commit", "value", {}, "") == []
    assert await service.suggest(CHANNEL, ALICE, "nope", "value", {}, "") == []
    assert await service.suggest(12345, ALICE, "commit", "value", {}, "") == []


async def test_a_whole_game_ends_with_standings_and_the_seed(service):
    await seated(service, "alice", "bob", seed=11)
    for presser in (ALICE, BOB):
        await _play_round(service, presser=presser)
    await service.command(CHANNEL, ALICE, "commit", {"value": "1"})
    await service.command(CHANNEL, BOB, "commit", {"value": "3"})
    await service.command(CHANNEL, ALICE, "yield", {})
    await service.command(CHANNEL, ALICE, "ready", {})
    out = await service.command(CHANNEL, BOB, "ready", {})
    final = [p for p in out.posts if p.kind == "standings"]
    assert len(final) == 1 and final[0].to == "channel"
    assert final[0].text.splitlines()[1].startswith("1. **bob**")  # bob committed the unique high every round
    assert "Seed: `11`" in "\n".join(p.text for p in out.posts)
    assert out.close_thread and "The game is over." in out.status
    assert (await service.table_info(CHANNEL)).status == "finished"
    with pytest.raises(TableError, match="The game is over."):
        await service.command(CHANNEL, ALICE, "commit", {"value": "1"})
    assert len(await service.store.get_actions(CHANNEL)) == 15


async def test_the_action_log_replays_to_the_stored_state(service):
    await seated(service, "alice", "bob", seed=5)
    await _play_round(service, (1, 1))
    await service.command(CHANNEL, ALICE, "commit", {"value": "2"})
    game = games.get("envoys")
    state = game.setup(["s1", "s2"], game.Options(), 5)
    for a in await service.store.get_actions(CHANNEL):
        state, _ = game.apply(state, a.seat, game.parse_action(json.loads(a.action)))
    assert state.model_dump_json() == (await service.store.get_table(CHANNEL)).state


async def test_a_restarted_service_loads_the_table_from_the_database(tmp_path, clock):
    path = tmp_path / "bot.sqlite3"
    store = await open_store(path)
    service = TableService(store, clock=clock)
    await seated(service, "alice", "bob")
    await service.command(CHANNEL, ALICE, "commit", {"value": "2"})
    await store.close()
    store = await open_store(path)
    try:
        again = TableService(store, clock=clock)
        out = await again.command(CHANNEL, BOB, "commit", {"value": "1"})
        assert any("Commits: s1=2, s2=1" in p.text for p in out.posts)
    finally:
        await store.close()


# -- concurrency -------------------------------------------------------------------------------


class Tally(Model):
    kind: Literal["tally"] = "tally"
    by: int


class TallyState(GameState):
    marks: list[int] = Field(default_factory=list)


class Counter(Game[TallyState, Tally, dict[str, Any]]):
    """Every seat may always add a mark: fifty orders that are all legal at once."""

    id = "counter"
    title = "Counter (test game)"
    min_players = 1
    max_players = 4
    Options = EnvoyOptions
    State = TallyState
    Action = TypeAdapter(Annotated[Tally, Field(discriminator="kind")])

    def setup(self, seats, options, seed):
        return TallyState(game=self.id, seed=seed, seats=seats)

    def prompts(self, state):
        return [Prompt(seat=s, kind="tally", text="Add a mark.", phase="count") for s in state.seats]

    def play(self, state, seat, action, rng: random.Random):
        state.marks.append(action.by)
        return [Event(kind="tally", text=f"{seat} marks {action.by} ({len(state.marks)})")]

    def view(self, state, seat) -> dict[str, Any]:
        return {"marks": len(state.marks)}

    def describe(self, view):
        return f"{view['marks']} marks"

    def outcome(self, state) -> Outcome | None:
        return None

    def default_action(self, state, seat):
        return Tally(by=0)

    def bot_action(self, state, seat, rng):
        return Tally(by=0)


async def test_fifty_simultaneous_actions_on_one_table_serialize_with_nothing_lost(service):
    await service.lobby.create(CHANNEL, 9, "counter", ALICE, "alice")
    for uid in (BOB, CAROL, 4):
        await service.lobby.join(CHANNEL, uid, f"p{uid}")
    await service.lobby.start(CHANNEL, ALICE, seed=1)
    users = [ALICE, BOB, CAROL, 4]
    await asyncio.gather(*(service.act(CHANNEL, users[i % 4], {"kind": "tally", "by": i}) for i in range(50)))
    state = games.get("counter").load_state((await service.store.get_table(CHANNEL)).state)
    assert sorted(state.marks) == list(range(50)) and state.step == 50
    actions = await service.store.get_actions(CHANNEL)
    assert [a.idx for a in actions] == list(range(50))
    assert (await service.store.get_table(CHANNEL)).version == 1 + 4 + 50  # create, 3 joins + start, 50 acts


async def test_two_services_on_one_database_never_overwrite_each_other(tmp_path, clock):
    # Two processes (shards) on one file: each one's cache goes stale; the version check
    # refuses the stale write and the service retries on fresh rows.
    first = await open_store(tmp_path / "shared.sqlite3")
    second = await open_store(tmp_path / "shared.sqlite3")
    try:
        a, b = TableService(first, clock=clock), TableService(second, clock=clock)
        await a.lobby.create(CHANNEL, 9, "counter", ALICE, "alice")
        await a.lobby.join(CHANNEL, BOB, "bob")
        await a.lobby.start(CHANNEL, ALICE, seed=1)
        for i in range(6):
            await (a if i % 2 else b).act(CHANNEL, ALICE, {"kind": "tally", "by": i})
        state = games.get("counter").load_state((await first.get_table(CHANNEL)).state)
        assert state.marks == list(range(6))
    finally:
        await first.close()
        await second.close()


class Nations(Envoys):
    """Envoys whose seats are nations in table order, dealt by setup; no preference option."""

    id = "envoys-nations"
    NATIONS = ("Britain", "France", "Germany & Austria-Hungary")
    max_players = 3  # one seat per nation

    def seat_label(self, state, seat):
        return self.NATIONS[state.seats.index(seat)]


async def test_a_game_without_a_preference_option_seats_players_on_the_nation_they_asked_for(
    service, registry
):
    registry.register(Nations())
    await service.lobby.create(CHANNEL, 9, "envoys-nations", ALICE, "alice")
    await service.lobby.join(CHANNEL, BOB, "bob", preference="germany")
    await service.lobby.join(CHANNEL, CAROL, "carol", preference="Britain")
    await service.lobby.start(CHANNEL, ALICE, seed=1)
    info = await service.table_info(CHANNEL)
    assert [(s.name, s.label) for s in info.seats] == [
        ("alice", "France"),
        ("bob", "Germany & Austria-Hungary"),
        ("carol", "Britain"),
    ]
    out = await service.command(CHANNEL, CAROL, "commit", {"value": "2"})
    assert [(p.seat, p.user_id) for p in out.posts if p.to == "seat"] == [("s1", CAROL)]


def test_a_preference_already_taken_falls_back_to_join_order():
    labels = {"s1": "Britain", "s2": "France", "s3": "Germany"}
    seats = [
        SeatRow(1, uid, name, uid, pref)
        for uid, name, pref in [(1, "a", None), (2, "b", "germany"), (3, "c", "GERMANY")]
    ]
    assert [s.seat for s in _honour_preferences(seats, labels)] == ["s1", "s3", "s2"]


async def test_what_setup_already_did_is_posted_and_logged_at_start(service):
    """Crisis: 1914's setup runs the First Draw until its first decision; the cards it put
    on the Tableaux are public and must appear in the channel and in /game log."""
    await service.lobby.create(CHANNEL, None, "crisis1914", ALICE, "alice")
    await service.lobby.join(CHANNEL, BOB, "bob")
    out = await service.lobby.start(CHANNEL, ALICE, seed=5)
    first_draw = [p.text for p in out.posts if p.to == "channel" and p.text.startswith("First Draw: ")]
    assert first_draw == [
        "First Draw: Berchtold drew Stürgkh (3 DP) to the Tableau.",
        "First Draw: Sazonov drew Kokovtsov (1 DP) to the Tableau.",
    ]
    log = await service.history.log(CHANNEL)
    assert all(line in log for line in first_draw)


def test_the_lasting_allies_option_is_listed_with_its_rulebook_section():
    """An option a table may set is listed with what it does and the rulebook
    section it comes from."""
    from bot.service.reference import table_options

    option = next(o for o in table_options(games.get("schonbrunn")) if o.name == "lasting_allies")
    assert option.default == "no" and "Ally markers last for the rest of the game" in option.description
    assert option.section.startswith("rules: Phase 6")


async def test_simplified_schonbrunn_with_the_auction_is_refused_saying_why(service):
    """Variants: the Auction is bid in Receptions, which the simplified rules do not have."""
    with pytest.raises(TableError, match="choose simplified or auction, not both"):
        await service.lobby.create(CHANNEL, None, "schonbrunn", ALICE, "ann", {"simplified": True, "auction": True})


@pytest.mark.parametrize(
    "policy, preferences, seated",
    [
        # Crisis lets players choose sides: a preference nobody else shares is honoured
        ("choose", [None, "germany", "germany"], ["s1", "s2", "s3"]),
        ("choose", [None, "germany", "france"], ["s1", "s3", "s2"]),
        # Schönbrunn deals at random unless all agree: every player must name a different nation
        ("agreed", [None, "germany", "france"], ["s1", "s2", "s3"]),
        ("agreed", ["britain", "germany", "france"], ["s1", "s3", "s2"]),
        # Origins assigns countries at random (§1): preferences are not honoured
        ("random", ["germany", "france", "britain"], ["s1", "s2", "s3"]),
        # the host's choose_nations: first come first served
        ("first_come", [None, "germany", "GERMANY"], ["s1", "s3", "s2"]),
    ],
)
def test_join_preferences_follow_each_rulebooks_deal(policy, preferences, seated):
    """Who gets which nation follows the rulebook (Game.nation_choice)."""
    labels = {"s1": "Britain", "s2": "France", "s3": "Germany"}
    seats = [SeatRow(1, uid, f"p{uid}", uid, pref) for uid, pref in enumerate(preferences, 1)]
    assert [s.seat for s in _honour_preferences(seats, labels, policy)] == seated


def test_each_game_says_who_gets_which_nation_in_game_rules(service):
    assert games.get("origins").nation_choice == "random"
    assert games.get("schonbrunn").nation_choice == "agreed"
    assert games.get("crisis1914").nation_choice == "choose"
    assert "Countries are assigned at random (§1)" in service.rules("origins")
    assert "unless all players agree" in service.rules("schonbrunn")
    assert "Players choose their nations" in service.rules("crisis1914")


async def test_origins_ignores_a_preference_unless_the_host_sets_choose_nations(service):
    """§1: the countries are assigned at random (a preference would also reorder the
    clockwise bidding); the host's choose_nations honours it."""
    origins = games.get("origins")
    dealt = origins.setup(["s1", "s2"], origins.Options(), 7)
    first = origins.seat_label(dealt, "s1").split(" ")[0]  # a country dealt to the first seat
    for channel, options, bob_seat in ((CHANNEL, {}, "s2"), (CHANNEL + 1, {"choose_nations": True}, "s1")):
        await service.lobby.create(channel, None, "origins", ALICE, "alice", options)
        await service.lobby.join(channel, BOB, "bob", preference=first)
        await service.lobby.start(channel, ALICE, seed=7)
        info = await service.table_info(channel)
        assert next(s.seat for s in info.seats if s.name == "bob") == bob_seat, options
