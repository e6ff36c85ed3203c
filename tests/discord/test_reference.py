"""Every piece of content a player may need is readable through Discord.

Most of the content is reconstructed, so no printed card exists for a group to look at:
`/game card name:` must reach every card, objective, ability, head, Treaty, Reparation,
Ally and table entry, privately, with where it comes from.
"""

from __future__ import annotations

from typing import Any

import pytest

from bot.discord import create_bot
from engine import games

from .conftest import BotConfig

pytestmark = pytest.mark.simcord

GAME_IDS = ["crisis1914", "origins", "schonbrunn"]


@pytest.fixture
def simcord_bot(service):
    """The bot over the real registry, not the tiny game alone."""
    return create_bot(BotConfig(), service)


def _text(result: Any) -> str:
    return "\n".join(m.content for m in [result.response, *result.followups])


@pytest.mark.parametrize("game_id", GAME_IDS)
async def test_every_content_entry_is_readable_by_a_player_with_game_card(env, game_id):
    game = games.get(game_id)
    guild = env.create_guild()
    channel = guild.create_text_channel(game_id)
    anna = guild.add_member(env.create_user("anna"))
    await anna.slash(channel, "game new", game=game_id)
    entries = game.entries()
    kinds = {e.kind for e in entries}
    assert len(entries) > 50 and len(kinds) >= 4, kinds
    for entry in entries:
        result = await anna.slash(channel, "game card", name=entry.name)
        answer = _text(result)
        assert result.ephemeral, answer
        assert entry.text in answer, (entry.name, answer)
        assert game.title in answer
        if entry.provenance.kind == "reconstructed":
            assert "Reconstructed" in answer and entry.provenance.note in answer
        else:
            assert entry.provenance.source in answer
        # what a player types finds it too: the name offered by autocomplete
        if entry is entries[0] or entry.kind != entries[0].kind:
            offered = await anna.autocomplete(channel, "game card", "name", entry.name.lower())
            assert entry.name in [c["value"] for c in offered], (entry.name, offered)


async def test_without_a_table_any_games_content_is_found_and_shared_names_show_both(env):
    guild = env.create_guild()
    channel = guild.create_text_channel("lounge")
    anna = guild.add_member(env.create_user("anna"))
    answer = _text(await anna.slash(channel, "game card", name="russia"))
    assert "Origins of World War I" in answer and "Schönbrunn" in answer
    # accents and case do not matter; a card of another game than the table's is asked by game:
    assert "Ambassador in St. Petersburg" in _text(await anna.slash(channel, "game card", name="szapary"))
    await anna.slash(channel, "game new", game="origins")
    refused = _text(await anna.slash(channel, "game card", name="Szapáry"))
    assert "Nothing in Origins of World War I is called" in refused
    found = _text(await anna.slash(channel, "game card", name="Szapáry", game="crisis1914"))
    assert "Diplomatic Back-Channel" in found


async def test_a_name_that_fits_several_entries_is_refused_with_the_names(env):
    guild = env.create_guild()
    channel = guild.create_text_channel("lounge")
    anna = guild.add_member(env.create_user("anna"))
    await anna.slash(channel, "game new", game="schonbrunn")
    answer = _text(await anna.slash(channel, "game card", name="treaty of"))
    assert answer.startswith("Several entries of Schönbrunn match") and "Treaty of Kalisz" in answer


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_entry_names_are_unique_and_fit_an_autocomplete_value(game_id):
    entries = games.get(game_id).entries()
    names = [e.name.casefold() for e in entries]
    assert len(names) == len(set(names))
    assert all(0 < len(e.name) <= 100 and e.text.strip() for e in entries)


async def test_table_options_are_offered_explained_and_checked(env):
    """/game new offers each game's options with their descriptions, a
    mistyped option is refused with the valid ones, /game rules lists them with sections."""
    guild = env.create_guild()
    channel = guild.create_text_channel("options")
    anna = guild.add_member(env.create_user("anna"))
    offered = await anna.autocomplete(channel, "game new", "options", "", game="schonbrunn")
    values = [c["value"] for c in offered]
    assert "simplified=yes" in values and "auction=yes" in values and "see_own_face_down=yes" in values
    assert any("Auction for the Nations" in c["name"] for c in offered)
    more = await anna.autocomplete(channel, "game new", "options", "simplified=yes a", game="schonbrunn")
    assert [c["value"] for c in more] == ["simplified=yes auction=yes", "simplified=yes auction=no"]
    refused = _text(await anna.slash(channel, "game new", game="crisis1914", options="rounds=2"))
    assert refused.startswith("Crisis: 1914 has no option “rounds”. Its options: congress=yes|no")
    refused = _text(await anna.slash(channel, "game new", game="crisis1914", options="congress=maybe"))
    assert refused == "congress takes yes or no, not “maybe”."
    rules = _text(await anna.slash(channel, "game rules", game="origins"))
    assert "• margin_rule=yes or no, default no:" in rules and "§9 Determining the winner" in rules
    await anna.slash(channel, "game new", game="crisis1914", options="Congress=No")
    assert (await env.bot.service.store.get_table(channel.id)).options == {"congress": False, "choose_nations": False}


async def test_help_tells_how_a_table_and_each_games_turn_go(env):
    guild = env.create_guild()
    channel = guild.create_text_channel("help")
    anna = guild.add_member(env.create_user("anna"))
    general = _text(await anna.slash(channel, "game help"))
    assert general.startswith("**How a table works here**") and "`/game new game:crisis1914`" in general
    await anna.slash(channel, "game new", game="origins")
    here = _text(await anna.slash(channel, "game help"))  # the table's game
    assert "Phase 4, secret sheets" in here and "`/origins submit`: " in here
    other = _text(await anna.slash(channel, "game help", game="schonbrunn"))
    assert "Phase 3, Plot" in other


@pytest.mark.parametrize(
    ("game_id", "players", "expected"),
    [
        (
            "crisis1914",
            2,
            [
                "Score Track",
                "0-17 DP none, 18-21 DP +1",
                "Your lowest Score marker is on",
                "**Prestige table**",
            ],
        ),
        (
            "origins",
            3,
            ["**National Objectives**", "(yours)", "Far East 2 (5 exclusive)", "1:1: AE 28%, EX 56%, DE 17%"],
        ),
        (
            "schonbrunn",
            3,
            [
                "**Plot**: Receptions spent",
                "**Master of Ceremonies**:",
                "**Delegation Heads**",
                "**Objective piles**",
            ],
        ),
    ],
)
async def test_the_player_aid_of_each_game_with_the_tables_own_figures(env, game_id, players, expected):
    """/game help aid:True hands each player the game's aid, with what it says at
    this table now (public facts and the reader's own)."""
    guild = env.create_guild()
    channel = guild.create_text_channel(game_id)
    members = [guild.add_member(env.create_user(f"p{i}")) for i in range(players)]
    before = _text(await members[0].slash(channel, "game help", game=game_id, aid=True))
    assert before.startswith(f"**{games.get(game_id).title}, player aid**")
    await members[0].slash(channel, "game new", game=game_id)
    for m in members[1:]:
        await m.slash(channel, "game join")
    await members[0].slash(channel, "game start")
    result = await members[1].slash(channel, "game help", aid=True)
    answer = _text(result)
    assert result.ephemeral
    for text in expected:
        assert text in answer, (text, answer)


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_the_player_aid_shows_nothing_hidden(game_id):
    """The aid at a table reads public facts and the reader's own only: another state that
    differs in what the reader cannot see gives the same aid, at every step of a game."""
    import random

    game = games.get(game_id)
    rng = random.Random(5)
    seats = [f"s{i}" for i in range(1, max(game.min_players, 3) + 1)]
    state = game.setup(seats, game.Options(), 12)
    for step in range(120):
        prompts = game.prompts(state)
        if not prompts:
            break
        if step % 10 == 0:
            for seat in [None, *seats]:
                varied = game.vary_hidden(state, seat, random.Random(step))
                assert game.aid(state, seat) == game.aid(varied, seat), (step, seat)
        seat = prompts[0].seat
        state, _ = game.apply(state, seat, game.bot_action(state, seat, rng))
