"""Issue 18 item 4 through SimCord: Origins answers given before the decision comes, by
`/game standing`, private and applied the moment their decision reaches the member."""

from __future__ import annotations

import pytest

from engine.origins import GAME, content

from .whole_game import WholeGameTable, draw_pictures, fixed_seed, simcord_bot  # noqa: F401 (fixtures pytest finds by name)

SEED = 77


@pytest.fixture
def seed() -> int:
    return SEED


class OriginsTable(WholeGameTable):
    game = GAME
    names = ("anna", "boris", "clara", "dmitri", "emil")
    channel_name = "origins"


async def _standing(table: OriginsTable, name: str, order: str) -> str:
    result = await table.members[name].slash(table.channel, "game standing", order=order)
    assert result.ephemeral, result.response.content
    return result.response.content


@pytest.mark.usefixtures("fixed_seed")
async def test_a_pass_and_a_sheet_left_ahead_answer_the_bidding_and_phase_4_without_the_member(env, store):
    table = OriginsTable(env, store)
    await table.start(SEED)
    state = await table.state()
    names = content.names()
    first = state.bidder
    waiting = [s for s in state.seats if s != first]
    mine = {seat: state.countries_of(seat)[0] for seat in waiting}
    for seat in waiting:  # everyone but the first bidder answers the bidding and Phase 4 ahead
        member = table.seats[seat]
        noted = await _standing(table, member, f"pass_unless {names[mine[seat]]}")
        assert "Standing order noted (only you see it)" in noted
        assert (
            f"unless one of these cards changes its place in the attack order before my turn: {names[mine[seat]]}"
            in noted
        )
        await _standing(table, member, "hand_in SER 1")
    listed = await _standing(table, table.seats[waiting[0]], "")
    assert "Your standing orders: pass in this turn's bidding unless" in listed
    assert "hand in my sheets the moment Phase 4 begins" in listed
    # the first bidder passes: every other pass comes from its standing order, then Phase 4
    # opens with four sheets already in
    await table.order(first, "pass")
    state = await table.state()
    assert state.phase == "placement"
    assert sorted(state.submitted) == sorted(waiting)
    assert all(state.drafts[mine[s]].place == {"SER": 1} for s in waiting)
    public = "\n".join(table.public_since(0))
    assert "passes in the bidding" in public and "has handed in its sheet" in public
    assert "standing order" not in public.lower() and "SER 1" not in public
    for seat in waiting:  # each member is told by DM, and only them, what was done for them
        told = "\n".join(table.dms(table.seats[seat]))
        assert "Your standing order was applied: pass in this turn's bidding unless" in told
        assert "Your standing order was applied: hand in my sheets the moment Phase 4 begins" in told
