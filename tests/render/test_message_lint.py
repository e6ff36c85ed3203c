"""The message lint over whole games: every title at every player count (and each
variant once), played to the end through the console by automatic players, with each
player's confirmations, refusals, `/game status`, `/game me` and the whole log read on the
way. Nothing a player reads may hold a seat id, a Python repr, `/crisis1914`, a command
that does not exist or a known grammar slip (tests/render/lint.py)."""

from __future__ import annotations

import io
import re

import pytest

from bot.console.console import CHANNEL, Console, user_id_for
from bot.service.tables import TableError, TableService
from bot.store import open_store
from engine import games
from tests.service.conftest import Clock

from .lint import lint, problems

NAMES = ["anna", "boris", "clara", "dmitri", "emil", "fritz", "gustav"]


def _cases() -> list[tuple[str, int, str]]:
    cases = []
    for gid in games.ids():
        g = games.get(gid)
        cases += [(gid, n, "") for n in range(g.min_players, g.max_players + 1)]
    cases += [
        ("crisis1914", 3, "congress:no"),
        ("origins", 3, "margin_rule:yes"),
        ("schonbrunn", 4, "auction:yes"),
        ("schonbrunn", 3, "simplified:yes"),
        ("schonbrunn", 5, "see_own_face_down:yes"),
    ]
    return cases


async def _transcript(tmp_path, game_id: str, players: int, options: str) -> str:
    store = await open_store(tmp_path / "lint.sqlite3")
    service = TableService(store, clock=Clock())
    out = io.StringIO()
    console = Console(service, out)
    names = NAMES[:players]
    try:
        assert await console.line(f"as {names[0]} /game new game:{game_id} {options}")
        for name in names[1:]:
            assert await console.line(f"as {name} /game join")
        assert await console.line(f"as {names[0]} /game start seed:7")
        group = games.get(game_id).group
        moves = 0
        while True:
            if moves % 40 == 0:  # now and then, what each player would look at or try
                await console.line(f"as {names[0]} /game status")
                for name in names:
                    await console.line(f"as {name} /game me")
                    await console.line(f"as {name} /{group} nonsense")
                for cmd in games.get(game_id).commands:  # refusals of the moment, in the engine's words
                    try:
                        await service.command(CHANNEL, user_id_for(names[-1]), cmd.name, {})
                    except TableError as exc:
                        console.say(f"Refused: {exc}")
            result = await service.auto(CHANNEL)
            if result is None:
                break
            moves += 1
            await console.show(result, caller="the player who acted")
        await console.line(f"as {names[0]} /game status")
        for name in names:
            await console.line(f"as {name} /game me")
        page, pages = 1, 1
        while page <= pages:
            text = await service.history.log(CHANNEL, page)
            console.say(text)
            pages = int(re.search(r"page \d+ of (\d+)", text)[1])
            page += 1
        return out.getvalue()
    finally:
        await store.close()


@pytest.mark.whole_game
@pytest.mark.parametrize(("game_id", "players", "options"), _cases())
async def test_no_message_of_a_whole_game_needs_a_programmer_to_read(tmp_path, game_id, players, options):
    text = await _transcript(tmp_path, game_id, players, options)
    assert "Final standings" in text
    # one message per printed block: the console prints a message line by line, labelled
    messages = [line.split("] ", 1)[1] if line.startswith("[") else line for line in text.splitlines()]
    found = lint(messages)
    # what the whole table reads (the status, events, the log): countries in full
    found += lint([line for line in text.splitlines() if not line.startswith("[private to ")], public=True)
    acted = "[private to the player who acted] "
    found += [f"a confirmation in no game's words: {line}" for line in text.splitlines() if line.startswith(acted + "Done")]
    assert not found, "\n".join(dict.fromkeys(found))


@pytest.mark.parametrize(
    "text",
    [
        "s1 has bid.",
        "You (Spain): 2 Receptions · supply [0, 1, 1, 2] · committed 1",
        "Use /crisis1914 play to play a card.",
        "Refused: first use /crisis fly.",
        "Now is the time for: spend.",
        "Time is up and clara still owe orders.",
        "Russia & Italy is ready.",
        "Done: play.",
        "Waiting for: anna (turn) — due in 24 h",
        "reminder: you owe sheet in Origins of World War I",
        "Berchtold draws 3 card(s) into their Hand.",
        "Assignments: assign 1 more Delegate(s) face down with `/schonbrunn assign`.",
        "Berchtold takes Conrad back into their Hand (-0 DP).",
        "Crisis: 1914 board, Week 1 of 6, Round 11, congress_answer.",
        "Refused: 3 validation errors for CrisisOptions. For further information visit https://errors.pydantic.dev/2.9/v/extra_forbidden",
        "Favour III (0): 1 Reception to France; France +0 Prestige",
        "Germany & Austria-Hungary passes in the bidding.",
        "Berchtold (Vienna): 21 DP, 2 Prestige; Hand 0, Draw 7, cards 6/8 [passed, deliberated]",
        "Great Britain spends 1 Receptions for 1 Prestige.",
        "Round 1/4. Reparations: I: War Contribution, PoB: Cession of the Rhineland.",
    ],
)
def test_the_lint_finds_what_the_issue_names(text):
    assert problems(text)


@pytest.mark.parametrize(
    "text",
    ["Order: GER > AH", "`SER` AH 9★, RUS 3", "To place: UK 13, FRA 12", "France: RUS 5, UK 4"],
)
def test_the_lint_finds_a_country_code_in_what_the_table_reads(text):
    assert problems(text, public=True)
    assert problems("Attack order: Germany > Austria-Hungary; Serbia: Austria-Hungary 9★", public=True) == []


@pytest.mark.parametrize(
    "text",
    [
        "You played Conrad with Belligerence (8 DP).",
        "Russia & Italy are ready.",
        "Use /crisis play or /game status; in 10 s.",
        "Time is up and clara and boris still owe orders.",
        "Berchtold draws 1 card into their Hand; Moltke takes Conrad back (-4 DP).",
        "Serbia beat Bulgaria 10-0 on 2024-01-05; Tension -1.",
        "Change it with /game settings phase_hours: 24 or `/game settings quiet_hours:22-7`.",
        "Crisis: 1914 board, Week 1 of 6, Congress: answer the invitation.",
        "France & Russia pass in the bidding; France & Russia have handed in their sheets.",
        "1 vs 1 PFs, odds 1:1; page 1 is the newest; 1 Congress; three -1 markers; bid 11 Receptions.",
        "Week 4 nothing (13 DP (a Prestige award needs 14)); Week 5 +4; 0-17 DP none, 18-21 DP +1.",
    ],
)
def test_the_lint_passes_what_a_person_wrote(text):
    assert problems(text) == []


def test_a_count_names_its_noun_in_the_right_number():
    from engine.core.words import counted
    from engine.schonbrunn.texts import assign_words

    assert [counted(n, "card") for n in (0, 1, 3)] == ["0 cards", "1 card", "3 cards"]
    assert "assign 1 more Delegate face down" in assign_words("down", 1)
    assert "assign 2 more Delegates face up" in assign_words("up", 2)
    assert problems(assign_words("last", 1)) == []
