"""Standing orders: answers a player gives before the decision reaches them
(docs/pacing.md). None is a new rule: each is what the player would have answered when
asked, given ahead, and it lapses when what it was given on changes.

- `pass`: pass in this turn's bidding (and again whenever it comes round).
- `pass_unless Germany, Russia`: pass unless one of the named cards changes its place in
  the attack order before the player's turn (a bid, or in the one-auction reading an offer
  that would move it).
- `bid 2 Germany to 1 [from Austria-Hungary]`: that bid when the player's turn comes,
  unless anyone bids before it.
- `sheet [GER:] SER 5, ROM 3`: a Phase 4 draft written before Phase 4 (still to hand in).
- `hand_in [GER: SER 5, ROM 3 / AH: SER 2]`: hand in the sheets the moment Phase 4 begins,
  as written or as given.
- `no_attacks`: no more attacks this turn for any of the player's countries.
- `no_attacks_unless`: the same, unless an attack changes the PFs in an embassy where one of
  the player's countries has PFs before its card comes.

Scopes say what an order is for ("turn 3"; with a condition, what it watches); the service
keeps an order while the game's scope for it stays the one it was given with.
"""

from __future__ import annotations

import hashlib
import random
import re
from functools import partial
from typing import Any

from engine.core import IllegalAction, StandingOrder
from engine.core.chance import certain

from . import attacks, bots, placement
from .actions import Attack, Bid, Done, Pass, Submit, WriteSheet
from .state import OriginsState, Sheet

ORDERS = (
    StandingOrder("pass", "pass in this turn's bidding (the next turn's once this one's is over)"),
    StandingOrder(
        "pass_unless",
        "pass in this turn's bidding unless one of these cards changes its place in the attack "
        "order before my turn",
        takes_text=True,
        example="pass_unless Germany, Russia",
    ),
    StandingOrder(
        "bid",
        "make this bid when my turn in this turn's bidding comes, unless anyone bids before it",
        takes_text=True,
        example="bid 2 Germany to 1 (with two countries: bid 2 Germany to 1 from Austria-Hungary)",
    ),
    StandingOrder(
        "sheet",
        "write my Phase 4 sheet before Phase 4 begins; it is my draft when Phase 4 comes, still to hand in",
        takes_text=True,
        example="sheet SER 5, ROM 3 (with two countries: sheet GER: SER 5)",
    ),
    StandingOrder(
        "hand_in",
        "hand in my sheets the moment Phase 4 begins, as written or as given here",
        takes_text=True,
        example="hand_in, or hand_in SER 5, ROM 3 (with two countries: hand_in GER: SER 5 / AH: ROM 3)",
    ),
    StandingOrder(
        "attack",
        "when my card comes, make this attack with all my PFs there, unless an attack before it "
        "changes the PFs in an embassy where my countries have PFs",
        takes_text=True,
        example="attack Russia in Serbia (with two countries: attack Germany: Russia in Serbia)",
    ),
    StandingOrder(
        "one_attack", "no more attacks this turn once my country has made one (every country I hold)"
    ),
    StandingOrder("no_attacks", "no more attacks this turn, for every country I hold"),
    StandingOrder(
        "no_attacks_unless",
        "no attacks this turn for any country I hold, unless an attack before my card changes "
        "the PFs in an embassy where one of my countries has PFs",
    ),
)

_BID = re.compile(
    r"^(?P<amount>\d+)\s+(?P<card>.+?)\s+to\s+(?P<position>\d+)(?:st|nd|rd|th)?(?:\s+from\s+(?P<payer>.+))?$"
)


def scope(state: OriginsState, seat: str, order: str) -> str | None:
    """The turn (and, for a conditional order, what it watches) an order given now is for;
    None if it cannot be given now."""
    if state.phase == "over" or seat not in state.seats:
        return None
    word, _, text = order.partition(" ")
    turn = state.turn
    if word == "pass" and not text:
        return f"turn {turn + (state.phase != 'bidding')}"
    if word == "pass_unless":
        cards = _cards(state, text)
        if state.phase != "bidding" or not cards:
            return None
        places = _prospective_order(state)
        return f"turn {turn}: " + ", ".join(f"{c} at {places.index(c) + 1}" for c in cards)
    if word == "bid":
        bid = _bid(state, seat, text)
        if state.phase != "bidding" or bid is None:
            return None
        return f"turn {turn}: {_bidding_digest(state)}"
    if word == "attack":
        if state.phase != "attacks" or _attack(state, seat, text) is None:
            return None
        return f"turn {turn}: {_board_digest(state, seat)}"
    if word == "one_attack" and not text:
        return f"turn {turn + (state.phase == 'diplomacy')}"
    if word == "no_attacks" and not text:
        return f"turn {turn + (state.phase == 'diplomacy')}"
    if word == "no_attacks_unless" and not text:
        if state.phase != "attacks":
            return None
        return f"turn {turn}: {_board_digest(state, seat)}"
    if word in ("sheet", "hand_in"):
        if (word == "sheet" or text) and _sheets(state, seat, text) is None:
            return None
        return f"turn {turn + (state.phase in ('attacks', 'diplomacy'))}"
    return None


def action(state: OriginsState, seat: str, order: str) -> Any | None:
    """The action `order` gives for the decision `seat` owes now; None if it gives none."""
    word, _, text = order.partition(" ")
    if word in ("sheet", "hand_in"):
        if state.phase != "placement" or seat in state.submitted:
            return None
        sheets = _sheets(state, seat, text) if text else {}
        if sheets is None:
            return None
        if word == "sheet":
            ((country, line),) = sheets.items()
            return WriteSheet(country=country, text=line)
        written = {c: state.drafts.get(c, Sheet()) for c in state.countries_of(seat)}
        return Submit(sheets={**written, **{c: placement.parse_sheet(line) for c, line in sheets.items()}})
    if word in ("pass", "pass_unless", "bid"):
        if state.phase != "bidding" or state.bidder != seat:
            return None
        return _bid(state, seat, text) if word == "bid" else Pass()
    if state.phase != "attacks" or state.holders[state.order[state.attacker]] != seat:
        return None
    if word == "attack":
        named = _attack(state, seat, text)
        if named is None or named[0] != state.order[state.attacker] or state.attacks_made:
            return None
        country, target, embassy = named
        return Attack(embassy=embassy, split={target: state.at(embassy, country)})
    if word == "one_attack":
        return Done() if state.attacks_made else None
    if word in ("no_attacks", "no_attacks_unless"):
        return Done()
    return None


# -- what the pacing model's players leave (docs/pacing.md) ----------------------------------


def after(state: OriginsState, seat: str, chosen: Any, rng: random.Random) -> list[str]:
    """Orders a player who just chose `chosen` leaves: one who passes in a turn's bidding
    means it for the turn, and writes the sheet it will hand in."""
    if state.phase == "bidding" and isinstance(chosen, Pass):
        return ["pass", _hand_in(state, seat, rng)]
    return []


def ahead(state: OriginsState, seat: str, rng: random.Random) -> list[str]:
    """Orders a player whose decision has not come yet leaves on looking at the table: in
    the bidding, the automatic player's choice on the order as it stands (a pass unless its
    own cards move, and then its sheet; or its bid unless anyone bids first); in the attacks,
    no attacks unless the board changes where it is, if it would make none on this board."""
    if state.phase == "bidding" and state.bidder != seat:
        chosen = bots.modest_bid(state, seat, rng)
        if isinstance(chosen, Bid):
            payer = f" from {chosen.payer}" if chosen.payer != chosen.card else ""
            return [f"bid {chosen.amount} {chosen.card} to {chosen.position}{payer}"]
        return ["pass_unless " + ", ".join(state.countries_of(seat)), _hand_in(state, seat, rng)]
    if state.phase == "attacks" and 0 <= state.attacker < len(state.order):
        later = [c for c in state.order[state.attacker + 1 :] if state.holders[c] == seat]
        if not later:
            return []
        chosen = [certain(partial(bots.attack, state, c)) for c in later]
        if all(isinstance(c, Done) for c in chosen):
            return ["no_attacks_unless"]
        if len(later) == 1 and isinstance(chosen[0], Attack) and _then_done(state, later[0], chosen[0]):
            ((target, _),) = chosen[0].split.items()
            return [f"attack {target} in {chosen[0].embassy}", "one_attack"]
    return []


def _then_done(state: OriginsState, country: str, attack: Attack) -> bool:
    """Whether the automatic player surely makes no more attacks with `country` after
    `attack`, whichever way its dice fall."""
    if len(attack.split) != 1:
        return False
    ((target, n),) = attack.split.items()
    embassy = attack.embassy
    defending = state.at(embassy, target)
    for outcome in ("AE", "DE", "EX"):
        lost_a, lost_d = attacks.losses(outcome, n, defending)
        after = state.model_copy(deep=True)
        after.attacker = after.order.index(country)
        after.add(embassy, country, -lost_a)
        after.add(embassy, target, -lost_d)
        after.attacks_made, after.embassies_used = 1, [embassy]
        if attacks.attack_embassies(after, country) and not isinstance(
            certain(partial(bots.attack, after, country)), Done
        ):
            return False
    return True


def _hand_in(state: OriginsState, seat: str, rng: random.Random) -> str:
    sheets = bots.plan_seat(state, seat, rng)
    return "hand_in " + " / ".join(f"{c}: {_line(s)}" for c, s in sheets.items())


def _line(sheet: Sheet) -> str:
    line = placement.sheet_line(sheet)
    return "" if line == "(empty)" else line


# -- reading the orders ---------------------------------------------------------------------


def _attack(state: OriginsState, seat: str, text: str) -> tuple[str, str, str] | None:
    """(country, target, embassy) of "[GER:] Russia in Serbia" if it reads as an attack one
    of the seat's countries could make this turn."""
    head, sep, rest = text.partition(":")
    mine = state.countries_of(seat)
    country = None
    if sep:
        try:
            country, text = placement.embassy_code(head), rest
        except IllegalAction:
            return None
    elif len(mine) == 1:
        country = mine[0]
    target, sep, where = " ".join(text.split()).rpartition(" in ")
    if not sep or country not in mine:
        return None
    try:
        target, embassy = placement.embassy_code(target), placement.embassy_code(where)
    except IllegalAction:
        return None
    if state.holders.get(target) in (None, seat) or country not in state.order[max(state.attacker, 0) :]:
        return None
    return country, target, embassy


def _cards(state: OriginsState, text: str) -> list[str]:
    """The cards named ("Germany, RUS"); [] if one is not a card in the attack order."""
    out = []
    for part in text.split(","):
        if not part.strip():
            continue
        try:
            code = placement.embassy_code(part)
        except IllegalAction:
            return []
        if code not in state.order:
            return []
        out.append(code)
    return list(dict.fromkeys(out))


def _bid(state: OriginsState, seat: str, text: str) -> Bid | None:
    """The bid "2 Germany to 1 [from Austria-Hungary]" if it reads as one of the seat's."""
    m = _BID.match(" ".join(text.split()))
    if m is None:
        return None
    try:
        card = placement.embassy_code(m["card"])
        payer = placement.embassy_code(m["payer"]) if m["payer"] else None
    except IllegalAction:
        return None
    mine = state.countries_of(seat)
    if payer is None:
        payer = card if card in mine else (mine[0] if len(mine) == 1 else None)
    if payer not in mine or card not in state.order:
        return None
    return Bid(payer=payer, card=card, position=int(m["position"]), amount=int(m["amount"]))


def _sheets(state: OriginsState, seat: str, text: str) -> dict[str, str] | None:
    """The sheets of "[GER:] SER 5, ROM 3 / AH: SER 2" by country; None if a part names no
    country of the seat's (or none where the seat holds two) or does not read as a sheet."""
    mine = state.countries_of(seat)
    out: dict[str, str] = {}
    for part in text.split("/"):
        head, sep, rest = part.partition(":")
        country = None
        if sep and head.strip() and " " not in head.strip():
            try:
                country, part = placement.embassy_code(head.strip()), rest
            except IllegalAction:
                country = None
        if country is None:
            if len(mine) != 1:
                return None
            country = mine[0]
        if country not in mine or country in out:
            return None
        try:
            placement.parse_sheet(part)
        except IllegalAction:
            return None
        out[country] = part.strip()
    return out


def _prospective_order(state: OriginsState) -> list[str]:
    """The attack order as the bidding would leave it now (with the one-auction reading's
    standing offer carried out)."""
    order = list(state.order)
    if state.offer is not None:
        order.remove(state.offer.card)
        order.insert(state.offer.position - 1, state.offer.card)
    return order


def _bidding_digest(state: OriginsState) -> str:
    offer = state.offer
    pending = f"; offer {offer.card} to {offer.position}" if offer is not None else ""
    return f"high bid {state.high_bid}, order {' '.join(state.order)}{pending}"


def _board_digest(state: OriginsState, seat: str) -> str:
    """The PFs in every embassy where one of the seat's countries has PFs, as a short digest."""
    mine = set(state.countries_of(seat))
    watched = sorted(
        (embassy, sorted(here.items())) for embassy, here in state.pfs.items() if mine & here.keys()
    )
    return hashlib.sha1(repr(watched).encode()).hexdigest()[:12]


__all__ = ["ORDERS", "action", "after", "ahead", "scope"]
