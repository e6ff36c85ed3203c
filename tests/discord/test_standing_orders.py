"""Standing orders through SimCord: Origins answers given before the decision comes, by
`/game standing`, private and applied the moment their decision reaches the member."""

from __future__ import annotations

import random

import pytest

from engine.crisis1914 import GAME as CRISIS
from engine.origins import GAME, content

from .test_crisis_e2e import translate
from .whole_game import WholeGameTable, draw_pictures, fixed_seed, simcord_bot  # noqa: F401 (fixtures pytest finds by name)

pytestmark = pytest.mark.simcord

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


class CrisisTable(WholeGameTable):
    game = CRISIS
    names = ("anna", "boris", "clara")
    channel_name = "crisis"


@pytest.mark.usefixtures("fixed_seed")
async def test_a_crisis_pass_left_for_the_next_turn_is_played_when_the_turn_comes(env, store):
    table = CrisisTable(env, store)
    await table.start(SEED)
    state = await table.state()
    rng = random.Random(SEED)
    while state.pending:  # First Draw choices, if any
        state = await _play(table, state, rng)
    waiting = next(p.seat for p in state.players.values() if p.nation != state.actor)
    member = table.seats[waiting]
    noted = await _standing(table, member, "pass_next")
    assert "Pass at my next turn in this Week's Play Step" in noted
    nation = state.player_of(waiting).nation
    while state.actor != nation:  # the others play their turns until it is this statesman's
        state = await _play(table, state, rng)
        if state.player_of(waiting).passed:
            break
    assert state.player_of(waiting).passed  # the Pass was played for them, nobody waited
    told = "\n".join(table.dms(member))
    assert "Your standing order was applied: Pass at my next turn in this Week's Play Step" in told
    assert "standing order" not in "\n".join(table.public_since(0)).lower()


async def _play(table: CrisisTable, state, rng: random.Random):
    """The automatic player's order for whoever owes, typed as its command."""
    seat = CRISIS.prompts(state)[0].seat
    command, options = translate(state, CRISIS.bot_action(state, seat, rng))
    await table.order(seat, command, **options)
    return await table.state()
