"""Cards moving between piles, and a card landing on a Tableau with its effects."""

from __future__ import annotations

import random

from engine.core import IllegalAction
from engine.core.words import signed

from . import content as ct
from .actions import CardChoices
from .log import Log, name, statesman
from .state import CrisisState, Pending, Played, Player, ScoreItem

MAX_BELLIGERENCE = 5
TRACK_END = 32
BASE_LIMIT = 7


def card(card_id: str) -> ct.Card:
    return ct.load_content().cards[card_id]


def card_dp(state: CrisisState, p: Player, c: ct.Card) -> int:
    if c.dp_by_week is not None:
        return c.dp_by_week[min(state.week, len(c.dp_by_week)) - 1]
    if c.dp_counter is not None:
        return p.counters.get(c.dp_counter, c.dp)
    return c.dp


def limit(p: Player) -> int:
    cards = ct.load_content().cards
    return limit_of([cards[t.card].type for t in p.tableau])


def limit_of(types: list[ct.CardType]) -> int:
    """The Tableau's limit, from the types of its cards: 7 cards, +1 per National Interests
    card, +1 per pair of Consensus cards."""
    return BASE_LIMIT + types.count("national_interests") + types.count("consensus") // 2


def assertions(p: Player) -> int:
    return sum(1 for t in p.tableau if card(t.card).type == "assertion")


def opposing(nation: str) -> list[str]:
    return ct.load_content().board.opposing[nation]


def blocked_by_momentum(state: CrisisState, p: Player) -> str | None:
    for other in opposing(p.nation):
        o = state.players.get(other)
        if o is not None and o.momentum:
            return other
    return None


# -- piles ---------------------------------------------------------------------------------------
def reform_draw_pile(p: Player, rng: random.Random, log: Log) -> bool:
    """The Recycled Discards become the Draw Pile, only when a card is needed and none is left.
    Cards waiting on the player board for a Draw Pile to join (`enter_draw_pile`) are
    shuffled in with them: they are no longer alone."""
    if p.draw or not p.recycled:
        return bool(p.draw)
    p.draw = list(p.recycled)
    p.recycled = []
    joining = list(p.waiting)
    for card_id in joining:
        p.set_aside.remove(card_id)
        p.draw.append(card_id)
    p.waiting = []
    rng.shuffle(p.draw)
    p.known = 0
    log.public("reform", f"{statesman(p.nation)}'s Recycled Discards are shuffled into a new Draw Pile.")
    for card_id in joining:
        log.public(
            "enters",
            f"{name(card_id)} leaves {statesman(p.nation)}'s player board and is shuffled in with them.",
        )
    return True


def draw_card(p: Player, rng: random.Random, log: Log) -> str | None:
    if not reform_draw_pile(p, rng, log):
        return None
    p.known = max(0, p.known - 1)
    return p.draw.pop(0)


def discard_pile(c: ct.Card, played: Played | None) -> str:
    """Where a card goes: its Permanent icon only counts when its condition holds."""
    if played is not None and c.permanent_if == "played":
        return "permanent"
    if played is not None and c.permanent_if == "belligerence" and played.belligerence:
        return "permanent"
    return c.discard


def put_discard(p: Player, card_id: str, pile: str) -> None:
    {"permanent": p.permanent, "recycled": p.recycled, "return": p.returned}[pile].append(card_id)


def discard_from_hand(p: Player, card_id: str, log: Log, why: str) -> None:
    if card_id not in p.hand:
        raise IllegalAction(
            f"{name(card_id) if card_id in ct.load_content().cards else card_id!r} is not in your Hand."
        )
    p.hand.remove(card_id)
    pile = discard_pile(card(card_id), None)
    put_discard(p, card_id, pile)
    log.public(
        "discard",
        f"{statesman(p.nation)} discards {name(card_id)} ({why}) to the {pile.title()} Discards.",
        card=card_id,
    )


def enter_draw_pile(p: Player, card_id: str, rng: random.Random, log: Log) -> bool:
    """A card from the player board joins the Draw Pile during a Week. It never forms a Draw
    Pile on its own: into an empty Draw Pile the Recycled Discards are formed at once to take
    it, and with no Recycled Discards either it waits on the player board (`waiting`) until
    the next Draw Pile is formed, and is shuffled into it (docs/rulings.md, Crisis 20)."""
    reform_draw_pile(p, rng, log)
    if card_id not in p.set_aside:  # it was waiting, and the new Draw Pile took it in
        return True
    if not p.draw:
        if card_id not in p.waiting:
            p.waiting.append(card_id)
            log.public("waits", waiting_text(p, card_id))
        return False
    p.set_aside.remove(card_id)
    p.draw.append(card_id)
    rng.shuffle(p.draw)
    p.known = 0
    log.public(
        "enters",
        f"{name(card_id)} leaves {statesman(p.nation)}'s player board and is shuffled into the Draw Pile.",
    )
    return True


def waiting_text(p: Player, card_id: str) -> str:
    return (
        f"{name(card_id)} is added to {statesman(p.nation)}'s Draw Pile, but there is no other card "
        "for it to join: it waits on the player board for the next Draw Pile."
    )


# -- score and losing ----------------------------------------------------------------------------
def gain_prestige(p: Player, what: str, points: int, parts: list[tuple[str, int]] | None = None) -> int:
    """Add `points` to the Prestige and say where they came from in `prestige_items`.
    Prestige never falls below 0: what the floor took back is a part of its own. Returns
    the change."""
    parts = list(parts or [])
    new = max(0, p.prestige + points)
    if new != p.prestige + points:
        parts = parts or [(what, points)]
        parts.append(("Prestige cannot fall below 0", new - p.prestige - points))
    change = new - p.prestige
    p.prestige = new
    p.prestige_items.append(ScoreItem(what=what, points=change, parts=parts))
    return change


def prestige_breakdown(p: Player) -> str:
    """ "Week 1 +4 (top of the Initiative Track +1, most DP +3); Congress +1": the items add
    up to the Prestige, and each item's parts to the item."""
    items = []
    for item in p.prestige_items:
        shown = f"{item.what} {signed(item.points) if item.points else 'nothing'}"
        if item.parts and not (len(item.parts) == 1 and item.parts[0][0] == item.what):
            shown += " (" + ", ".join(scored_part(w, n) for w, n in item.parts) + ")"
        items.append(shown)
    unlisted = p.prestige - sum(i.points for i in p.prestige_items)
    if unlisted:  # a game saved before the items were kept
        items.insert(0, f"earlier, not itemised {unlisted:+d}")
    return "; ".join(items) or "no Prestige scored"


def scored_part(what: str, points: int) -> str:
    """One line of a score's reasons, `most DP +3`; a reason that scored nothing
    (`13 DP (a Prestige award needs 16)`) stands without a number."""
    return f"{what} {signed(points)}" if points else what


def lose(state: CrisisState, p: Player, why: str, log: Log) -> None:
    """No further turns, markers off the board, Prestige 0; the game ends with this Week."""
    if p.lost is not None:
        return
    p.lost = why
    if p.prestige:
        gain_prestige(p, f"lost: {why}", -p.prestige)
    state.ending = True
    state.current = [None if n == p.nation else n for n in state.current]
    state.will_top = [n for n in state.will_top if n != p.nation]
    state.will_bottom = [n for n in state.will_bottom if n != p.nation]
    state.pending = [x for x in state.pending if x.nation != p.nation]
    log.public("lost", f"{statesman(p.nation)} loses: {why}. The game ends with this Week.", nation=p.nation)


def add_dp(state: CrisisState, p: Player, amount: int, log: Log) -> None:
    p.score += amount
    if p.second is not None:
        p.second += amount
    if p.highest > TRACK_END:
        lose(state, p, f"Score marker beyond {TRACK_END} DP, the enemies mobilize", log)


def floor_of(state: CrisisState, city: str) -> int:
    return state.players[city].belligerence


def reducible_boxes(state: CrisisState, city: str) -> list[str]:
    floor = floor_of(state, city)
    boxes = state.tension[city]
    return sorted((b for b, t in boxes.items() if t > floor), key=lambda b: -boxes[b])


def reduce_tension(state: CrisisState, city: str, box: str | None, amount: int, log: Log) -> None:
    boxes = state.tension[city]
    if box is not None and box not in boxes:
        raise IllegalAction(f"There is no {box} Tension box in {ct.load_content().nations[city].city}.")
    candidates = reducible_boxes(state, city)
    target = ct.load_content().nations[city].boxes[0]
    # "You may reduce any one Tension die": the player names it; unnamed, the Target box
    chosen = box if box is not None else (target if target in candidates else next(iter(candidates), None))
    if chosen is None:
        return
    new = max(floor_of(state, city), boxes[chosen] - amount, 0)
    if new < boxes[chosen]:
        boxes[chosen] = new
        nations = ct.load_content().nations
        log.public(
            "tension", f"Tension in the {nations[chosen].name} box in {nations[city].city} falls to {new}."
        )


def belligerence(state: CrisisState, p: Player, log: Log) -> None:
    """Examples #1 and #2: the level rises to the highest Tension die, or by 1 if already equal."""
    boxes = state.tension[p.nation]
    highest = max(boxes.values())
    p.belligerence = min(MAX_BELLIGERENCE, highest if highest > p.belligerence else p.belligerence + 1)
    for b in boxes:
        boxes[b] = max(boxes[b], p.belligerence)
    p.belligerent_this_week = True
    city = ct.load_content().nations[p.nation].city
    log.public("belligerence", f"Belligerence in {city} rises to {p.belligerence}.", level=p.belligerence)


# -- a card lands on the Tableau -----------------------------------------------------------------
def alternative_open(p: Player, c: ct.Card) -> bool:
    """Whether the card's "or" effects can be chosen: one that only takes an Assertion back
    needs another Assertion card on the Tableau."""
    if c.alternative is None:
        return False
    if all(e.kind == "reclaim_assertion" for e in c.alternative):
        return any(card(t.card).type == "assertion" and t.card != c.id for t in p.tableau)
    return True


def offers_choice(state: CrisisState, p: Player, c: ct.Card) -> bool:
    """Whether a card revealed from the Draw Pile needs its player to decide something.

    In the First Draw Step "players make no choices" beyond what the card demands, so no
    Belligerence action there (2-player example, First Draw Step)."""
    if alternative_open(p, c):
        return True
    if state.phase != "first_draw" and not c.forced_belligerence and p.belligerence < MAX_BELLIGERENCE:
        return True
    if any(e.kind == "reduce_tension" for e in c.effects) and len(reducible_boxes(state, p.nation)) > 1:
        return True
    return False


def check_choices(state: CrisisState, p: Player, c: ct.Card, ch: CardChoices) -> None:
    if ch.belligerence and p.belligerence >= MAX_BELLIGERENCE:
        raise IllegalAction("You have no Belligerence actions left (your track is at 5).")
    if ch.belligerence and state.phase == "first_draw":
        raise IllegalAction("No Belligerence action in the First Draw Step: it makes no choices.")
    if ch.alternative and c.alternative is None:
        raise IllegalAction(f"{c.name} has no alternative effect.")
    if ch.alternative and not alternative_open(p, c):
        raise IllegalAction(
            f"{c.name}'s alternative takes an Assertion card back, and you have none on your Tableau."
        )
    if ch.box is not None and ch.box not in state.tension[p.nation]:
        raise IllegalAction(f"There is no {ch.box} Tension box in your City Box.")
    if ch.reclaim is not None:
        ok = any(t.card == ch.reclaim and card(t.card).type == "assertion" for t in p.tableau)
        if not ok:
            raise IllegalAction(f"{ch.reclaim} is not an Assertion card on your Tableau.")


def play_card(
    state: CrisisState, p: Player, card_id: str, ch: CardChoices, rng: random.Random, log: Log, source: str
) -> None:
    c = card(card_id)
    check_choices(state, p, c, ch)
    value = card_dp(state, p, c)
    bell = ch.belligerence or (c.forced_belligerence and p.belligerence < MAX_BELLIGERENCE)
    if bell:
        value *= 2
    who = statesman(p.nation)
    log.public(
        "play",
        f"{who} plays {c.name} {source} to the Tableau: {value} DP"
        + (" (Belligerence action)" if bell else "")
        + ".",
        nation=p.nation,
        card=card_id,
        dp=value,
    )
    if bell:
        belligerence(state, p, log)
    p.tableau.append(Played(card=card_id, dp=value, belligerence=bell))
    add_dp(state, p, value, log)
    for effect in c.alternative if ch.alternative and c.alternative else c.effects:
        if p.lost is not None:  # beyond 32 DP: a loser takes nothing more from the card
            return
        apply_effect(state, p, effect, ch, card_id, rng, log)
    if p.lost is not None:
        return
    if not p.momentum and sum(1 for t in p.tableau if card(t.card).momentum) >= 3:
        p.momentum = True
        log.public("momentum", f"Momentum: {who}'s opponents may not Deliberate or Reorganize this Week.")


def apply_effect(
    state: CrisisState, p: Player, e: ct.Effect, ch: CardChoices, played: str, rng: random.Random, log: Log
) -> None:
    who = statesman(p.nation)
    if isinstance(e, ct.BackChannel):
        if state.week < e.from_week:
            return
        p.second = p.score + 1 if p.second is None else p.second + 1
        log.public("back_channel", f"{who}'s second Score marker moves to {p.second} DP.")
        if p.highest > TRACK_END:
            lose(state, p, f"Score marker beyond {TRACK_END} DP, the enemies mobilize", log)
    elif isinstance(e, ct.DrawToHand):
        for _ in range(e.count):
            got = draw_card(p, rng, log)
            if got is None:
                break
            p.hand.append(got)
            log.private(p.seat, "drawn", f"You draw {name(got)} into your Hand.", reveals=True, card=got)
            log.public("drawn", f"{who} draws a card into their Hand.")
    elif isinstance(e, ct.ReclaimAssertion):
        options = [t for t in p.tableau if card(t.card).type == "assertion" and t.card != played]
        if ch.reclaim is not None:
            options = [t for t in options if t.card == ch.reclaim]
        if options:
            back = max(options, key=lambda t: t.dp)
            p.tableau.remove(back)
            p.hand.append(back.card)
            add_dp(state, p, -back.dp, log)
            lost = f" (-{back.dp} DP)" if back.dp else ""
            log.public("reclaim", f"{who} takes {name(back.card)} back into their Hand{lost}.")
    elif isinstance(e, ct.ReduceTension):
        reduce_tension(state, p.nation, ch.box, e.amount, log)
    elif isinstance(e, ct.DiscardFromHand):
        target = p if e.who == "self" else state.players.get(ct.load_content().nations[p.nation].boxes[0])
        if target is not None and target.lost is None and target.hand:
            state.pending.append(
                Pending(kind="discard", nation=target.nation, count=min(e.count, len(target.hand)))
            )
    elif isinstance(e, ct.AdvanceCounter):
        spec = ct.load_content().nations[p.nation].counters[e.counter]
        before = p.counters.get(e.counter, spec.start)
        p.counters[e.counter] = min(spec.max, before + e.by)
        if p.counters[e.counter] != before:  # at the track's end the marker stays, silently
            log.public("counter", f"{who}'s {e.counter.title()} marker moves to {p.counters[e.counter]}.")
    elif isinstance(e, ct.ImmediatePrestige):
        gain_prestige(p, f"{card(played).name} (at once)", e.amount)
        log.public("prestige", f"{who} gains {e.amount} Prestige at once (now {p.prestige}).")
    elif isinstance(e, ct.BringIn):
        if e.card in p.set_aside:
            enter_draw_pile(p, e.card, rng, log)
    elif isinstance(e, ct.Mobilize):
        lose(state, p, "General Mobilization", log)
