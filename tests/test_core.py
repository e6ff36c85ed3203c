"""Engine core: the protocol, randomness, registry and the harnesses, on the test game."""

from __future__ import annotations

import ast
import pathlib

import pytest

from engine import games
from engine.core import Game, IllegalAction, NotYourTurn, Prompt, hooks, rng_for, seed_commitment
from tests.harness import check_hidden_information, check_random_play
from tests.tinygame import GAME, Commit, Press

ROOT = pathlib.Path(__file__).resolve().parent.parent


def _imports(path: pathlib.Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(a.name.split(".")[0] for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module.split(".")[0])
    return names


def test_engine_imports_neither_bot_nor_discord():
    offenders = [
        str(p.relative_to(ROOT))
        for p in (ROOT / "engine").rglob("*.py")
        if _imports(p) & {"bot", "discord", "aiosqlite", "asyncio"}
    ]
    assert offenders == []


def test_only_the_discord_adapter_imports_discord():
    adapter = ROOT / "bot" / "discord"
    offenders = [
        str(p.relative_to(ROOT))
        for p in (ROOT / "bot").rglob("*.py")
        if adapter not in p.parents and "discord" in _imports(p)
    ]
    assert offenders == []


def test_rng_depends_only_on_seed_and_index():
    assert rng_for(7, 3).random() == rng_for(7, 3).random()
    assert rng_for(7, 3).random() != rng_for(7, 4).random()
    assert rng_for(7, 3).random() != rng_for(8, 3).random()
    assert seed_commitment(7) != seed_commitment(8) and len(seed_commitment(7)) == 64


def test_a_step_draws_what_rng_for_its_seed_and_index_draws():
    # /game export and `replay` promise anyone with the seed can check every roll: the
    # step's generator must be exactly rng_for(seed, step), however lazily it is made.
    state = GAME.setup(["a", "b"], GAME.Options(), seed=11)
    state, _ = GAME.apply(state, "a", Commit(value=1))
    last = GAME.step(state, "b", Commit(value=2))  # the reveal rolls the die
    assert last.used_randomness
    assert last.state.last_roll == rng_for(11, state.step).randint(1, 6)


def test_a_step_from_the_states_json_equals_one_from_the_state():
    state = GAME.setup(["a", "b"], GAME.Options(), seed=3)
    state, _ = GAME.apply(state, "a", Commit(value=3))
    plain = GAME.step(state, "b", Commit(value=1))
    from_json = GAME.step(state, "b", Commit(value=1), source=state.model_dump_json())
    assert from_json.state.model_dump_json() == plain.state.model_dump_json()
    assert from_json.events == plain.events
    assert from_json.state is not state and state.commits == {"a": 3}


def test_a_prompt_refuses_a_mode_that_is_neither_sequential_nor_simultaneous():
    assert Prompt(seat="a", kind="commit", text="Commit.", phase="r1", mode="simultaneous").simultaneous
    with pytest.raises(ValueError, match="sequential or simultaneous, not 'secret'"):
        Prompt(seat="a", kind="commit", text="Commit.", phase="r1", mode="secret")


def test_illegal_action_changes_nothing():
    state = GAME.setup(["a", "b"], GAME.Options(), seed=1)
    before = state.model_dump_json()
    with pytest.raises(IllegalAction, match="Commit 1, 2 or 3"):
        GAME.apply(state, "a", Commit(value=9))
    with pytest.raises(NotYourTurn):
        GAME.apply(state, "zed", Commit(value=1))
    with pytest.raises(IllegalAction, match="not the press phase"):
        GAME.apply(state, "a", Press())
    assert state.model_dump_json() == before


def test_step_reports_randomness_and_reveals():
    state = GAME.setup(["a", "b"], GAME.Options(), seed=1)
    first = GAME.step(state, "a", Commit(value=1))
    assert first.undoable and not first.used_randomness
    second = GAME.step(first.state, "b", Commit(value=2))
    assert second.used_randomness and second.revealed and not second.undoable


def test_actions_parse_from_json_dicts():
    state = GAME.setup(["a", "b"], GAME.Options(), seed=1)
    state, events = GAME.apply(state, "a", {"kind": "commit", "value": 2})
    assert state.commits == {"a": 2}
    assert [e.audience for e in events] == ["a", None]


@pytest.mark.parametrize("seed", range(20))
def test_random_play_harness_on_test_game(seed):
    final = check_random_play(GAME, 3, seed)
    assert GAME.outcome(final) is not None


def test_random_play_harness_catches_a_step_that_changes_its_input():
    class Impure(type(GAME)):
        def step(self, state, seat, action, *, prompts=None, source=None):
            applied = super().step(state, seat, action, prompts=prompts, source=source)
            state.scores[seat] += 1  # the bug the harness must find: the old state changed
            return applied

    with pytest.raises(AssertionError, match="changed its input state"):
        check_random_play(Impure(), 3, seed=1)


def test_hidden_information_harness_catches_a_leak():
    class Leaky(type(GAME)):
        def view(self, state, seat):
            out = super().view(state, seat)
            out["all_commits"] = dict(state.commits)  # the bug the harness must find
            return out

    assert check_hidden_information(GAME, 3, seed=5) > 0
    with pytest.raises(AssertionError, match="depends on hidden facts"):
        for seed in range(10):
            check_hidden_information(Leaky(), 3, seed=seed)


def test_registry_names_the_known_games_on_a_bad_name():
    with pytest.raises(Exception, match="No game called 'chess'"):
        games.get("chess")


def test_a_refused_choice_names_the_legal_ones_as_players_read_them():
    """No internal ids: a Treaty is named by its printed name, without the
    text its autocomplete label adds, and each name once."""
    from engine.core.commands import Choice, match_choice

    choices = [
        Choice("Union of Genoa with Sardinia — Congress: +1 marker", "union_of_genoa_with_sardinia"),
        Choice("Donation — 2 Prestige", "donation"),
    ]
    assert match_choice("donation", choices, "Treaty") == "donation"
    with pytest.raises(IllegalAction) as refused:
        match_choice("Saxony", choices, "Treaty")
    assert str(refused.value) == "'Saxony' is not a legal Treaty. Legal: Union of Genoa with Sardinia, Donation."



def _hooks(cls: type) -> set[str]:
    return {n for n, v in vars(cls).items() if not n.startswith("_") and (callable(v) or isinstance(v, property))}


def test_every_hook_of_game_is_in_exactly_one_small_part_of_its_shape():
    """A new hook on Game is placed in one of the protocols (engine/core/hooks.py), so a
    caller that needs one part can ask for it; none grows past a handful of methods."""
    parts = [hooks.Rules, hooks.Checks, hooks.Orders, hooks.Players, hooks.Views, hooks.Texts]
    parts += [hooks.Diplomacy, hooks.Reference]
    own = {"step", "apply", "validate", "parse_action", "load_state", "group"}  # the one path, the name
    placed = [name for part in parts for name in _hooks(part)]
    assert sorted(placed) == sorted(_hooks(Game) - own)
    assert all(part in Game.__mro__ for part in parts)
    assert max(len(_hooks(part)) for part in parts) <= 10
