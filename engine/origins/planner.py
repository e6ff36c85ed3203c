"""Two automatic players of Origins built on the basic player (bots.py): "endgame" and
"reserve", the one a table's strong seat gets (bot/service/automatic.py, BEST_FOR).

Only the board at the end of the last turn scores (§9), and on the last turn each country
may make 3 attacks (Phase 5): the country that attacks last answers every attack made
before it and is answered by none.

"endgame" passes in every bidding but the last turn's (a PF bid earlier is a PF lost to the
board, Phase 3), and there bids the lowest amount, up to MAX_BID PFs, to move one of its
cards to the bottom of the attack order when none of its cards is there. Everything else
is the basic player's. Among basic players about 1.1-1.2x its fair share, within noise.

"reserve" bids as "endgame" and also plays for the last turn's board: before the last
turn each sheet sends KEEP PFs of the income home (the home cap, Phase 4) and never draws
on the own embassy, so on the last turn, whose 10-PF cap per embassy (Phase 2) lets a
country gain treaty rights in one placement, it has a reserve to write where the board
then stands. Its attacks value a PF at home (HOME_VALUE): the basic judge counts only
objectives, and would throw the reserve into any attack in the own embassy. Measured in
docs/balance/origins.md (the strength ladder): about 2x its fair share among basic players at 3 and 5
players, basic 0.2-0.4x among it.
"""

from __future__ import annotations

import random
from typing import Any

from engine.core import clone

from . import attacks, bots, content, placement
from .actions import Attack, Bid, Done, Pass, Submit
from .state import OriginsState, Sheet

MAX_BID = 3  # PFs the last word of the last turn is worth (6 led to bidding wars among endgame players)


def choose(state: OriginsState, seat: str, rng: random.Random) -> Any:
    if state.phase == "bidding":
        return bid(state, seat)
    return bots.choose(state, seat, rng)


def bid(state: OriginsState, seat: str, most: int = MAX_BID) -> Any:
    """Pass, or on the last turn the lowest bid moving the seat's topmost card to the
    bottom of the attack order (when none of its cards is there already)."""
    if not state.last_turn:
        return Pass()
    amount = state.high_bid + 1
    mine = state.countries_of(seat)
    if amount > most or state.order[-1] in mine:
        return Pass()
    payer = max(mine, key=lambda c: (placement.funds(state, c), -mine.index(c)))
    if placement.funds(state, payer) < amount:
        return Pass()
    card = min(mine, key=state.order.index)
    return Bid(payer=payer, card=card, position=len(state.order), amount=amount)


# -- the "reserve" player ---------------------------------------------------------------------

KEEP = 5  # of each turn's income, PFs sent home before the last turn (Phase 4's home cap)


RESERVE_BID = 3  # the dearest bid for the last word of the last turn


def reserve_choose(state: OriginsState, seat: str, rng: random.Random) -> Any:
    if state.phase == "bidding":
        return bid(state, seat, RESERVE_BID)
    if state.phase == "placement" and not state.last_turn:
        return Submit(sheets=reserve_sheets(state, seat, rng))
    if state.phase == "attacks":
        return reserve_attack(state, state.order[state.attacker], rng)
    return bots.choose(state, seat, rng)


def reserve_sheets(state: OriginsState, seat: str, rng: random.Random) -> dict[str, Sheet]:
    """The basic planner's sheets written from this turn's income less KEEP, the own
    embassy's PFs left untouched: they wait for the last turn's 10-PF cap."""
    view = clone(state)
    for country in state.countries_of(seat):
        view.unplaced[country] = max(0, view.unplaced.get(country, 0) - KEEP)
        view.pfs.setdefault(country, {}).pop(country, None)
    sheets = {}
    judge = bots._Judge(view, seat)
    pfs = bots._copy(view.pfs)
    for country in state.countries_of(seat):
        sheets[country] = _place_all(view, country, rng, judge, pfs)
    return {c: bots.legal_or_empty(state, c, s) for c, s in sheets.items()}


def _place_all(
    view: OriginsState, country: str, rng: random.Random, judge: Any, pfs: dict[str, dict[str, int]]
) -> Sheet:
    """bots._plan, placing all of `view`'s income (what is kept is already taken out)."""
    sheet = bots._plan(view, country, rng, judge, pfs)
    short = view.unplaced.get(country, 0) - sum(n for e, n in sheet.place.items() if e != country)
    if short <= 0:
        return sheet
    place = dict(sheet.place)
    limit = placement.cap(view)
    # the rest where the country already stands strongest, room allowing
    spots = sorted(
        (e for e in content.embassies() if e != country),
        key=lambda e: (-pfs.get(e, {}).get(country, 0), e),
    )
    for embassy in spots:
        n = min(short, limit - place.get(embassy, 0))
        if n > 0:
            place[embassy] = place.get(embassy, 0) + n
            bots._add(pfs, embassy, country, n)
            short -= n
        if not short:
            break
    return Sheet(place=place, remove=dict(sheet.remove))


HOME_VALUE = 0.25  # VP-equivalent of a PF at home before the last turn (a tenth of a treaty right)


def reserve_attack(state: OriginsState, country: str, rng: random.Random) -> Any:
    """The basic player's attack, but before the last turn a PF at home is worth HOME_VALUE:
    the basic judge counts only objectives, so it would throw the whole reserve into an
    attack in the own embassy (an attack commits all the PFs there, §7)."""
    if state.last_turn or HOME_VALUE <= 0:
        return bots.attack(state, country, rng)
    seat = state.holders[country]
    judge = bots._Judge(state, seat)
    now = judge.utility(state.pfs)
    best: tuple[float, str, str] | None = None
    for embassy in attacks.attack_embassies(state, country):
        mine = state.at(embassy, country)
        for target in attacks.targets(state, country, embassy):
            if state.holders[target] == seat:
                continue
            gain = bots._expected(judge, state.pfs, country, embassy, target, mine) - now
            if embassy == country:
                gain -= HOME_VALUE * _expected_loss(mine, state.at(embassy, target))
            if gain > 0.05 and (best is None or gain > best[0]):
                best = (gain, embassy, target)
    if best is None:
        return Done()
    _, embassy, target = best
    return Attack(embassy=embassy, split={target: state.at(embassy, country)})


def _expected_loss(committed: int, defending: int) -> float:
    """The attacker's expected PFs lost in one attack (§7's table, two dice)."""
    col = attacks.column(committed, defending)
    total = 0
    for a in range(1, 7):
        for b in range(1, 7):
            total += attacks.losses(attacks.result(a + b, col), committed, defending)[0]
    return total / 36
