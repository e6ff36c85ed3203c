"""Board pictures (bot/render/pictures/): every state of whole games draws, the drawings
match their golden files, and a public picture never depends on hidden information."""

from __future__ import annotations

import io
import random

import pytest
from PIL import Image

from bot.__main__ import main
from bot.render.pictures import draw, has_pictures
from bot.render.pictures.layout import DESCRIPTION_LIMIT
from bot.render.pictures.sample import every_state
from engine import games
from tests.render import golden

GAMES = [g for g in ("origins", "crisis1914", "schonbrunn") if has_pictures(g)]
PNG_LIMIT = 300 * 1024


def _check(picture) -> Image.Image:
    image = Image.open(io.BytesIO(picture.png))
    assert image.format == "PNG"
    assert len(picture.png) <= PNG_LIMIT
    assert picture.description and len(picture.description) <= DESCRIPTION_LIMIT
    return image


# Every state of the fewest players' game is drawn; the most players' game (twice as long,
# each picture busier: 30 s of CPU in all) at every EVERY-th state and its last. Before:
# every state of both, about 40 CPU s for the six games; after: 19 CPU s.
EVERY = 4


@pytest.mark.whole_game
@pytest.mark.parametrize("game_id", GAMES)
@pytest.mark.parametrize("which", ["fewest", "most"])
def test_every_state_of_a_whole_game_draws(game_id, which):
    game = games.get(game_id)
    players = game.min_players if which == "fewest" else game.max_players
    states = every_state(game, players, seed=11)
    if which == "most":
        states = states[::EVERY] + ([states[-1]] if (len(states) - 1) % EVERY else [])
    sizes = set()
    for state in states:
        sizes.add(_check(draw(game.id, game.view(state, None))).size)
    assert len(sizes) == 1  # one board, one size, whatever the state


@pytest.mark.parametrize("case", golden.CASES, ids=golden.name)
def test_the_drawing_matches_its_golden_picture(case):
    expected = (golden.HERE / golden.name(case)).read_bytes()
    share = golden.differing_share(golden.picture(case), expected)
    assert share <= golden.SHARE, (
        f"{golden.name(case)}: {share:.2%} of the pixels differ; if the drawing changed on "
        "purpose, run `python -m tests.render.golden` and look at the new pictures"
    )


def test_the_golden_comparison_sees_a_changed_board():
    case = golden.CASES[0]
    other = (golden.HERE / golden.name(golden.CASES[1])).read_bytes()
    assert golden.differing_share(golden.picture(case), other) > golden.SHARE


@pytest.mark.slow
@pytest.mark.parametrize("game_id", GAMES)
def test_a_public_picture_does_not_depend_on_hidden_facts(game_id):
    game = games.get(game_id)
    states = every_state(game, game.max_players, seed=5)
    rng = random.Random(5)
    differed = 0
    for state in rng.sample(states, 25):
        varied = game.vary_hidden(state, None, random.Random(rng.random()))
        if varied.model_dump_json() != state.model_dump_json():
            differed += 1
        assert draw(game.id, game.view(varied, None)).png == draw(game.id, game.view(state, None)).png
    assert differed  # the check compared states that really differ in hidden facts


@pytest.mark.slow
def test_the_render_command_writes_the_picture(tmp_path, capsys):
    out = tmp_path / "board.png"
    assert (
        main(["render", "origins", "--players", "7", "--seed", "3", "--step", "150", "--out", str(out)]) == 0
    )
    assert str(out) in capsys.readouterr().out
    case = ("origins", 7, 3, 150)
    assert out.read_bytes() == golden.picture(case, golden.sampled_view(case))


def test_the_render_command_refuses_a_player_count_the_game_does_not_take(tmp_path, capsys):
    assert main(["render", "origins", "--players", "9", "--out", str(tmp_path / "x.png")]) == 2
    assert "2 to 7 players" in capsys.readouterr().err


@pytest.mark.slow
@pytest.mark.parametrize("game_id", GAMES)
def test_a_private_picture_is_drawn_from_its_owner_view_only(game_id):
    from bot.render.pictures import draw_private

    game = games.get(game_id)
    states = every_state(game, game.max_players, seed=5)
    for state in random.Random(3).sample(states[1:], 8):
        assert draw_private(game.id, game.view(state, None)) is None  # a spectator has nothing private
        for seat in state.seats:
            _check(draw_private(game.id, game.view(state, seat)))
        # another seat's secrets never change my private picture
        varied = game.vary_hidden(state, "s1", random.Random(7))
        mine = draw_private(game.id, game.view(state, "s1")).png
        assert draw_private(game.id, game.view(varied, "s1")).png == mine


def test_the_crisis_board_names_each_step_in_words():
    """The title and alt text say the step as the rulebook does, and count Rounds only in
    the Play Step (a Congress is no Round)."""
    from bot.render.pictures.crisis import _when, describe
    from engine.crisis1914 import views
    from tests.render.lint import problems

    game = games.get("crisis1914")
    states = every_state(game, 3, seed=11)
    seen = set()
    for state in states:
        view = game.view(state, None)
        seen.add(view.phase)
        status = (views.describe(view).splitlines()[0], views.layout(view).title)
        for text in (_when(view, " · "), describe(view), *status):
            assert problems(text) == [], (text, problems(text))
            assert ("Round" in text) == (view.phase == "play"), text
    assert {"play", "congress_invite", "congress_answer"} <= seen
    congress = next(game.view(s, None) for s in states if game.view(s, None).phase == "congress_answer")
    assert describe(congress).startswith(f"Crisis: 1914 board, Week {congress.week} of 6, Congress: answer the invitation.")
    assert views.layout(congress).title == f"Crisis: 1914 · Week {congress.week} of 6, Congress Step: attend or refuse"
