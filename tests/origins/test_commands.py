"""The `/origins` commands: each builds the engine's action; autocomplete offers only legal values."""

from __future__ import annotations

import pytest

from engine.core import IllegalAction
from engine.origins import GAME
from engine.origins.actions import Attack, Bid, Place, Remove, Submit, WriteSheet

from .helpers import finish_bidding, new_game, position, to_attacks

COMMANDS = {c.name: c for c in GAME.commands}


def _suggest(command, option, state, seat, typed=None):
    opt = next(o for o in COMMANDS[command].options if o.name == option)
    return [c.value for c in opt.suggest(state, seat, typed or {})]


def test_the_issues_commands_exist():
    assert set(COMMANDS) == {"bid", "pass", "place", "remove", "sheet", "submit", "attack", "done", "ready"}
    assert all(COMMANDS[c].private for c in ("place", "remove", "sheet", "submit"))


def test_bid_command_and_its_suggestions():
    state = new_game(5, 3)
    seat = state.bidder
    mine = state.countries_of(seat)[0]
    assert _suggest("bid", "card", state, seat) == state.order
    current = state.order.index(mine) + 1
    assert current not in [int(p) for p in _suggest("bid", "position", state, seat, {"card": mine})]
    assert _suggest("bid", "amount", state, seat)[0] == "1"
    action = COMMANDS["bid"].build(
        state, seat, {"card": mine.lower(), "position": "1" if current != 1 else "2", "amount": "1"}
    )
    assert isinstance(action, Bid) and action.payer == mine
    state, _ = GAME.apply(state, seat, action)
    assert state.high_bid == 1
    assert _suggest("bid", "amount", state, state.bidder)[0] == "2"


def test_place_remove_sheet_submit_commands():
    state = finish_bidding(new_game(5, 3))
    position(state, {"SER": {"GER": 7}})
    seat = state.holders["GER"]
    assert _suggest("place", "amount", state, seat) == [str(n) for n in range(6)]
    assert _suggest("remove", "embassy", state, seat) == ["SER"]
    assert _suggest("remove", "amount", state, seat, {"embassy": "ser"}) == [str(n) for n in range(6)]
    place = COMMANDS["place"].build(state, seat, {"embassy": "Serbia", "amount": 3})
    assert place == Place(country="GER", embassy="SER", amount=3)
    state, events = GAME.apply(state, seat, place)
    income = state.unplaced["GER"]
    note = f"{income - 3} PFs not placed: 5 go home, {income - 3 - 5} eliminated."  # the home cap is 5
    assert events[0].text == f"Your sheet for Germany: SER 3\n{note}"  # warned before submit
    remove = COMMANDS["remove"].build(state, seat, {"embassy": "ser", "amount": "2"})
    assert remove == Remove(country="GER", embassy="SER", amount=2)
    state, events = GAME.apply(state, seat, remove)
    assert events[0].text == f"Your sheet for Germany: SER 3, -SER 2\n{note}"
    assert COMMANDS["sheet"].build(state, seat, {}) is None  # shows the sheet
    line = COMMANDS["sheet"].build(state, seat, {"line": "SER 5, ROM 3, FE 2"})
    assert line == WriteSheet(country="GER", text="SER 5, ROM 3, FE 2")
    with pytest.raises(IllegalAction, match="No embassy called 'XX'"):
        COMMANDS["sheet"].build(state, seat, {"line": "XX 5"})
    assert COMMANDS["submit"].build(state, seat, {}) == Submit()


def test_a_player_with_several_countries_must_say_which():
    state = finish_bidding(new_game(2, 3))
    seat = state.holders["UK"]
    with pytest.raises(IllegalAction, match="say which with country"):
        COMMANDS["place"].build(state, seat, {"embassy": "FE", "amount": 3})
    with pytest.raises(IllegalAction, match="do not hold Germany"):
        COMMANDS["place"].build(state, seat, {"embassy": "FE", "amount": 3, "country": "GER"})
    assert (
        COMMANDS["place"].build(state, seat, {"embassy": "FE", "amount": 3, "country": "France"}).country
        == "FRA"
    )


def test_attack_command_suggests_only_legal_embassies_and_targets():
    state = new_game(5, 1)
    position(state, {"SER": {"GER": 6, "RUS": 3, "AH": 2}, "ROM": {"GER": 4}, "FE": {"UK": 5, "FRA": 1}})
    state = to_attacks(state, "GER")
    seat = state.holders["GER"]
    assert _suggest("attack", "embassy", state, seat) == ["SER"]
    assert _suggest("attack", "target", state, seat, {"embassy": "SER"}) == [
        c for c in state.order if c in ("RUS", "AH")
    ]
    # the odds column and the chance of each result, before the attack is made
    opt = next(o for o in COMMANDS["attack"].options if o.name == "target")
    labels = {c.value: c.label for c in opt.suggest(state, seat, {"embassy": "SER"})}
    assert labels["RUS"] == "RUS (Russia) 6 vs 3, 2:1: AE 17%, EX 67%, DE 17%"
    assert labels["AH"] == "AH (Austria-Hungary) 6 vs 2, 3:1: AE 3%, EX 69%, DE 28%"
    attack = Attack(embassy="SER", split={"RUS": 6})
    assert GAME.action_detail(state, seat, attack) == "6 vs 3 PFs, odds 2:1: AE 17%, EX 67%, DE 17%"
    other = state.holders["UK"]
    shown = GAME.describe(GAME.view(state, seat))
    assert "• Russia in Serbia: 6 vs 3, 2:1: AE 17%, EX 67%, DE 17%" in shown
    assert "• Austria-Hungary in Serbia: 6 vs 2, 3:1: AE 3%, EX 69%, DE 28%" in shown
    assert "Your attacks now" not in GAME.describe(GAME.view(state, other))
    assert _suggest("attack", "embassy", state, other) == []  # not the UK's turn
    single = COMMANDS["attack"].build(state, seat, {"embassy": "SER", "target": "RUS"})
    assert single == Attack(embassy="SER", split={"RUS": 6})
    split = COMMANDS["attack"].build(state, seat, {"embassy": "SER", "split": "RUS 4, AH 2"})
    assert split == Attack(embassy="SER", split={"RUS": 4, "AH": 2})
    with pytest.raises(IllegalAction, match="named twice"):
        COMMANDS["attack"].build(state, seat, {"embassy": "SER", "split": "RUS 4, RUS 2"})
    GAME.validate(state, seat, split)


def test_every_listed_legal_action_is_legal():
    from engine.core.playout import play_out

    checked = 0

    def on_step(before, seat, action, after, events):
        nonlocal checked
        if before.step % 7:
            return
        for legal in GAME.legal_actions(before, seat)[:12]:
            GAME.validate(before, seat, legal)
            checked += 1

    play_out(GAME, 4, 5, on_step=on_step)
    assert checked > 20


def test_a_whole_five_player_game_through_the_commands_alone():
    """Every decision of a game can be given with the commands as a player types them:
    sheets in the one-line form, attacks by embassy and target, passes, done and ready."""
    import random

    from engine.origins.bots import plan
    from engine.origins.placement import sheet_line

    state = new_game(5, 11)
    rng = random.Random(11)
    seen = set()
    while GAME.outcome(state) is None:
        prompt = GAME.prompts(state)[0]
        seat = prompt.seat
        if prompt.kind == "bid":
            if state.high_bid == 0 and rng.random() < 0.5:
                card = state.order[-1]
                opts = {"card": card, "position": "1", "amount": "1", "payer": state.countries_of(seat)[0]}
                calls = [("bid", opts)]
            else:
                calls = [("pass", {})]
        elif prompt.kind == "sheet":
            calls = []
            for country in state.countries_of(seat):
                line = sheet_line(plan(state, country, rng))
                calls.append(("sheet", {"line": "" if line == "(empty)" else line, "country": country}))
            calls.append(("submit", {}))
        elif prompt.kind == "attack":
            embassies = _suggest("attack", "embassy", state, seat)
            if embassies and rng.random() < 0.7:
                embassy = rng.choice(embassies)
                target = rng.choice(_suggest("attack", "target", state, seat, {"embassy": embassy}))
                calls = [("attack", {"embassy": embassy, "target": target})]
            else:
                calls = [("done", {})]
        else:
            calls = [("ready", {})]
        for name, opts in calls:
            action = COMMANDS[name].build(state, seat, opts)
            if action is None:
                continue
            state, _ = GAME.apply(state, seat, action)
            seen.add(name)
            assert GAME.invariants(state) == []
    assert {"bid", "pass", "sheet", "submit", "attack", "done", "ready"} <= seen
    assert 9 <= state.turn <= 11


@pytest.mark.parametrize(
    "typed, code",
    [
        ("Austria", "AH"),
        ("A-H", "AH"),
        ("austria-hungary", "AH"),
        ("Rumania", "ROM"),
        ("Britain", "UK"),
        ("England", "UK"),
        ("Ottoman Empire", "TUR"),
        ("ottoman  empire", "TUR"),
        ("SER", "SER"),
        ("Far East", "FE"),
    ],
)
def test_countries_are_accepted_by_their_common_names(typed, code):
    """Wherever a country or embassy is typed (embassy, country, payer,
    target, card, a sheet line), the common names and aliases are accepted."""
    from engine.origins.placement import embassy_code, parse_sheet

    assert embassy_code(typed) == code
    assert parse_sheet(f"{typed} 2").place == {code: 2}


def test_an_empty_sheet_is_handed_in_only_when_the_player_confirms_it():
    """An empty sheet loses the unplaced PFs over the home cap, so
    `/origins submit` asks first; `empty:yes` hands it in, and the reveal says what was lost."""
    state = finish_bidding(new_game(5, 3))
    seat = state.holders["GER"]
    income = state.unplaced["GER"]
    assert income > 5
    with pytest.raises(IllegalAction, match=rf"Germany is empty: {income} PFs not placed: 5 go home, {income - 5} "):
        COMMANDS["submit"].build(state, seat, {})
    assert COMMANDS["submit"].build(state, seat, {"empty": "yes"}) == Submit()
    for s in state.seats:
        state, events = GAME.apply(state, s, Submit())
    revealed = next(e.text for e in events if e.kind == "sheets_revealed")
    assert f"Germany loses {income - 5} unplaced PFs over the home cap of 5: eliminated." in revealed


def test_handing_in_a_sheet_that_leaves_pfs_unplaced_warns_as_the_sheet_does():
    """`/origins submit empty:yes`, or a sheet placing too little, is answered with the
    warning `/origins sheet` gives ("… PFs not placed: … go home, … eliminated."), while the
    sheets are still hidden."""
    state = finish_bidding(new_game(5, 3))
    seat = state.holders["GER"]
    income = state.unplaced["GER"]
    warning = f"Germany: {income} PFs not placed: 5 go home, {income - 5} eliminated."
    said = GAME.confirm(state, seat, Submit(), [])
    assert said.startswith("You handed in your sheets") and warning in said
    said = GAME.confirm(state, seat, Submit(sheets={}), [])  # the sheets given with the order
    assert warning in said
