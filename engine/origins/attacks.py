"""Phase 5 and §7: diplomatic attacks, the odds and the Diplomatic Attack Table."""

from __future__ import annotations

import random

from engine.core import Event, IllegalAction, roll
from engine.core.words import counted

from . import content
from .state import OriginsState


def allowed(state: OriginsState) -> int:
    """Attacks per country this turn: 2, or 3 in the last turn (Phase 2, Phase 5)."""
    return 3 if state.last_turn else 2


def column(attacker: int, defender: int) -> int:
    """The odds column, rounded in the defender's favour (§7): the highest column whose
    ratio attacker:defender reaches."""
    columns = content.attack_table().columns
    for i in range(len(columns) - 1, 0, -1):
        col = columns[i]
        if attacker * col.defender >= defender * col.attacker:
            return i
    return 0


def result(dice: int, col: int) -> str:
    for row in content.attack_table().rows:
        if row.roll == dice:
            return row.results[col]
    raise ValueError(f"no row for a roll of {dice}")


def losses(outcome: str, attacker: int, defender: int) -> tuple[int, int]:
    """PFs lost by (attacker, defender). EX: the side with fewer PFs removes them all and
    the other side removes the same number (§7)."""
    if outcome == "AE":
        return attacker, 0
    if outcome == "DE":
        return 0, defender
    n = min(attacker, defender)
    return n, n


def targets(state: OriginsState, country: str, embassy: str) -> list[str]:
    """Countries `country` may attack in `embassy` now: another player's (rulings.md 20a)."""
    if embassy in state.embassies_used or state.at(embassy, country) <= 0:
        return []
    mine = state.holders.get(country)
    return [c for c in state.order if state.holders.get(c) != mine and state.at(embassy, c) > 0]


def only_own(state: OriginsState, country: str) -> bool:
    """No attack is possible, though the country has PFs beside another country's: that
    country is its own player's (said when the country is skipped)."""
    return (
        state.attacks_made < allowed(state)
        and not attack_embassies(state, country)
        and any(len(here) > 1 and country in here for here in state.pfs.values())
    )


def attack_embassies(state: OriginsState, country: str) -> list[str]:
    """Embassies where `country` may still attack this turn."""
    if state.attacks_made >= allowed(state):
        return []
    out = []
    for embassy in content.embassies():
        here = state.pfs.get(embassy)
        # only positive counts are kept, so a second entry is another country's PFs
        if here and len(here) > 1 and country in here and embassy not in state.embassies_used:
            if targets(state, country, embassy):  # another player's country is there
                out.append(embassy)
    return out


def check(state: OriginsState, country: str, embassy: str, split: dict[str, int]) -> None:
    names = content.names()
    if embassy not in names:
        raise IllegalAction(f"No embassy called {embassy!r}.")
    where = names[embassy]
    if embassy in state.embassies_used:
        raise IllegalAction(
            f"{names[country]} has already attacked in {where} this turn, with all its PFs there."
        )
    mine = state.at(embassy, country)
    if mine <= 0:
        raise IllegalAction(f"{names[country]} has no PFs in {where}.")
    left = allowed(state) - state.attacks_made
    if not split:
        raise IllegalAction("Name at least one country to attack.")
    if len(split) > left:
        raise IllegalAction(f"{names[country]} has {counted(left, 'attack')} left this turn, not {len(split)}.")
    for target, n in split.items():
        if target == country:
            raise IllegalAction(f"{names[country]} cannot attack itself.")
        if state.holders.get(target) == state.holders.get(country):
            raise IllegalAction(
                f"{names[country]} and {names.get(target, target)} are the same player's: "
                "an attack is made on another player's country."
            )
        if target not in state.holders or state.at(embassy, target) <= 0:
            raise IllegalAction(f"{names.get(target, target)} has no PFs in {where} to attack.")
        if n < 1:
            raise IllegalAction(f"Each attack needs at least 1 PF, not {n} against {names[target]}.")
    if sum(split.values()) != mine:
        raise IllegalAction(
            f"An attack in {where} commits all {mine} of {names[country]}'s PFs there, split between "
            f"the attacks; this split commits {sum(split.values())}."
        )


def resolve(
    state: OriginsState, country: str, embassy: str, split: dict[str, int], rng: random.Random
) -> list[Event]:
    """Fight each attack of the split in turn; the defender always uses all its PFs there."""
    names = content.names()
    labels = [c.label for c in content.attack_table().columns]
    events = []
    for target, committed in split.items():
        defending = state.at(embassy, target)
        col = column(committed, defending)
        dice = roll(rng, 2)
        outcome = result(sum(dice), col)
        lost_a, lost_d = losses(outcome, committed, defending)
        state.add(embassy, country, -lost_a)
        state.add(embassy, target, -lost_d)
        state.book(country, eliminated=lost_a)
        state.book(target, eliminated=lost_d)
        events.append(
            Event(
                kind="attack",
                text=(
                    f"{names[country]} attacks {names[target]} in {names[embassy]}: {committed} against "
                    f"{defending} ({labels[col]}), rolls {dice[0]}+{dice[1]}={sum(dice)}: **{outcome}**. "
                    f"{names[country]} loses {lost_a}, {names[target]} loses {lost_d}."
                ),
                data={
                    "attacker": country,
                    "defender": target,
                    "embassy": embassy,
                    "committed": committed,
                    "defending": defending,
                    "column": labels[col],
                    "dice": dice,
                    "result": outcome,
                },
            )
        )
    state.attacks_made += len(split)
    state.embassies_used.append(embassy)
    return events
