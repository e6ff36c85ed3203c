"""Each game's `Game.showable`: what a seat may show of its own hidden things, exactly as
its rulebook hides them (engine/<game>/showing.py), and nothing of another seat's."""

from __future__ import annotations

import random

from engine import games
from engine.crisis1914.cards import card


def _play_until(game_id: str, players: int, done, options=None, seed: int = 3):
    """Random legal play from setup until `done(state)`; the state reached."""
    g = games.get(game_id)
    state = g.setup([f"s{i}" for i in range(1, players + 1)], options or g.Options(), seed)
    rng = random.Random(seed)
    for _ in range(2000):
        if done(state):
            return g, state
        prompts = g.prompts(state)
        if not prompts:
            break  # the game ended first
        prompt = prompts[0]
        state = g.step(state, prompt.seat, g.bot_action(state, prompt.seat, rng)).state
    raise LookupError("never reached")


def test_crisis_shows_the_cards_in_hand_and_the_draw_pile_cards_seen_and_only_the_owners():
    g = games.get("crisis1914")
    state = g.setup(["s1", "s2", "s3"], g.Options(), 3)
    rng = random.Random(3)
    while not any(p.known for p in state.players.values()):  # someone Reorganizes as soon as they may
        seat = g.prompts(state)[0].seat
        legal = g.legal_actions(state, seat)
        looking = [x for x in legal if type(x).__name__.lower().startswith("reorgani")]
        action = looking[0] if looking else g.bot_action(state, seat, rng)
        state = g.step(state, seat, action).state
    for seat in state.seats:
        hand = state.player_of(seat).hand
        items = g.showable(state, seat)
        seen = state.player_of(seat).draw[: state.player_of(seat).known]
        assert [i.kind for i in items][: len(hand)] == ["card in Hand"] * len(hand)
        assert [i.name for i in items] == [card(c).name for c in [*hand, *seen]]
        assert all(i.text and not i.refused for i in items)


def test_origins_shows_each_own_placement_sheet_only_while_sheets_are_secret():
    g, state = _play_until("origins", 3, lambda s: s.phase == "placement")
    seat = state.seats[0]
    items = g.showable(state, seat)
    assert len(items) == len(state.countries_of(seat)) and all(i.kind == "placement sheet" for i in items)
    assert all(i.name.endswith(" sheet") and "placement sheet" in i.text for i in items)
    g, state = _play_until("origins", 3, lambda s: s.phase == "attacks")
    assert g.showable(state, seat) == []  # the sheets are revealed: nothing is hidden


def test_schonbrunn_face_down_delegates_may_be_shown_only_where_their_owner_may_look():
    def face_down(state) -> bool:
        return any(d.place in state.objectives and not d.face_up for d in state.delegates)

    for see_own in (False, True):
        g = games.get("schonbrunn")
        g, state = _play_until("schonbrunn", 3, face_down, g.Options(see_own_face_down=see_own))
        items = [i for s in state.seats for i in g.showable(state, s) if i.kind == "face-down Delegates"]
        assert items and all(bool(i.refused) != see_own for i in items)
        if not see_own:
            assert "not even by the player who played them" in items[0].refused
        names = {i.name for s in state.seats for i in g.showable(state, s)}
        assert {"Receptions", "Delegates in supply"} <= names
