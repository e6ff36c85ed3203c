"""The `/schonbrunn` commands: one per decision, autocomplete offering only legal values."""

from __future__ import annotations

import pytest

from engine.core import IllegalAction
from engine.schonbrunn import GAME
from engine.schonbrunn.actions import Activate, Assign, Commit, Head, Minister, Move, Plot, Sign

from .helpers import adjust, give, place, table

COMMANDS = {c.name: c for c in GAME.commands}
ORDER = ["GB", "PRU", "ESP", "AUT", "RUS", "FRA"]


def _build(state, seat, name, **options):
    return COMMANDS[name].build(state, seat, options)


def _suggest(state, seat, name, option, **typed):
    opt = next(o for o in COMMANDS[name].options if o.name == option)
    return [c.value for c in opt.suggest(state, seat, typed)]


def test_every_decision_of_the_issue_has_a_command():
    wanted = {
        "commit",
        "tiebreak",
        "sign",
        "receptions",
        "favour",
        "assign",
        "head",
        "plot",
        "move",
        "minister",
        "activate",
        "keep",
        "bid",
        "choose",
        "pass",
    }
    assert wanted <= COMMANDS.keys()
    assert COMMANDS["commit"].private and COMMANDS["bid"].private and COMMANDS["tiebreak"].private


def test_commit_offers_only_the_callers_supply():
    s = table(["GB", "AUT", "RUS"])
    assert _suggest(s, "GB", "commit", "delegate") == ["0", "1", "2", "3", "4", "5"]
    s.delegates = [d for d in s.delegates if not (d.owner == "AUT" and d.value == 5)]
    assert "5" not in _suggest(s, "AUT", "commit", "delegate")
    assert _build(s, "GB", "commit", delegate="3") == Commit(delegate=3)


def test_assign_checks_the_face_the_step_requires():
    s = table(["GB", "AUT", "RUS"])
    s.stage, s.queue, s.assign_step, s.assign_left = "assign", ["GB"], "down", 3
    assert _build(s, "GB", "assign", delegate="2", objective="ii") == Assign(delegate=2, objective="II")
    with pytest.raises(IllegalAction, match="face down now"):
        _build(s, "GB", "assign", delegate="2", objective="II", face="up")
    with pytest.raises(IllegalAction, match="not a legal Objective"):
        _build(s, "GB", "assign", delegate="2", objective="V")  # V is ignored with 3-4 players


def test_head_offers_free_places_and_screens_only():
    s = table(["GB", "AUT", "RUS", "PRU", "FRA", "ESP"])
    s.stage, s.queue, s.assign_step = "assign", ["FRA"], "head"
    adjust(s, "RUS", head="I")
    adjust(s, "AUT", head="GB")
    offered = _suggest(s, "FRA", "head", "target")
    assert "I" not in offered and "GB" not in offered and "FRA" not in offered
    assert {"none", "II", "III", "IIII", "V", "AUT", "RUS", "PRU", "ESP"} == set(offered)
    adjust(s, "FRA", receptions=0)
    assert _suggest(s, "FRA", "head", "target") == ["none"]
    assert _build(s, "FRA", "head", target="none") == Head(target=None)


def test_plot_offers_reachable_targets_only():
    s = table(["GB", "AUT", "RUS", "PRU", "FRA", "ESP"])
    s.hierarchy, s.stage, s.queue = list(ORDER), "plot", ["ESP"]
    place(s, "RUS", "I", [3])
    place(s, "RUS", "II", [4])
    place(s, "AUT", "III", [2], face_up=True)  # face up: not a Plot target
    place(s, "ESP", "I", [7])
    adjust(s, "RUS", head="I")  # Nesselrode shields the Russians in I
    assert _suggest(s, "ESP", "plot", "nation") == ["RUS"]
    assert _suggest(s, "ESP", "plot", "objective", nation="RUS") == ["II"]
    assert _suggest(s, "ESP", "plot", "receptions") == ["1", "2", "3", "4"]
    assert _build(s, "ESP", "plot", nation="RUS", objective="ii", receptions="2") == Plot(
        nation="RUS", objective="II", receptions=2, index=1
    )


def test_move_offers_face_up_pieces_and_destinations():
    s = table(["GB", "AUT", "RUS"])
    s.hierarchy, s.stage, s.queue = ["GB", "AUT", "RUS"], "move", ["AUT"]
    adjust(s, "AUT", head="GB")
    place(s, "GB", "V" if "V" in s.objectives else "IIII", [1], face_up=True)
    place(s, "GB", "II", [2])
    assert _suggest(s, "AUT", "move", "delegate") == ["IIII:1"]
    assert _suggest(s, "AUT", "move", "to", delegate="IIII:1") == ["II"]
    assert _build(s, "AUT", "move", delegate="IIII:1", to="II") == Move(objective="IIII", delegate=1, to="II")


def test_minister_sign_activate_and_keep_build_the_actions():
    s = table(["GB", "AUT", "RUS"])
    place(s, "RUS", "I", [3])
    assert _suggest(s, "RUS", "minister", "objective") == ["none", "I"]
    assert _build(s, "RUS", "minister", objective="i") == Minister(objective="I")
    give(s, "RUS", "union_of_genoa_with_sardinia")
    give(s, "RUS", "holy_alliance")
    assert _build(s, "RUS", "sign", treaties="Holy Alliance, union_of_genoa_with_sardinia") == Sign(
        treaties=["holy_alliance", "union_of_genoa_with_sardinia"]
    )
    adjust(s, "RUS", signed=["union_of_genoa_with_sardinia"])
    s.stage = "activate"
    assert _suggest(s, "RUS", "activate", "pay") == ["minister"]
    built = _build(s, "RUS", "activate", treaty="Union of Genoa with Sardinia", pay="minister", objective="I")
    assert built == Activate(treaty="union_of_genoa_with_sardinia", pay="minister", objective="I")
    with pytest.raises(IllegalAction, match="not a legal Aid"):
        _build(s, "RUS", "activate", treaty="union_of_genoa_with_sardinia", pay="Donation")


# What to type for each prompt kind when only autocomplete is used.
PICK = {"plot": "pass", "activate": "pass", "receptions": "receptions", "head": "head"}


def _by_autocomplete(state, seat, kind):
    name = PICK.get(kind, kind)
    if kind == "sign":
        return _build(state, seat, "sign", treaties="none")
    if kind == "keep":
        return _build(state, seat, "keep")
    typed: dict[str, str] = {}
    for opt in COMMANDS[name].options:
        if opt.suggest is None or (not opt.required and opt.name != "to"):
            continue
        choices = opt.suggest(state, seat, typed)
        assert choices, f"{name}: no suggestion for {opt.name}"
        typed[opt.name] = choices[0].value
    return _build(state, seat, name, **typed)


@pytest.mark.parametrize(("players", "options"), [(4, {}), (3, {"auction": True}), (6, {"simplified": True})])
def test_a_whole_game_played_only_from_autocomplete(players, options):
    """Every value autocomplete offers is legal: a game typed only from its suggestions ends."""
    state = GAME.setup([f"p{i}" for i in range(players)], GAME.Options(**options), seed=11)
    for _ in range(3000):
        if GAME.outcome(state):
            break
        prompt = GAME.prompts(state)[0]
        action = _by_autocomplete(state, prompt.seat, prompt.kind)
        state, _ = GAME.apply(state, prompt.seat, action)
    assert GAME.outcome(state) is not None


def test_the_screen_shows_each_cards_text_the_signed_treaties_the_nation_and_the_board():
    """A player's own cards, nation and Delegation Head read in full in their view;
    the Reparations on the board too. Nobody else's view names what is behind a screen."""
    from engine.schonbrunn.content import card, cards, nations
    from engine.schonbrunn.texts import card_text

    state = table(["GB", "AUT", "RUS"])
    state.tops_revealed = True
    aid = next(c for c in cards().values() if c.type == "aid")
    treaty = next(c for c in cards().values() if c.type == "treaty")
    give(state, "GB", aid.id)
    adjust(state, "GB", signed=[*state.players["GB"].signed, treaty.id])
    shown = GAME.describe(GAME.view(state, "GB"))
    assert f"• **{aid.name}**: {card_text(aid)}" in shown
    assert f"• **{treaty.name}**: {card_text(treaty)}" in shown
    assert nations()["GB"].ability_text in shown and nations()["GB"].head_text in shown
    on_board = [card(state.piles[o][0]) for o in state.objectives if state.piles[o]]
    assert on_board and all(f"**{c.name}**: {card_text(c)}" in shown for c in on_board)
    assert aid.name not in GAME.describe(GAME.view(state, "AUT"))
    assert aid.name not in GAME.describe(GAME.view(state, None))


def test_cards_are_offered_with_their_text_where_they_are_chosen():
    """Signing, activating and keeping name each card with its text."""
    from engine.schonbrunn.content import cards
    from engine.schonbrunn.texts import card_text

    state = table(["GB", "AUT", "RUS"])
    treaty = next(c for c in cards().values() if c.type == "treaty")
    adjust(state, "GB", signed=[*state.players["GB"].signed, treaty.id])
    opt = next(o for o in COMMANDS["activate"].options if o.name == "treaty")
    offered = {c.value: c.label for c in opt.suggest(state, "GB", {})}
    label = offered[treaty.id]
    assert label.startswith(f"{treaty.name} — ") and len(label) <= 100
    assert card_text(treaty).startswith(label.removeprefix(f"{treaty.name} — ").rstrip("…"))
