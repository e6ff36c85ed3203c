"""What a Crisis: 1914 seat cannot see, dealt afresh: the hidden-information check's
`vary_hidden` and the strong player's determinizations deal the same way (docs/architecture.md §2)."""

from __future__ import annotations

import random

from .state import CrisisState

__all__ = ["deal_unseen"]


def deal_unseen(state: CrisisState, observer: str | None, rng: random.Random) -> None:
    """Deal afresh, in place, every card whose place `observer` cannot know: the other
    statesmen's Hands and Draw Piles (and the cards they are looking at), and the unseen
    part of the observer's own Draw Pile; the top cards it knows, or is looking at to
    Reorganize, stay. Each hidden pool is sorted before it is shuffled and the nations are
    dealt in a fixed order, so the result depends on the observer's view and `rng` only
    (the hidden-information check's `vary_hidden` and the search's determinizations)."""
    for nid in sorted(state.players):
        p = state.players[nid]
        if p.seat == observer:
            seen = max(
                [p.known] + [len(x.cards) for x in state.pending if x.nation == nid and x.kind == "reorder"]
            )
            unseen = sorted(p.draw[seen:])
            rng.shuffle(unseen)
            p.draw[seen:] = unseen
            continue
        looking = [x for x in state.pending if x.nation == nid and x.kind == "choose"]
        pool = sorted(p.hand + p.draw + [c for x in looking for c in x.cards])
        rng.shuffle(pool)
        p.hand, rest = pool[: len(p.hand)], pool[len(p.hand) :]
        for x in looking:
            x.cards, rest = rest[: len(x.cards)], rest[len(x.cards) :]
        p.draw = rest
        for x in state.pending:
            if x.nation == nid and x.kind == "reorder":
                x.cards = p.draw[: len(x.cards)]
        if nid in state.refresh_discards:
            state.refresh_discards[nid] = p.hand[: len(state.refresh_discards[nid])]
