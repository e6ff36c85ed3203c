"""The end of a Round and of a Week: the Initiative Track, Score, Congress, Game End, Refresh."""

from __future__ import annotations

import random

from engine.core import Event
from engine.core.words import counted, signed

from . import content as ct
from .cards import (
    assertions,
    card,
    discard_pile,
    draw_card,
    gain_prestige,
    put_discard,
    reduce_tension,
    reducible_boxes,
    reform_draw_pile,
    scored_part,
    waiting_text,
)
from .log import Log, name, statesman
from .state import CrisisState, Pending, Player

PRESTIGE_THRESHOLD = 14  # every Prestige award needs 14+ DP; 13 or fewer may lower a Tension die
SOLO_BONUS_FROM = 18  # solitaire: 1 Prestige per DP above 18
WAR_TENSION = 6
LAST_WEEK = 6
HAND_MIN, HAND_MAX = 3, 6


def new_round(state: CrisisState) -> None:
    """Next Round column into the Current Round column: Will Move Bottom first, then Will Move Top.

    The piles are kept top first; the bottom pile's lowest marker lands lowest and the top
    pile's highest marker lands highest, so both piles keep their order in the column.
    """
    rest = [n for n in state.current if n is not None]
    state.current = [*state.will_top, *rest, *state.will_bottom]
    state.will_top, state.will_bottom = [], []
    state.turn = 0
    state.actor = None


# -- 3. Score Step -------------------------------------------------------------------------------
def score_week(state: CrisisState, log: Log) -> None:
    active = state.active()
    summary: dict[str, dict[str, int]] = {}
    parts: dict[str, list[tuple[str, int]]] = {}
    if state.solo:
        for p in active:
            parts[p.nation] = _solo_parts(p)
            summary[p.nation] = {"prestige": _solo_prestige(p), "dp": p.highest}
    else:
        order = [n for n in state.initiative() if state.players[n].lost is None]
        ranked = sorted(active, key=lambda p: (-p.highest, order.index(p.nation)))
        for i, p in enumerate(ranked):
            tied = any(q is not p and q.highest == p.highest for q in ranked)
            parts[p.nation] = prestige_parts(p, i, len(state.players), order[0], tied)
            summary[p.nation] = {
                "prestige": prestige_award(p, i, len(state.players), order[0]),
                "dp": p.highest,
            }
    for p in active:
        won = gain_prestige(p, f"Week {state.week}", summary[p.nation]["prestige"], parts[p.nation])
        why = ", ".join(scored_part(what, n) for what, n in p.prestige_items[-1].parts)
        scores = f"scores {signed(won)} Prestige" if won else "scores no Prestige"
        log.public(
            "score",
            f"{statesman(p.nation)} {scores} (now {p.prestige}): {why}.",
            nation=p.nation,
        )
    for p in active:
        boxes = reducible_boxes(state, p.nation) if p.highest < PRESTIGE_THRESHOLD else []
        if len(boxes) == 1:
            reduce_tension(state, p.nation, boxes[0], 1, log)
        elif boxes:  # "you may reduce any one Tension die": the player chooses which
            state.pending.append(Pending(kind="reduce", nation=p.nation))
    state.last_week = summary
    state.phase = "score"


def finish_score(state: CrisisState, log: Log) -> None:
    """The Score Step after the -1 Tension choices: the Score Track's Tension, Flow Down."""
    track = ct.load_content().tension_at
    active = state.active()
    summary = state.last_week
    for p in active:
        added = track[min(p.score, len(track) - 1)]
        summary[p.nation]["tension"] = added
        if added:
            target = ct.load_content().nations[p.nation].boxes[0]
            box = state.tension[p.nation]
            # the true total, never cut to the die's top face: "at or in excess of 6" is war,
            # and a Congress lowers the total by 1 (docs/rulings.md, Crisis 25)
            box[target] += added
            where = ct.load_content().nations[p.nation]
            log.public(
                "tension",
                f"{statesman(p.nation)} ({p.score} DP) adds {added} Tension: the "
                f"{ct.load_content().nations[target].name} box in {where.city} is at {box[target]}.",
            )
    flow_down(state)
    state.last_week = summary
    if active:
        state.dp_history.append(sum(p.highest for p in active) / len(active))


def prestige_parts(
    p: Player, place: int, players: int, top_of_initiative: str, tied: bool = False
) -> list[tuple[str, int]]:
    """The Prestige table's lines for one player, each with its points; they add up to
    `prestige_award`. `tied`: another player has as many DP (the Initiative Track ranked them)."""
    parts: list[tuple[str, int]] = []
    dp = f"{p.highest} DP"
    if p.highest >= PRESTIGE_THRESHOLD:
        if p.nation == top_of_initiative:
            parts.append(("first on the Initiative Track", 1))
        rank = ["most DP", "2nd most DP", "3rd most DP", "4th most DP", "5th most DP"][place]
        rank += f" ({dp}{', tie broken by the Initiative Track' if tied else ''})"
        parts.append((rank, 3 if place == 0 else 2 if place == 1 and players >= 3 else 1))
    else:
        parts.append((f"{dp} (a Prestige award needs {PRESTIGE_THRESHOLD})", 0))
    if p.belligerent_this_week:
        parts.append(
            ("Belligerence with the most DP", 1) if place == 0 else ("Belligerence without the most DP", -1)
        )
    if assertions(p) >= 4:
        parts.append(("doubled for 4 Assertions", sum(n for _, n in parts)))
    return parts


def _solo_parts(p: Player) -> list[tuple[str, int]]:
    if p.highest < PRESTIGE_THRESHOLD:
        return [(f"{p.highest} DP (under {PRESTIGE_THRESHOLD})", 0)]
    out = [(f"{p.highest} DP (at least {PRESTIGE_THRESHOLD})", 1)]
    if p.highest > SOLO_BONUS_FROM:
        out.append((f"DP above {SOLO_BONUS_FROM}", p.highest - SOLO_BONUS_FROM))
    if assertions(p) >= 4:
        out.append(("doubled for 4 Assertions", sum(n for _, n in out)))
    return out


def prestige_award(p: Player, place: int, players: int, top_of_initiative: str) -> int:
    """The Prestige table for 2-5 players; `place` 0 is most DP (ties went to the Initiative Track)."""
    points = 0
    if p.highest >= PRESTIGE_THRESHOLD:
        if p.nation == top_of_initiative:
            points += 1
        if place == 0:
            points += 3
        elif place == 1:
            points += 2 if players >= 3 else 1
        else:
            points += 1
    if p.belligerent_this_week:
        points += 1 if place == 0 else -1
    if assertions(p) >= 4:
        points *= 2  # after the -1, as the table's note says
    return points


def _solo_prestige(p: Player) -> int:
    """Solitaire: 1 for 14+ DP, 1 per DP above 18; doubled with 4+ Assertions, a card-type
    rule the Solitaire Game does not remove (it drops only the Initiative and Belligerence awards)."""
    if p.highest < PRESTIGE_THRESHOLD:
        return 0
    points = 1 + max(0, p.highest - SOLO_BONUS_FROM)
    if assertions(p) >= 4:
        points *= 2
    return points


def flow_down(state: CrisisState) -> None:
    """Every box below the top one is at least half (rounded down) the box above it."""
    for city, boxes in state.tension.items():
        order = [b for b in ct.load_content().nations[city].boxes if b in boxes]
        for upper, lower in zip(order, order[1:], strict=False):
            boxes[lower] = max(boxes[lower], boxes[upper] // 2)


# -- 4. Congress Step ----------------------------------------------------------------------------
def congress_possible(state: CrisisState) -> bool:
    return state.congress and not state.solo and len(state.active()) >= 2


def congress_order(state: CrisisState) -> list[str]:
    return [n for n in state.initiative() if state.players[n].lost is None]


def hold_congress(state: CrisisState, log: Log) -> None:
    for city, boxes in state.tension.items():
        floor = state.players[city].belligerence
        for b in boxes:
            boxes[b] = max(floor, boxes[b] - 1, 0)
    inviter = state.players[state.congress_inviter or ""]
    gain = 2 if assertions(inviter) >= 4 else 1
    gain_prestige(
        inviter,
        f"Week {state.week} Congress",
        gain,
        [("calling the Congress", 1)] + ([("doubled for 4 Assertions", 1)] if gain == 2 else []),
    )
    log.public(
        "congress",
        f"The Congress meets: every Tension die falls by 1; {statesman(inviter.nation)} gains {gain} Prestige.",
    )


# -- 5. Game End Check Step ----------------------------------------------------------------------
def game_end_check(state: CrisisState, log: Log) -> bool:
    for p in state.active():
        worst = max(state.tension[p.nation].values())
        if worst >= WAR_TENSION:
            city = ct.load_content().nations[p.nation].city
            p.lost = f"Tension {worst} in {city}: war"
            if p.prestige:
                gain_prestige(p, f"lost: {p.lost}", -p.prestige)
            log.public(
                "lost", f"{statesman(p.nation)} loses: Tension reaches {worst} in {city}.", nation=p.nation
            )
    if any(p.lost is not None for p in state.players.values()) or state.week >= LAST_WEEK:
        state.phase = "over"
        state.result = _result(state)
        log.public("over", state.result)
        return True
    return False


def _result(state: CrisisState) -> str:
    lost = [p for p in state.players.values() if p.lost is not None]
    if not lost:
        return f"The crisis is weathered: the game ends after Week {state.week}."
    return (
        f"The game ends in Week {state.week}: "
        + "; ".join(f"{statesman(p.nation)} lost ({p.lost})" for p in lost)
        + "."
    )


# -- 6. Refresh Step -----------------------------------------------------------------------------
def conditions_hold(state: CrisisState, p: Player, conditions: list[ct.Condition]) -> bool:
    for c in conditions:
        if isinstance(c, ct.InPermanent) and not all(x in p.permanent for x in c.cards):
            return False
        if isinstance(c, ct.BelligerenceAtLeast) and p.belligerence < c.level:
            return False
        if isinstance(c, ct.WeekAtLeast) and state.week + 1 < c.week:
            return False
        if isinstance(c, ct.TensionAtLeast) and max(state.tension[p.nation].values()) < c.level:
            return False
    return True


def start_refresh(state: CrisisState, rng: random.Random, log: Log) -> None:
    """Tableau and Return cards go back, then the player boards are checked; Hand discards follow.

    Who owes a Hand choice is settled once the Return cards have gone: a player left with
    no card in Hand has nothing to choose and is not asked (docs/rulings.md, Crisis 28).
    That reveals nothing: Hand sizes are public, and so is how many cards go back."""
    for p in state.active():
        back: list[str] = list(p.returned)
        p.returned = []
        for played in p.tableau:
            pile = discard_pile(card(played.card), played)
            if pile == "return":
                back.append(played.card)
            else:
                put_discard(p, played.card, pile)
        p.tableau = []
        going = [c for c in p.hand if card(c).discard == "return"]
        if going:
            for cid in going:
                p.hand.remove(cid)
            back += going
            # face-down: the others see how many cards go back, never which
            log.private(
                p.seat,
                "return",
                "Back into your Draw Pile from your Hand: " + ", ".join(map(name, going)) + ".",
            )
            log.events.append(
                Event(
                    kind="return",
                    text=f"{statesman(p.nation)} shuffles {counted(len(going), 'card')} from Hand back into the Draw Pile.",
                    reveals=True,
                )
            )
        # the cards the player board adds: those whose conditions now hold, and those added
        # earlier that are still waiting for a Draw Pile to join (owed, conditions or not)
        board = ct.load_content().nations[p.nation]
        added = [
            aside.card
            for aside in board.set_aside
            if aside.card in p.waiting
            or (aside.card in p.set_aside and conditions_hold(state, p, aside.enters_when))
        ]
        p.waiting = []
        if added and not (p.draw or p.recycled or back):
            # "A newly added card cannot form a Draw Pile on its own": with no card at all to
            # join, the added cards wait on the player board (docs/rulings.md, Crisis 20)
            p.waiting = added
            for cid in added:
                log.public("waits", waiting_text(p, cid))
            added = []
        for cid in added:
            p.set_aside.remove(cid)
            log.public(
                "enters", f"{name(cid)} leaves {statesman(p.nation)}'s player board for the Draw Pile."
            )
        back += added
        if back:
            # into an empty Draw Pile the Recycled Discards are formed first (Draw Pile
            # Exhausted, Note); with none, the Return cards form it and the added cards join them
            reform_draw_pile(p, rng, log)
            p.draw.extend(back)
            rng.shuffle(p.draw)
            p.known = 0
    state.refresh_choosers = [p.nation for p in state.active() if p.hand]
    state.phase = "refresh"
    state.refresh_discards = {}


def refresh_waiting(state: CrisisState) -> list[str]:
    return [n for n in state.refresh_choosers if n not in state.refresh_discards]


def finish_refresh(state: CrisisState, rng: random.Random, log: Log) -> None:
    for p in state.active():
        for cid in state.refresh_discards.get(p.nation, []):
            p.hand.remove(cid)
            pile = discard_pile(card(cid), None)
            put_discard(p, cid, pile)
            log.public(
                "discard", f"{statesman(p.nation)} discards {name(cid)} to the {pile.title()} Discards."
            )
        drawn = 0
        while len(p.hand) < HAND_MIN:
            got = draw_card(p, rng, log)
            if got is None:
                break
            p.hand.append(got)
            drawn += 1
            log.private(p.seat, "drawn", f"You draw {name(got)} into your Hand.", reveals=True, card=got)
        if drawn:
            log.public("drawn", f"{statesman(p.nation)} draws {counted(drawn, 'card')} into their Hand.")
        p.score, p.second = 0, None
        p.belligerent_this_week = p.deliberated = p.passed = p.momentum = False
    state.refresh_discards = {}
    state.refresh_choosers = []
    state.week += 1
    state.round = 1
    new_round(state)
    state.phase = "first_draw"
    log.public("week", f"Week {state.week} begins.")
