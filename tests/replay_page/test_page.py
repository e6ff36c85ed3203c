"""The replay page as a file: made only after the end, an abandoned game's secrets kept,
everything inline, small enough for a long game."""

from __future__ import annotations

import html
import json
import re

import pytest

from bot.render.replay_page import ReplayPageError, replay_page
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
        "public_view": game.view(state, PUBLIC),
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
    assert all(p["src"].startswith("data:image/png;base64,") for p in _data(page.encode())["pictures"])
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
