"""A whole 3-player game of Crisis: 1914 through SimCord, by slash commands only.

Three members open, join and start a `crisis1914` table with `/game …`, then play every
decision with `/crisis draw|play|place|deliberate|choose|reorganize|reorder|seize|pass|
discard|reduce|congress|refresh` (the group is `/crisis`), each order
chosen by the engine's automatic player for that seat and typed as the slash command a
player would type (cards by their printed names).
Beside the Discord table the same orders are applied to the engine alone (the "mirror");
after every command the stored state must equal the mirror's, so each command is checked
to have meant exactly the order it was typed for.

Secrecy is judged against the engine's own views: a card name may reach an observer (the
channel and its threads, or one member's private answers and DMs) only if that observer's
view shows the card before or after the command. So no card in a Hand, a Draw Pile or
a Deliberation's draw reaches the channel until the rules put it on a Tableau or in a
discard pile, and no member is told another's Hand.
"""

from __future__ import annotations

import random
import re
from typing import Any

import pytest

from bot.discord.play_commands import command_name
from engine.crisis1914 import GAME
from engine.crisis1914 import actions as a
from engine.crisis1914.cards import card_dp
from engine.crisis1914.content import load_content
from engine.crisis1914.state import CrisisState
from engine.crisis1914.texts import card_text

from .whole_game import (  # noqa: F401 (fixtures pytest finds by name)
    WholeGameTable,
    draw_pictures,
    fixed_seed,
    play_beside_automatic_seats,
    simcord_bot,
    strong_at_test_iterations,
    the_automatic_seats_played_the_strong_player,
)

pytestmark = pytest.mark.simcord

# The table seed (fixed: the same game every run), also the automatic players' seed. With the
# engine and cards as written, 386 is weathered to the end of Week 6 and in 151 Sazonov loses
# in Week 3. A Score Step choice of Tension die (/crisis reduce) is rare: 386 is the one seed
# of 1-399 whose game asks for it, so only there must every command be typed. A change to the
# cards changes the games: rescan the seeds when this test says a seed never typed a command.
SEEDS = (386, 151)
RARE = {386: set(), 151: {"reduce"}}  # commands a seed's game may never ask for
NAMES = ("anna", "boris", "clara")
CARDS = {cid: c.name for cid, c in load_content().cards.items()}
# The slash-command group as the adapter registers it: /crisis.
GROUP = command_name(GAME.group)


@pytest.fixture(params=SEEDS, ids=lambda seed: f"seed {seed}")
def seed(request: pytest.FixtureRequest) -> int:
    return request.param


class CrisisTable(WholeGameTable):
    """A guild channel with three members at a Crisis: 1914 table, and what each of them sees."""

    game = GAME
    names = NAMES
    channel_name = "crisis"

    def answer(self, result: Any) -> str:
        return "\n".join(m.content for m in [result.response, *result.followups])

    async def thread(self, name: str) -> Any:
        info = await self.store.get_front(self.channel.id)  # what Discord answered: the front end's row
        thread = next(t for t in self.channel.threads if t.name == name)
        assert info.thread_id == thread.id and not await self.archived(thread.id)
        return thread


def choose_order(state: CrisisState, seat: str, rng: random.Random, done: set[type]) -> Any:
    """The automatic player's order, except that from Week 2 on a Play Step action it never
    or seldom takes (Reorganize: never, as it only Reorganizes when it already knows the top
    of its Draw Pile, which only Reorganize teaches; Seize: about once in 150 games) is
    typed once instead, the first legal one, so that every command is played here."""
    action = GAME.bot_action(state, seat, rng)
    done.add(type(action))
    if state.phase != "play" or state.pending or state.week < 2:
        return action
    for kind in (a.Reorganize, a.Seize, a.Deliberate):
        if kind in done or (kind is a.Reorganize and len(state.player_of(seat).draw) < 2):
            continue
        legal = [x for x in GAME.legal_actions(state, seat) if isinstance(x, kind)]
        if legal:
            done.add(kind)
            return legal[0]
    return action


def translate(state: CrisisState, action: Any) -> tuple[str, dict[str, Any]]:
    """The engine's order as the slash command a player types: (command, options)."""
    choices: dict[str, Any] = {}
    if isinstance(action, a.CardChoices):  # the options a card takes as it lands on the Tableau
        choices = {k: True for k in ("belligerence", "alternative") if getattr(action, k)}
        if action.box:
            choices["box"] = load_content().nations[action.box].name
        if action.reclaim:
            choices["reclaim"] = CARDS[action.reclaim]
    if isinstance(action, a.Draw):
        return "draw", {}
    if isinstance(action, a.Pass):
        return "pass", {}
    if isinstance(action, a.Play):
        return "play", {"card": CARDS[action.card], **choices}
    if isinstance(action, a.Resolve):
        if state.pending[0].kind == "resolve":
            return "place", choices
        return "choose", {"card": CARDS[action.card], **choices}
    if isinstance(action, a.Deliberate | a.Reorganize):
        return action.kind, {"discard": CARDS[action.discard]}
    if isinstance(action, a.Reorder | a.Seize):
        cards = action.order if isinstance(action, a.Reorder) else action.discards
        assert len(cards) <= 3, f"/{GROUP} {action.kind} names at most three cards, not {cards}"
        return action.kind, {k: CARDS[c] for k, c in zip(("first", "second", "third"), cards, strict=False)}
    if isinstance(action, a.Discard):
        assert len(action.cards) <= 2, f"/crisis discard names at most two cards, not {action.cards}"
        return "discard", {k: CARDS[c] for k, c in zip(("card", "card2"), action.cards, strict=False)}
    if isinstance(action, a.Reduce):
        nations = load_content().nations
        box = (
            action.box
            or nations[state.player_of(state.players[state.pending[0].nation].seat).nation].boxes[0]
        )
        return "reduce", {"box": nations[box].name}
    if isinstance(action, a.Congress):
        inviting = state.phase == "congress_invite"
        answer = ("invite" if action.yes else "no") if inviting else ("attend" if action.yes else "refuse")
        return "congress", {"answer": answer}
    assert isinstance(action, a.Refresh), action
    return "refresh", {"discards": ", ".join(CARDS[c] for c in action.discards) or "none"}


@pytest.mark.usefixtures("fixed_seed")
async def test_a_whole_game_of_crisis_by_slash_commands(env, store, seed):
    table = CrisisTable(env, store)
    await table.start(seed)
    rng = random.Random(seed)
    mirror = await table.state()  # the same game on the engine alone
    _the_status_shows_the_table(table.status(), mirror)
    _the_full_status_shows_the_tableaux(await table.full_status(), mirror)
    weeks_seen: set[int] = set()
    congresses = refreshes = secret_dms = 0
    kinds: set[type] = set()  # the kinds of order given so far
    opener: tuple[str, str] | None = None  # (seat, private answer) of the last order given

    while GAME.outcome(mirror) is None:
        prompts = GAME.prompts(mirror)
        if mirror.week not in weeks_seen:  # each member looks at their Hand once a Week
            weeks_seen.add(mirror.week)
            _the_full_status_shows_the_tableaux(await table.full_status(), mirror)
            for seat in table.seats:
                await _the_hand_is_shown_to_its_holder_only(table, mirror, seat)
        where = None
        if mirror.phase == "refresh":
            refreshes += 1  # only Weeks that end with cards in some Hand ask for a Refresh choice
            secret_dms += await _secret_prompts_arrive_by_dm(table, mirror, prompts, opener)
        elif mirror.phase in ("congress_invite", "congress_answer"):
            if mirror.phase == "congress_invite":
                congresses += 1
            where = await table.thread(f"Week {mirror.week} Congress")
        for prompt in prompts:
            if not GAME.may_act(mirror, prompt.seat):
                continue  # a Congress refused before this delegate answered (they are asked at once)
            action = choose_order(mirror, prompt.seat, rng, kinds)
            if isinstance(action, a.Play):
                await _only_the_hand_is_offered(table, mirror, prompt.seat)
            answer, mirror = await _give(table, mirror, prompt.seat, action, where)
            opener = (prompt.seat, answer)
        if where is not None and mirror.phase not in ("congress_invite", "congress_answer"):
            assert await table.archived(where.id), "the Congress thread outlived the Congress"

    unplayed = {c.name for c in GAME.commands} - table.typed - RARE[seed]
    assert not unplayed, f"this seed never typed /{GROUP} {', '.join(sorted(unplayed))}: pick one that does"
    assert mirror.week >= 2 and congresses >= 1 and refreshes >= 1, (congresses, refreshes)
    assert secret_dms >= 1, "no secret Refresh prompt was ever DMed"
    await _the_standings_are_the_engines(table, mirror)
    assert not table.lint(), "\n".join(table.lint())


async def _give(
    table: CrisisTable, mirror: CrisisState, seat: str, action: Any, where: Any
) -> tuple[str, CrisisState]:
    """One order typed as its command; the stored state must be the engine's for that order,
    and what each observer was shown must be what the engine lets them know."""
    command, options = translate(mirror, action)
    first_call = len(table.env.http_requests)
    dms_before = {name: len(table.dms(name)) for name in table.members}
    answer = await table.order(seat, command, where, **options)

    expected, events = GAME.apply(mirror, seat, action)
    stored = await table.state()
    assert stored == expected, f"/{GROUP} {command} {options} did not mean {action!r}"
    assert GAME.invariants(stored) == []

    public = table.public_since(first_call, new_only=True)
    told = {  # each member's private texts from this command: their answer and their DMs
        name: table.dms(name)[dms_before[name] :] + ([answer] if table.seats[seat] == name else [])
        for name in table.members
    }
    for event in events:
        if event.audience is None:
            continue
        owner = table.seats[event.audience]
        assert any(event.text in text for text in told[owner]), (owner, event.text, told[owner])
        for name, texts in told.items():
            assert name == owner or not any(event.text in text for text in texts), (name, event.text)
        assert not any(event.text in text for text in public), event.text
    # a card discarded face up is seen by all, even if a re-formed Draw Pile takes it at once
    face_up = {
        CARDS[c] for e in events if e.audience is None and e.kind == "discard" and (c := e.data.get("card"))
    }
    _nothing_unseen_is_named(public, _hidden_from(mirror, expected, None) - face_up, "the channel")
    for name, texts in told.items():
        seat_of = next(s for s, n in table.seats.items() if n == name)
        _nothing_unseen_is_named(texts, _hidden_from(mirror, expected, seat_of) - face_up, name)
    if expected.phase != "over":
        _the_status_shows_the_table(table.status(), expected)
    return answer, expected


def _card_ids(view: Any) -> set[str]:
    """Every card a view shows, wherever it sits."""
    if isinstance(view, dict):
        return set().union(*(_card_ids(v) for v in view.values())) if view else set()
    if isinstance(view, list):
        return set().union(*(_card_ids(v) for v in view)) if view else set()
    return {view} if isinstance(view, str) and view in CARDS else set()


def _hidden_from(before: CrisisState, after: CrisisState, seat: str | None) -> set[str]:
    """The names of the cards in Hands, Draw Piles and Deliberations that the observer's view
    shows neither before nor after the command: none of them may be named to the observer."""
    unseen: set[str] = set()
    for state in (before, after):
        for p in state.players.values():
            unseen |= {*p.hand, *p.draw}
        unseen |= {c for x in state.pending for c in x.cards}
    unseen -= _card_ids(GAME.view_dict(GAME.view(before, seat))) | _card_ids(GAME.view_dict(GAME.view(after, seat)))
    return {CARDS[c] for c in unseen}


def _nothing_unseen_is_named(texts: list[str], unseen: set[str], who: str) -> None:
    for text in texts:
        for name in unseen:
            # "Lichnowsky" inside "Warning to Lichnowsky" names the other card, not this one
            rest = text
            for longer in CARDS.values():
                if name in longer and longer != name:
                    rest = rest.replace(longer, "")
            assert not re.search(rf"(?<!\w){re.escape(name)}(?!\w)", rest), f"{who} was shown {name}: {text}"


def _the_status_shows_the_table(status: str, state: CrisisState) -> None:
    """The channel's status message shows the Week, the statesmen in Initiative order, and
    each one's DP, Prestige and Tension as they are now (the status card, laid out for a phone)."""
    nations = load_content().nations
    assert f"Week {state.week} of 6" in status, status
    order = [n for n in state.current if n] + [n for n in state.players if n not in state.current]
    # one line per seat: "**1. Berchtold (Austria-Hungary) · anna** — **3 DP** · …"
    fields = [m[1] for line in status.splitlines() if (m := re.match(r"\*\*\d+\. (.+?) \(", line))]
    assert fields[-len(order) :] == [nations[n].statesman for n in order], (fields, status)
    for nid, p in state.players.items():
        dp = f"{p.score}" + (f" & {p.second}" if p.second is not None else "")
        assert f"**{dp} DP** · {p.prestige} Prestige · Belligerence {p.belligerence}" in status, (nid, status)
        tension = ", ".join(f"{nations[b].name} {t}" for b, t in state.tension[nid].items())
        assert f"Tension: {tension} · " in status, (nid, status)
    assert "Your Hand" not in status


def _the_full_status_shows_the_tableaux(full: str, state: CrisisState) -> None:
    """The status message's Full status button shows every Tableau card by card."""
    nations = load_content().nations
    initiative = " > ".join(nations[n].statesman for n in state.current if n)
    assert f"Initiative: {initiative}" in full, full
    for p in state.players.values():
        if p.tableau:
            played = ", ".join(
                f"{CARDS[t.card]} {t.dp}" + (" (Belligerence)" if t.belligerence else "") for t in p.tableau
            )
            assert f"Tableau: {played}" in full, (p.nation, full)
    assert "Your Hand" not in full


async def _the_hand_is_shown_to_its_holder_only(table: CrisisTable, state: CrisisState, seat: str) -> None:
    name = table.seats[seat]
    result = await table.members[name].slash(table.channel, f"{GROUP} hand")
    shown = table.answer(result)
    assert result.ephemeral, shown
    p = state.player_of(seat)
    hand = p.hand
    lines = shown.splitlines()
    at = next(i for i, t in enumerate(lines) if t.startswith("Your Hand:"))
    # "Your Hand:" then "• **Giesl**: 0 DP, Assertion (…). When played: …", one card a line
    listed = lines[at + 1 : at + 1 + len(hand)]
    names = [re.match(r"• \*\*(.+?)\*\*: ", t)[1] for t in listed if t.startswith("• ")]
    assert names == [CARDS[c] for c in hand] or (not hand and lines[at] == "Your Hand: empty"), (lines, hand)
    # each card's whole text is in its holder's view, DP as it stands now
    for cid, text in zip(hand, listed, strict=True):
        c = load_content().cards[cid]
        assert text.endswith(card_text(c, card_dp(state, p, c))), text
    _nothing_unseen_is_named([shown], _hidden_from(state, state, seat), name)
    table.typed.add("hand")


async def _only_the_hand_is_offered(table: CrisisTable, state: CrisisState, seat: str) -> None:
    """`/crisis play card:` suggests the caller's own Hand, nothing else."""
    offered = await table.members[table.seats[seat]].autocomplete(table.channel, f"{GROUP} play", "card", "")
    assert {c["value"] for c in offered} == set(state.player_of(seat).hand), offered


async def _secret_prompts_arrive_by_dm(
    table: CrisisTable, state: CrisisState, prompts: list, opener: tuple[str, str] | None
) -> int:
    """Each seat's secret Refresh prompt reaches its member alone: the member whose order
    opened the Refresh in that order's private answer, everyone else by DM after the grace.
    Returns how many came by DM."""
    assert opener is not None and prompts and all(p.simultaneous for p in prompts)
    return await table.secret_prompts_arrive_by_dm(prompts, opener)


async def _the_standings_are_the_engines(table: CrisisTable, mirror: CrisisState) -> None:
    row = await table.store.get_table(table.channel.id)
    assert row.status == "finished"
    outcome = GAME.outcome(GAME.load_state(row.state))
    assert outcome is not None and outcome == GAME.outcome(mirror)
    posted = [m.content for m in table.channel.history() if "**Final standings**" in m.content]
    assert len(posted) == 1
    heading, *rest = posted[0].splitlines()  # the seed follows in the same message
    assert outcome.reason in heading
    lines = [line for line in rest if re.match(r"\d+\. ", line)]
    best_first = sorted(outcome.standings, key=lambda s: (s.rank, -s.score))
    assert len(lines) == len(best_first) == 3
    full = await table.full_status()  # how each score was reached: behind the standings' button
    for text, s in zip(lines, best_first, strict=True):
        # "1. **anna** · Austria-Hungary · 7": place, player, nation, score
        assert text.startswith(f"{s.rank}. **{table.seats[s.seat]}** · "), (text, s)
        assert text.endswith(f" · {s.score:g}"), (text, s)
        assert not s.detail or s.detail in full, (s.detail, full)


async def test_the_game_commands_are_called_crisis(env):
    member = env.create_guild().add_member(env.create_user("anna"))
    channel = member.guild.create_text_channel("crisis")
    assert "crisis draw" in member.available_commands(channel)


CONGRESS = ("congress_invite", "congress_answer")


def _commands(state: CrisisState, seat: str, action: Any) -> list[tuple[str, dict[str, Any], str | None]]:
    command, options = translate(state, action)
    return [(command, options, f"Week {state.week} Congress" if state.phase in CONGRESS else None)]


@pytest.mark.usefixtures("strong_at_test_iterations")
async def test_a_whole_game_of_crisis_beside_an_automatic_seat_at_the_table_default(
    env, store, service
):
    """A whole game of Crisis: 1914 with two members and one automatic seat at the table default
    (`strong`), through SimCord under its default settle time (why that is deterministic:
    `play_beside_automatic_seats`); every decision the worker took is decided again in this
    process from the stored log and must be the same."""
    service.lobby.seed_source = lambda: SEEDS[0]
    table = CrisisTable(env, store, players=2, automatic=1)
    await table.start(SEEDS[0])
    final = await play_beside_automatic_seats(table, _commands, SEEDS[0])
    assert GAME.outcome(final) is not None
    assert (await store.get_table(table.channel.id)).status == "finished"
    assert await the_automatic_seats_played_the_strong_player(table, "strong") >= 10
    assert service.automatic.overruns == 0 and service.automatic.lost_workers == 0
