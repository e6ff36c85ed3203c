"""A quick automatic player for the long random-play sweeps: modest random bids, sheets
aimed at its national objectives, attacks at good odds.

It was the game's first `bot_action`; the strong player in `bots.py` weighs every
placement and attack against the attack table and costs about thirty times as much, so
the 1,200-game invariant sweep uses this one (it also varies more, which a fuzzer wants).
It plays every rule: bids, passes, sheets, attacks (split too) and diplomacy."""

from __future__ import annotations

import random
from typing import Any

from . import attacks, content, placement
from .actions import Attack, Done, Ready, Submit
from .bots import legal_or_empty, modest_bid
from .state import OriginsState, Sheet


def choose(state: OriginsState, seat: str, rng: random.Random) -> Any:
    if state.phase == "bidding":
        return modest_bid(state, seat, rng)
    if state.phase == "placement":
        return Submit(sheets={c: plan(state, c, rng) for c in state.countries_of(seat)})
    if state.phase == "attacks":
        return _attack(state, state.order[state.attacker], rng)
    return Ready()


def _wishes(country: str) -> dict[str, int]:
    out: dict[str, int] = {}
    for obj in content.objectives().objectives:
        if obj.power == country:
            out[obj.location] = max(obj.points, obj.exclusive or 0)
    return out


def plan(state: OriginsState, country: str, rng: random.Random) -> Sheet:
    """Spend this turn's income on the objectives still short of treaty rights."""
    limit = placement.cap(state)
    budget = state.unplaced.get(country, 0)
    home = state.at(country, country)
    if home > 2 * limit:
        budget += rng.randint(0, home - 2 * limit)  # bring some of a large reserve into play
    wishes = sorted(_wishes(country).items(), key=lambda kv: kv[1] + rng.random() * 3, reverse=True)
    sheet = Sheet()
    for embassy, _ in wishes:
        if budget <= 0:
            break
        mine = state.at(embassy, country)
        rival = max((n for c, n in state.pfs.get(embassy, {}).items() if c != country), default=0)
        if rival > mine + 3 * limit:
            continue  # hopeless this turn: spend elsewhere
        # enough for treaty rights, and enough to face the strongest rival at better than even odds
        need = max(12 - mine, (3 * rival) // 2 + 1 - mine)
        n = min(limit, budget, max(need, 0) if rng.random() < 0.8 else limit)
        if n > 0:
            sheet.place[embassy] = n
            budget -= n
    spare = [e for e in content.embassies() if e != country and e not in sheet.place]
    rng.shuffle(spare)
    while budget > limit and spare:  # never leave more at home than the cap (it would be lost)
        embassy = spare.pop()
        n = min(limit, budget - limit)
        sheet.place[embassy] = n
        budget -= n
    if rng.random() < 0.05:
        held = [e for e, here in state.pfs.items() if here.get(country, 0) > 0 and e != country]
        if held:
            embassy = rng.choice(held)
            sheet.remove[embassy] = rng.randint(1, min(placement.ELIMINATE_CAP, state.at(embassy, country)))
    return legal_or_empty(state, country, sheet)


def _enemy(country: str) -> str:
    """The country whose treaty rights with major countries spoil `country`'s special."""
    for special in content.objectives().specials:
        if special.power == country and special.enemy:
            return special.enemy
    return ""


def _attack(state: OriginsState, country: str, rng: random.Random) -> Any:
    wishes = _wishes(country)
    enemy = _enemy(country)
    best: tuple[float, str, str] | None = None
    for embassy in attacks.attack_embassies(state, country):
        mine = state.at(embassy, country)
        for target in attacks.targets(state, country, embassy):
            theirs = state.at(embassy, target)
            col = attacks.column(mine, theirs)
            treaty = theirs >= 10 and target != embassy
            spoils = treaty and (embassy in wishes or (target == enemy and embassy in state.holders))
            if col < 4 and not (spoils and col >= 3):
                continue  # only at good odds, or at even odds to break a harmful treaty
            score = col + (2 if embassy in wishes else 0) + (3 if spoils else 0) + rng.random()
            if best is None or score > best[0]:
                best = (score, embassy, target)
    if best is None:
        return Done()
    _, embassy, target = best
    mine = state.at(embassy, country)
    others = [t for t in attacks.targets(state, country, embassy) if t != target]
    left = attacks.allowed(state) - state.attacks_made
    if others and left >= 2 and mine >= 2 and rng.random() < 0.2:
        # now and then split the embassy's PFs between two defenders (§7)
        first = rng.randint(1, mine - 1)
        return Attack(embassy=embassy, split={target: first, others[0]: mine - first})
    return Attack(embassy=embassy, split={target: mine})
