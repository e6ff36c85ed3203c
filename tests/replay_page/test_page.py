"""The replay page as a file: made only after the end, an abandoned game's secrets kept,
everything inline, small enough for a long game."""

from __future__ import annotations

import html
import json
import re
from itertools import pairwise

import pytest

from bot.render.pictures import draw_private_vector, draw_vector
from bot.render.replay_page import ReplayPageError, replay_page
from bot.render.replay_page.chart import nice_ticks, score_chart
from bot.store.records import PUBLIC_FORMAT, make_record
from engine import games
from engine.core import PUBLIC, seed_commitment
from engine.core.playout import play_out

from .conftest import SEED, play


def _data(page: bytes) -> dict:
    """The JSON block the page's script reads."""
    found = re.search(rb'<script type="application/json" id="data">(.*?)</script>', page, re.S)
    return json.loads(found.group(1).decode("utf-8").replace("<\\/", "</"))


def _plain(fragment: str) -> str:
    return html.unescape(re.sub("<[^>]+>", "", fragment))


def _shapes(data: dict, picture: int) -> list[str]:
    """The shapes of one of the page's pictures, as its script draws them; [] for none."""
    if picture < 0:
        return []
    frame = data["frames"][data["pictures"][picture][0]]
    return [data["shapes"][start + k] for start, count in zip(frame[2::2], frame[3::2], strict=True) for k in range(count)]


def _alt(data: dict, picture: int) -> str:
    return " ".join(data["sentences"][n] for n in data["alts"][data["pictures"][picture][1]])


def _unfinished(game_id: str, actions: int, **extra) -> dict:
    game = games.get(game_id)
    playout = play_out(game, 3, seed=SEED)
    record = make_record(game, list(playout.state.seats), game.Options(), SEED, playout.actions[:actions])
    data = record.model_dump(mode="json")
    data["names"] = {seat: f"Player {i + 1}" for i, seat in enumerate(data["seats"])}
    data.update(extra)
    return data


def _private_lines(game_id: str, record: dict) -> set[str]:
    """Lines some seat alone could read at the record's last state."""
    game = games.get(game_id)
    state = game.setup(list(record["seats"]), game.Options(), record["seed"])
    for entry in record["actions"]:
        state, _ = game.apply(state, entry["seat"], game.parse_action(entry["action"]))
    public = set(game.describe(game.view(state, PUBLIC)).splitlines())
    return {
        line.replace("**", "").strip()
        for seat in record["seats"]
        for line in game.describe(game.view(state, seat)).splitlines()
        if line not in public and len(line.strip()) > 12
    }


@pytest.mark.slow
def test_a_finished_game_page_names_the_seed_commitment_and_standings(played):
    crisis = played["crisis1914"]
    page = replay_page(crisis.record).decode("utf-8")
    assert f"seed <code>{SEED}</code>" in page and seed_commitment(SEED) in page
    winner = next(s for s in crisis.game.outcome(crisis.states[-1]).standings if s.rank == 1)
    assert f"1.</span> <strong>{crisis.who(winner.seat).replace('<', '&lt;').replace('>', '&gt;')}" in page
    assert "Play the optional Congress Step at the end of each Week" in page  # the rules options


@pytest.mark.parametrize("game_id", ["crisis1914", "origins", "schonbrunn"])
def test_a_game_in_play_is_refused(game_id):
    with pytest.raises(ReplayPageError, match="only once the game has ended"):
        replay_page(_unfinished(game_id, 30))


def test_an_operator_export_of_a_running_game_is_refused():
    with pytest.raises(ReplayPageError, match="only once the game has ended"):
        replay_page(_unfinished("crisis1914", 30, status="running", secret=True))


def test_a_public_record_of_a_game_in_play_is_refused():
    public = {"format": PUBLIC_FORMAT, "game": "crisis1914", "status": "running", "public_log": []}
    with pytest.raises(ReplayPageError, match="only once the game has ended"):
        replay_page(public)


def test_a_tampered_record_is_refused(played):
    record = json.loads(json.dumps(played["schonbrunn"].record))
    record["seed"] += 1
    with pytest.raises(ReplayPageError, match="does not replay"):
        replay_page(record)


def test_an_abandoned_games_full_record_shows_only_what_was_public():
    record = _unfinished("crisis1914", 60, status="abandoned", seed_commitment=seed_commitment(SEED))
    secrets = _private_lines("crisis1914", record)
    assert secrets  # the hands are there to be kept
    page = replay_page(record)
    text = page.decode("utf-8")
    data = _data(page)
    assert data["publicOnly"] and data["private"] == [[], [], []] and data["told"] == [[], [], []]
    assert not any(data["did"]), "no secret order is named"
    assert f"seed <code>{SEED}</code>" not in text and "The seed stays secret" in text
    assert seed_commitment(SEED) in text  # what the table saw at the start
    shown = " ".join(_plain(line) for line in data["lines"])
    assert not [line for line in secrets if line in shown]


def test_an_abandoned_games_public_record_shows_its_log():
    game = games.get("origins")
    playout = play_out(game, 3, seed=SEED)
    state = game.setup(["s1", "s2", "s3"], game.Options(), SEED)
    log = []
    for index, (seat, action) in enumerate(playout.actions[:40]):
        state, events = game.apply(state, seat, action)
        log += [{"action": index + 1, "text": e.text} for e in events if e.audience is None]
    public = {
        "format": PUBLIC_FORMAT,
        "game": "origins",
        "status": "abandoned",
        "options": {},
        "seats": ["s1", "s2", "s3"],
        "labels": {s: game.seat_label(state, s) for s in ("s1", "s2", "s3")},
        "names": {"s1": "Anna", "s2": "Bruno", "s3": "Chiara"},
        "seed_commitment": seed_commitment(SEED),
        "public_log": log,
        "public_view": game.view_dict(game.view(state, PUBLIC)),
    }
    page = replay_page(public)
    data = _data(page)
    assert data["publicOnly"] and data["steps"] == 41
    assert [(step, _plain(text)) for step, text in data["log"]] == [
        (e["action"], e["text"].replace("**", "").replace("\n", "")) for e in log
    ]
    assert "Anna (" in page.decode("utf-8") and f"seed <code>{SEED}</code>" not in page.decode("utf-8")


@pytest.mark.slow
def test_names_are_text_never_markup(played):
    page = replay_page(played["origins"].record).decode("utf-8")
    assert "Chiara &lt;i&gt;the Bold&lt;/i&gt;" in page and "Chiara <i>" not in page.split('id="data"')[0]


def test_the_page_fetches_nothing_from_anywhere(played):
    page = replay_page(played["schonbrunn"].record).decode("utf-8")
    outside = re.findall(r"""\s(?:src|href)=["']?+(?!data:|#)[^"'\s>]*|url\(|@import""", page)
    assert outside == []
    shapes = _data(page.encode())["shapes"]
    assert shapes and all(re.fullmatch(r"<(rect|line|text)\s[^<]*(/>|>[^<]*</text>)", s) for s in shapes)
    assert not [s for s in shapes if "href" in s or "url(" in s]  # SVG shapes, no image of any kind
    assert "default-src 'none'" in page  # and the browser is told to refuse any fetch


@pytest.mark.whole_game
def test_a_seven_player_origins_page_stays_under_two_megabytes():
    game = games.get("origins")
    record = play("origins", players=7).record
    page = replay_page(record)
    assert len(page) < 2_000_000
    data = _data(page)
    assert data["steps"] == len(record["actions"]) + 1 and len(data["players"]) == 7
    assert game.title in page.decode("utf-8")


def test_the_page_lists_only_the_options_that_apply_and_steps_with_back_and_next():
    from bot.render.replay_page import _shown_options

    origins = games.get("origins")
    assert "four_players_italy" in _shown_options(origins, {}, 4)
    assert "four_players_italy" not in _shown_options(origins, {}, 5)
    assert "margin_rule" in _shown_options(origins, {}, 5)
    from importlib.resources import files

    template = files("bot.render.replay_page").joinpath("page.html").read_text("utf-8")
    assert _plain(re.search(r'<button[^>]*id="next"[^>]*>(.*?)</button>', template, re.S)[1]) == "Next › one step"
    assert _plain(re.search(r'<button[^>]*id="prev"[^>]*>(.*?)</button>', template, re.S)[1]) == "‹ Back one step"


@pytest.mark.slow
def test_the_board_and_each_players_own_picture_are_drawn_at_every_step_from_their_views(played):
    """Every step's board is that step's public view drawn, and each player's own picture
    their own view of that step: no picture of a round's start shown later, nothing a
    view does not hold."""
    game = played["schonbrunn"]
    data = _data(replay_page(game.record))
    seats = game.record["seats"]
    assert len(data["picture"]) == len(game.states)
    for step, state in enumerate(game.states):
        board = draw_vector(game.game.id, game.game.view(state, PUBLIC))
        assert _shapes(data, data["picture"][step]) == list(board.shapes), step
        assert _alt(data, data["picture"][step]) == board.description, step
        for p, seat in enumerate(seats):
            own = draw_private_vector(game.game.id, game.game.view(state, seat))
            assert _shapes(data, data["privatePicture"][p][step]) == (list(own.shapes) if own else []), step
    assert len(set(data["picture"])) > len(game.states) // 4, "the board changes along the game"


@pytest.mark.slow
def test_schonbrunns_assignments_show_on_the_board_at_the_step_they_are_made(played):
    """The fault this replaced: the board was drawn at each round's start only, so while
    the Delegates were assigned it showed every Objective empty."""
    game = played["schonbrunn"]
    data = _data(replay_page(game.record))
    views = [game.game.view(state, PUBLIC) for state in game.states]
    placed = [
        k
        for k in range(1, len(views))
        if sum(len(o.pieces) for o in views[k].objectives.values())
        > sum(len(o.pieces) for o in views[k - 1].objectives.values())
    ]
    assert placed, "the game assigns Delegates"
    for k in placed[:10]:
        empty = sum(1 for o in views[k].objectives.values() if not o.pieces)
        texts = [_plain(s) for s in _shapes(data, data["picture"][k])]
        assert texts.count("no Delegates") == empty < len(views[k].objectives), k
        assert f"Round {views[k].round} of" in texts[1], k  # the title of that very step


def test_an_abandoned_games_pictures_are_the_public_boards_only():
    record = _unfinished("schonbrunn", 60, status="abandoned")
    data = _data(replay_page(record))
    game = games.get("schonbrunn")
    state = game.setup(list(record["seats"]), game.Options(), record["seed"])
    public = set(draw_vector(game.id, game.view(state, PUBLIC)).shapes)
    for entry in record["actions"]:
        state, _ = game.apply(state, entry["seat"], game.parse_action(entry["action"]))
        public |= set(draw_vector(game.id, game.view(state, PUBLIC)).shapes)
    assert data["privatePicture"] == [[], [], []]
    assert set(data["shapes"]) == public, "no shape of any player's own picture is kept"
    assert not [s for s in data["shapes"] if "behind your screen" in s]


@pytest.mark.parametrize(
    ("low", "high", "ticks"),
    [
        (0, 18, [0, 5, 10, 15, 20]),
        (0, 23, [0, 5, 10, 15, 20, 25]),
        (0, 7, [0, 2, 4, 6, 8]),
        (0, 1, [0, 1]),
        (0, 99, [0, 20, 40, 60, 80, 100]),
        (-12, -2, [-12, -10, -8, -6, -4, -2]),
        (3, 3, [3, 4]),
    ],
)
def test_the_score_axis_steps_by_one_two_or_five_times_a_power_of_ten(low, high, ticks):
    found = nice_ticks(low, high)
    assert found == ticks
    steps = {b - a for a, b in pairwise(found)}
    assert len(steps) == 1 and found[0] <= low and found[-1] >= high and len(found) - 1 <= 6


def test_the_score_chart_labels_its_axis_with_those_steps():
    chart = score_chart([[0, 3, 18], [0, 1, 14]], [(0, 114, 178), (230, 159, 0)], [(0, "Week 1")], "Scores")
    labels = re.findall(r'class="axis" text-anchor="end">(-?[\d.]+)</text>', chart)
    assert labels == ["0", "5", "10", "15", "20"]
    ys = [float(y) for y in re.findall(r'<text x="26" y="([\d.]+)" class="axis" text-anchor="end"', chart)]
    gaps = {round(a - b, 1) for a, b in pairwise(ys)}
    assert len(gaps) == 1, "the labels stand evenly apart"
