"""A whole 4-player game of Schönbrunn through SimCord, by slash commands only.

Four members open, join and start a `schonbrunn` table with `/game …`, then play every
decision with `/schonbrunn commit|tiebreak|sign|receptions|favour|assign|head|plot|pass|
move|minister|activate|keep`, each order chosen by the engine's automatic player for that
seat and typed as a player would type it (the first time in a round that an option is
typed, its value must be among those its autocomplete offers). Beside the Discord table
the same orders are applied to the engine alone (the "mirror"); after every command the
stored state must equal the mirror's.

What a spectator reads (every text the bot posts or edits into the channel) is checked
after each command: it is the engine's public status and public events and nothing else;
the status shows the round, phase, Hierarchy, each Objective's face-up Delegates and
face-down count, and Prestige; and the same command in a world where every face-down
Delegate has another value, or the player had committed or hidden another one, would have
shown the same texts, except at the moments the rules reveal them (the Hierarchy commit, a
Plot, Congress). The secret commit is prompted by DM, and each player is told their own.
"""

from __future__ import annotations

import random
import re
from typing import Any

import pytest

from engine.core import Event
from engine.schonbrunn import GAME
from engine.schonbrunn import actions as A
from engine.schonbrunn.state import SchonbrunnState

from .whole_game import (  # noqa: F401 (fixtures pytest finds by name)
    SECRET,
    WholeGameTable,
    draw_pictures,
    fixed_seed,
    play_beside_automatic_seats,
    simcord_bot,
    strong_at_test_iterations,
    the_automatic_seats_played_the_strong_player,
)

pytestmark = pytest.mark.simcord

SEED = 1818  # the table seed and the automatic players' seed: a game that uses every command
NAMES = ("anna", "boris", "clara", "dmitri")
STATUS = "**Schönbrunn** round "
COMMITTED = re.compile(r"You committed your (\d+)\.")
# The rulebook's phases, by the engine's stage within them.
PHASES = {
    "commit": "Hierarchy",
    "tiebreak": "Hierarchy",
    "sign": "Hierarchy",
    "receptions": "Hierarchy",
    "favour": "Assignments",
    "assign": "Assignments",
    "plot": "Plot",
    "move": "Chancellery",
    "minister": "Chancellery",
    "activate": "Congress",
    "keep": "Recovery",
    "over": "End of the Game",
}


@pytest.fixture
def seed() -> int:
    return SEED


class SchonbrunnTable(WholeGameTable):
    """A guild channel with four members at a Schönbrunn table, and what each of them sees."""

    game = GAME
    names = NAMES
    channel_name = "congress-of-vienna"

    def __init__(self, env: Any, store: Any, players: int | None = None, automatic: int = 0) -> None:
        super().__init__(env, store, players, automatic)
        self.offered_this_round: set[tuple[str, str]] = set()  # autocompletes already checked

    async def start(self, seed: int) -> str:
        """Open, join, start; returns the host's private answer to `/game start`."""
        started = await super().start(seed)
        answer = started.response.content
        assert started.ephemeral and answer.startswith("The game has started"), answer
        return answer

    async def offered(self, seat: str, command: str, option: str, **filled: Any) -> list[Any]:
        """The values Discord's autocomplete offers the member holding `seat`."""
        member = self.members[self.seats[seat]]
        choices = await member.autocomplete(self.channel, f"{self.group} {command}", option, "", **filled)
        return [c["value"] for c in choices]


# Options typed as a list ("a,b"), free text or a plain number: autocomplete offers no single value for them.
LISTS = {
    ("sign", "treaties"),
    ("tiebreak", "order"),
    ("keep", "treaties"),
    ("keep", "aids"),
    ("activate", "targets"),
    ("plot", "index"),  # a plain number: which of the nation's Delegates in that Objective
}


def translate(state: SchonbrunnState, action: Any) -> tuple[str, dict[str, Any]]:
    """The engine's order as the slash command a player types. Optional options are left
    out where the order is "none", as a player would."""
    match action:
        case A.Commit():
            return "commit", {"delegate": action.delegate}
        case A.TieBreak():
            return "tiebreak", {"order": ", ".join(action.order)}
        case A.Sign():
            return "sign", {"treaties": ",".join(action.treaties)} if action.treaties else {}
        case A.Spend():
            return "receptions", {"amount": action.receptions}
        case A.Favour():
            return "favour", {"objective": action.objective}
        case A.Assign():
            face = "up" if state.assign_step == "up" else "down"
            return "assign", {"delegate": action.delegate, "objective": action.objective, "face": face}
        case A.Head():
            return "head", {"target": action.target} if action.target else {}
        case A.Plot():
            opts = {"nation": action.nation, "objective": action.objective, "receptions": action.receptions}
            return "plot", opts | ({"index": action.index} if action.index != 1 else {})
        case A.Pass():
            return "pass", {}
        case A.Move():
            return "move", {"delegate": f"{action.objective}:{action.delegate}", "to": action.to or "none"}
        case A.Minister():
            return "minister", {"objective": action.objective} if action.objective else {}
        case A.Activate():
            opts = {"treaty": action.treaty, "pay": action.pay}
            if action.objective:
                opts["objective"] = action.objective
            if action.targets:
                opts["targets"] = ",".join(f"{t.nation}:{t.objective}" for t in action.targets)
            return "activate", opts
        case A.Keep():
            opts = {}
            if action.treaties:
                opts = {"treaties": ",".join(action.treaties), "aids": ",".join(action.aids)}
            return "keep", opts
    raise AssertionError(f"no /schonbrunn command expresses {action!r}")


@pytest.mark.usefixtures("fixed_seed")
async def test_a_whole_game_of_schonbrunn_by_slash_commands(env, store):
    table = SchonbrunnTable(env, store)
    opener_answer = await table.start(SEED)
    host_seat = next(s for s, n in table.seats.items() if n == NAMES[0])
    rng = random.Random(SEED)
    mirror = await table.state()  # the same game on the engine alone
    opener = (host_seat, opener_answer)  # (seat, private answer) of the order that opened a phase
    commits: dict[str, list[int]] = {s: [] for s in mirror.seats}  # each seat's Hierarchy Delegates
    rounds_seen = 0

    while GAME.outcome(mirror) is None:
        prompts = GAME.prompts(mirror)
        if mirror.stage == "commit":
            rounds_seen += 1
            _status_shows(await table.full_status(), mirror)
            table.offered_this_round.clear()
            await _secret_prompts_arrive_by_dm(table, mirror, prompts, opener)
            phase_start = len(env.http_requests)
            for i, prompt in enumerate(prompts):
                action = GAME.bot_action(mirror, prompt.seat, rng)
                answer, mirror = await _play(table, mirror, prompt.seat, action)
                assert COMMITTED.findall(answer) == [str(action.delegate)], answer
                commits[prompt.seat].append(action.delegate)
                revealed = _commit_reveals(table.public_since(phase_start))
                if i < len(prompts) - 1:
                    assert revealed == [], f"a Hierarchy Delegate was shown before all were in: {revealed}"
                else:
                    # Its Influence: a printed 0 counts its nation's Ally markers.
                    influence = {
                        GAME.seat_label(mirror, s): v[-1] or sum(mirror.players[s].ally_markers)
                        for s, v in commits.items()
                    }
                    assert revealed == [influence], (revealed, influence)
            opener = (prompt.seat, answer)
            continue

        (prompt,) = prompts  # every other decision is one seat at a time
        action = GAME.bot_action(mirror, prompt.seat, rng)
        answer, mirror = await _play(table, mirror, prompt.seat, action)
        opener = (prompt.seat, answer)

    every = {
        "commit",
        "tiebreak",
        "sign",
        "receptions",
        "favour",
        "assign",
        "assign face",
        "head",
        "head target",
        "plot",
        "pass",
        "move",
        "minister",
        "activate",
        "keep",
    }
    assert every <= table.typed, every - table.typed
    assert rounds_seen == mirror.rounds == 4
    await _the_standings_are_the_engines(table, mirror)
    assert not table.lint(), "\n".join(table.lint())
    _each_commit_reached_its_owner_only(table, commits)


async def _play(
    table: SchonbrunnTable,
    mirror: SchonbrunnState,
    seat: str,
    action: Any,
) -> tuple[str, SchonbrunnState]:
    """Type the order, then check the stored state and everything made public."""
    command, opts = translate(mirror, action)
    for option, value in opts.items():
        # Autocomplete, checked the first time each option is typed in a round (it costs a call).
        if (
            (command, option) not in LISTS
            and option != "face"
            and (command, option) not in table.offered_this_round
        ):
            table.offered_this_round.add((command, option))
            others = {k: v for k, v in opts.items() if k != option}
            offered = await table.offered(seat, command, option, **others)
            assert value in offered, f"/schonbrunn {command} {option}: {value!r} not among {offered}"
    first_call = len(table.env.http_requests)
    answer = await table.order(seat, command, **opts)
    after, events = GAME.apply(mirror, seat, action)
    expected, forced_events, said = _decisions_taken_at_once(after)
    stored = await table.state()
    assert stored == expected, f"{seat}'s /schonbrunn {command} {opts} did not mean {action!r}"
    assert GAME.invariants(stored) == []
    posted = table.public_since(first_call)
    _only_public_texts_were_posted(posted, expected, events + forced_events)
    for line in said:
        assert line in "\n".join(posted), f"the decision taken at once was not said: {line!r}"
    _face_down_values_did_not_show(mirror, seat, action, after, events)
    return answer, expected


def _decisions_taken_at_once(state: SchonbrunnState) -> tuple[SchonbrunnState, list[Event], list[str]]:
    """The decisions the table takes without asking, as the service does after every order
    (`Game.forced_action`: a Delegation Head with nowhere to go is kept): the state after
    them, their events and the public line said for each."""
    events: list[Event] = []
    said: list[str] = []
    while GAME.outcome(state) is None:
        taken = next(
            (
                (p.seat, f)
                for p in GAME.prompts(state)
                if (f := GAME.forced_action(state, p.seat)) is not None
            ),
            None,
        )
        if taken is None:
            break
        seat, forced = taken
        state, more = GAME.apply(state, seat, forced.action)
        events += more
        said.append(forced.said)
    return state, events, said


async def _secret_prompts_arrive_by_dm(
    table: SchonbrunnTable, state: SchonbrunnState, prompts: list, opener: tuple[str, str]
) -> None:
    """Each seat's secret commit prompt reaches its member alone: the member whose order
    opened the round in that order's private answer, everyone else by DM after the grace."""
    assert {p.seat for p in prompts} == set(state.seats)
    await table.secret_prompts_arrive_by_dm(prompts, opener)


def _commit_reveals(texts: list[str]) -> list[dict[str, int]]:
    """Every "Hierarchy Delegates revealed" line a spectator read, as nation -> Influence."""
    found = []
    for text in texts:
        for match in re.finditer(r"Hierarchy Delegates revealed: (.*?)\.(?:\n|$)", text):
            found.append({n: int(v) for n, v in re.findall(r"([^,]+?) (\d+)(?:, |$)", match[1])})
    return found


def _only_public_texts_were_posted(posted: list[str], after: SchonbrunnState, events: list[Event]) -> None:
    """What the command put before spectators is the status message (the round summary
    with the action's public events, then the card of the engine's public view), a
    finished summary, and the standings at the end: no private event, no private view, no
    secret prompt."""
    for text in posted:
        assert SECRET not in text and not COMMITTED.search(text), text
        for e in events:
            if e.audience is not None:
                assert e.text not in text, f"a private line reached the channel: {e.text!r}"
    title = GAME.layout(GAME.view(after, None)).title
    cards = [text for text in posted if title in text]
    assert cards, f"the status was not edited: {posted}"
    _card_shows(cards[-1], after)
    said = "\n".join(posted).replace("**", "")
    for e in events:
        if e.audience is None:
            assert e.text.replace("**", "") in said, f"not in the round summary: {e.text!r}"


def _card_shows(text: str, state: SchonbrunnState) -> None:
    """The status card names the round and phase and the Master of Ceremonies, and gives
    each nation, in Hierarchy order, its player and Prestige."""
    nation = {s: GAME.seat_label(state, s) for s in state.seats}
    assert f"Schönbrunn · Round {state.round} of {state.rounds} · {PHASES[state.stage]}" in text, text
    if state.hierarchy:
        assert f"Master of Ceremonies: {nation[state.master]}" in text
        # one line per seat: "**1. Austria · s1** — **12 Prestige** · …"
        fields = [re.match(r"\*\*\d+\. ([^·]+) · \w+\*\* — ", line) for line in text.splitlines()]
        order = [m[1] for m in fields if m]
        assert order == [nation[s] for s in state.hierarchy], (order, text)
    for s, p in state.players.items():
        assert re.search(rf"{re.escape(nation[s])} · \w+\*\* — \*\*{p.prestige} Prestige\*\*", text), (s, text)


def _status_shows(text: str, state: SchonbrunnState) -> None:
    """The whole status (the Full status button) names the round and phase, the Hierarchy,
    each Objective's face-up Delegates and how many are face down, and every nation's
    Prestige."""
    nation = {s: GAME.seat_label(state, s) for s in state.seats}
    lines = text.splitlines()
    assert lines[0].startswith(f"{STATUS}{state.round}/{state.rounds} · {PHASES[state.stage]}"), lines[0]
    if state.hierarchy:
        order = " › ".join(nation[s] for s in state.hierarchy)
        assert f"Hierarchy: {order} · Master: {nation[state.master]}" in lines
    for objective in state.objectives:
        line = next(x for x in lines if x.startswith(f"**{objective}** "))
        match = re.fullmatch(r"\*\*\w+\*\* .*? \(\d+ left\)(?: · favour \d+)?(?:: (.*))?", line)
        assert match, line
        shown = {}
        for part in (match[1] or "").split("; ") if match[1] else []:
            who = next(n for n in nation.values() if part.startswith(n))
            pieces = [t for t in part[len(who) :].split() if t == "?" or t.isdigit()]
            if pieces:
                shown[who] = pieces
        expected = {}
        for s in state.seats:
            here = [d for d in state.delegates if d.owner == s and d.place == objective]
            up = sorted(d.value for d in here if d.face_up)
            pieces = [str(v) for v in up] + ["?"] * (len(here) - len(up))
            if pieces:
                expected[nation[s]] = pieces
        assert shown == expected, (objective, line)
    prestige = next(x for x in lines if x.startswith("Prestige: "))
    for s, p in state.players.items():
        assert re.search(rf"(?:^|· |: ){re.escape(nation[s])} {p.prestige}P\b", prestige), (s, prestige)


def _other_world(state: SchonbrunnState, seat: str) -> SchonbrunnState:
    """The same game where every Delegate the acting seat cannot see has another value:
    the face-down ones on the board (its own too: the rulebook hides them from their
    owner), and the others' supply and committed Delegate. Values are rotated within each
    owner's hidden pieces, so the set each nation owns is unchanged."""
    other = state.model_copy(deep=True)
    for owner in other.seats:
        hidden = [
            d
            for d in other.delegates
            if not d.face_up
            and not d.known
            and d.owner == owner
            and (d.place in other.objectives or (owner != seat and d.place in ("supply", "committed")))
        ]
        values = [d.value for d in hidden]
        for d, v in zip(hidden, values[1:] + values[:1], strict=True):
            other.change(d, value=v)
    return other


def _secret_choice_varied(state: SchonbrunnState, seat: str, action: Any) -> Any | None:
    """The same order with another Delegate from the seat's supply, where the one chosen
    is secret: the Hierarchy commit and a face-down assignment. None otherwise."""
    face_down = isinstance(action, A.Assign) and state.assign_step != "up"
    if not (isinstance(action, A.Commit) or face_down):
        return None
    supply = {d.value for d in state.delegates if d.owner == seat and d.place == "supply"}
    others = sorted(supply - {action.delegate})
    return action.model_copy(update={"delegate": others[0]}) if others else None


def _face_down_values_did_not_show(
    before: SchonbrunnState,
    seat: str,
    action: Any,
    after: SchonbrunnState,
    events: list[Event],
) -> None:
    """The same order in the other world, and the same order with another face-down or
    committed Delegate, show spectators the same texts, until an event the rules mark as
    a reveal (the Hierarchy commit, a Plot, the Congress) shows a value that differs."""
    worlds = [GAME.apply(_other_world(before, seat), seat, action)]
    varied = _secret_choice_varied(before, seat, action)
    if varied is not None:
        worlds.append(GAME.apply(before, seat, varied))
    mine = [e for e in events if e.audience is None]
    for other, other_events in worlds:
        theirs = [e for e in other_events if e.audience is None]
        revealed = False
        for a, b in zip(mine, theirs, strict=False):
            if a.text != b.text:
                assert a.reveals and a.kind in ("commits", "plot", "congress"), (
                    f"a face-down Delegate's value showed: {a.text!r} / {b.text!r}"
                )
                revealed = True
                break
        if not revealed:
            assert len(mine) == len(theirs), ([e.text for e in mine], [e.text for e in theirs])
            assert GAME.describe(GAME.view(after, None)) == GAME.describe(GAME.view(other, None))
            assert GAME.layout(GAME.view(after, None)) == GAME.layout(GAME.view(other, None))


def _each_commit_reached_its_owner_only(table: SchonbrunnTable, commits: dict[str, list[int]]) -> None:
    """Each member was told their own Hierarchy Delegate every round (privately), and no
    one else's."""
    for seat, name in table.seats.items():
        member = table.members[name]
        seen = [m.content for m in table.channel.history(viewer=member)] + table.dms(name)
        told = [int(v) for text in seen for v in COMMITTED.findall(text)]
        assert told == commits[seat], (name, told, commits[seat])


async def _the_standings_are_the_engines(table: SchonbrunnTable, mirror: SchonbrunnState) -> None:
    row = await table.store.get_table(table.channel.id)
    assert row.status == "finished"
    final = GAME.load_state(row.state)
    outcome = GAME.outcome(final)
    assert outcome is not None and outcome == GAME.outcome(mirror)
    posted = [m.content for m in table.channel.history() if "**Final standings**" in m.content]
    assert len(posted) == 1
    heading, *lines = posted[0].splitlines()
    assert outcome.reason in heading
    assert f"Seed: `{SEED}`" in posted[0]  # the seed is revealed with the standings
    # "1. **boris** · Austria · 23": place, player, nation, score; how each score was
    # reached is behind the standings' button (the full status)
    line = re.compile(r"(\d+)\. \*\*(\w+)\*\*(?: · .*)? · (-?\d+(?:\.\d+)?)")
    shown = []
    for text in lines:
        match = line.fullmatch(text)
        if not match:
            break  # the standings end where the seed's lines begin
        shown.append((int(match[1]), match[2], float(match[3])))
    best_first = sorted(outcome.standings, key=lambda s: (s.rank, -s.score))
    assert shown == [(s.rank, table.seats[s.seat], s.score) for s in best_first]
    full = await table.full_status()
    assert all(s.detail in full for s in best_first if s.detail), full
    assert [s.score for s in best_first] == [final.players[s.seat].prestige for s in best_first]


def _commands(state: SchonbrunnState, seat: str, action: Any) -> list[tuple[str, dict[str, Any], str | None]]:
    command, options = translate(state, action)
    return [(command, options, None)]


@pytest.mark.usefixtures("fixed_seed", "strong_at_test_iterations")
async def test_a_whole_game_of_schonbrunn_beside_an_automatic_seat_at_the_table_default(
    env, store, service
):
    """A whole game of Schönbrunn with three members and one automatic seat at the table default
    (`strong`), through SimCord under its default settle time (why that is deterministic:
    `play_beside_automatic_seats`); every decision the worker took is decided again in this
    process from the stored log and must be the same."""
    table = SchonbrunnTable(env, store, players=3, automatic=1)
    await table.start(SEED)
    final = await play_beside_automatic_seats(table, _commands, SEED)
    assert GAME.outcome(final) is not None
    assert (await store.get_table(table.channel.id)).status == "finished"
    assert await the_automatic_seats_played_the_strong_player(table, "strong") >= 10
    assert service.automatic.overruns == 0 and service.automatic.lost_workers == 0
