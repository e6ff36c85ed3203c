"""/diplomacy end to end with SimCord: the real bot, a real table of Crisis: 1914. A shown
card and a pact reach exactly the players they should (by DM), the channel learns only that
something was shown, every refusal is private and in words, a proposed pact's Confirm
button works from the DM, and after the end the published history names every showing and
pact."""

from __future__ import annotations

import pytest

from bot.discord import create_bot
from bot.service.tables import TableService
from tests.discord.conftest import BotConfig
from tests.discord.reading import shown

pytestmark = pytest.mark.simcord

CHANNEL_NAME = "crisis"


class Table:
    """A guild channel with members, and what each of them can read."""

    def __init__(self, env, *names: str) -> None:
        self.env = env
        self.guild = env.create_guild()
        self.channel = self.guild.create_text_channel(CHANNEL_NAME)
        self.players = {n: self.guild.add_member(env.create_user(n)) for n in names}

    def __getitem__(self, name: str):
        return self.players[name]

    def dms(self, name: str) -> list[str]:
        dm = self[name].user.dm_channel
        return [m.content for m in dm.history()] if dm is not None else []

    def public_text(self) -> str:
        texts = [shown(m) for m in self.channel.history()]
        for thread in self.channel.threads:
            texts += [shown(m) for m in thread.history()]
        return "\n".join(texts)


async def _crisis(env, *names: str, seated: int = 2) -> Table:
    table = Table(env, *names)
    opened = await table[names[0]].slash(table.channel, "game new", game="crisis1914")
    assert opened.ephemeral, opened.response.content
    for name in names[1:seated]:
        joined = await table[name].slash(table.channel, "game join")
        assert joined.ephemeral, joined.response.content
    started = await table[names[0]].slash(table.channel, "game start")
    assert started.response.content.startswith("The game has started"), started.response.content
    return table


async def _hand(env, table: Table, name: str) -> list[str]:
    offered = await table[name].autocomplete(table.channel, "diplomacy show", "item", "")
    return [c["value"] for c in offered]


async def test_a_shown_card_reaches_only_the_player_named_and_the_channel_learns_only_that(env, service):
    table = await _crisis(env, "anna", "boris", "carl", seated=3)
    hand = await _hand(env, table, "anna")
    assert len(hand) >= 3  # the autocomplete offers the caller's own Hand (3 cards, more after a Caution)
    assert set(hand).isdisjoint(await _hand(env, table, "boris"))
    card = hand[0]
    before = {n: len(table.dms(n)) for n in ("anna", "boris", "carl")}

    result = await table["anna"].slash(table.channel, "diplomacy show", item=card, to=table["boris"])
    assert result.ephemeral and card in result.response.content, result.response.content
    await env.advance_time(5)
    boris_new = table.dms("boris")[before["boris"]:]
    assert any(card in text and "checked by the referee" in text for text in boris_new), boris_new
    assert not any(card in text for text in table.dms("carl")[before["carl"]:])
    assert table.public_text().count("anna showed something to boris") == 1  # once, in the round summary
    assert f"**{card}**" not in table.public_text()


async def test_every_refusal_is_private_and_in_words(env, service):
    table = await _crisis(env, "anna", "boris", "dave")  # dave is not seated
    card = (await _hand(env, table, "anna"))[0]
    theirs = (await _hand(env, table, "boris"))[0]  # a card anna cannot hold (the seed is random here)
    cases = [
        ({"item": theirs, "to": table["boris"]}, f"You do not hold {theirs}: your Hand is"),
        ({"item": card, "to": table["anna"]}, "cannot show something to yourself"),
        ({"item": card, "to": table["dave"]}, "dave is not seated at this table"),
    ]
    for options, words in cases:
        refused = await table["anna"].slash(table.channel, "diplomacy show", **options)
        assert refused.ephemeral and words in refused.response.content, refused.response.content
    outsider = await table["dave"].slash(table.channel, "diplomacy show", item=card, to=table["boris"])
    assert outsider.ephemeral and "not seated" in outsider.response.content
    assert "showed something" not in table.public_text()


async def test_a_pact_is_confirmed_from_the_dm_button_and_stays_private_until_the_end(env, service):
    table = await _crisis(env, "anna", "boris", "carl", seated=3)
    options = {"text": "No attack on **Ruritania**", "with": table["boris"], "until": "Week 2"}
    proposed = await table["anna"].slash(table.channel, "diplomacy pact", **options)
    assert proposed.ephemeral and "Pacts are private to their parties" in proposed.response.content
    await env.advance_time(5)
    dm = table["boris"].user.dm_channel
    notice = next(m for m in reversed(dm.history()) if "proposes a pact" in m.content)
    assert "No attack on \\*\\*Ruritania\\*\\*" in notice.content  # the member's text, escaped
    assert not any("Ruritania" in text for text in table.dms("carl"))
    assert "Ruritania" not in table.public_text()

    clicked = await table["boris"].user.click(notice, label="Confirm")
    assert clicked.ephemeral and "(active)" in clicked.response.content, clicked.response.content
    listed = await table["carl"].slash(table.channel, "diplomacy pacts")
    assert "no pact" in listed.response.content
    listed = await table["anna"].slash(table.channel, "diplomacy pacts")
    assert "Pact 1** (active)" in listed.response.content

    renounced = await table["boris"].slash(table.channel, "diplomacy pact", renounce=1)
    assert renounced.ephemeral and "renounced" in renounced.response.content
    await env.advance_time(5)
    assert any("renounced your pact" in text for text in table.dms("anna"))
    assert "Ruritania" not in table.public_text()

    card = (await _hand(env, table, "carl"))[0]
    await table["carl"].slash(table.channel, "diplomacy show", item=card, to=table["anna"])
    assert f"**{card}**" not in table.public_text()

    while await service.auto(table.channel.id) is not None:  # on to the end
        pass
    late = await table["anna"].slash(table.channel, "diplomacy pact", text="Too late", **{"with": table["carl"]})
    assert late.ephemeral and "over" in late.response.content
    assert await _hand(env, table, "carl") == []
    published = await table["anna"].slash(table.channel, "game publish")
    assert published.ephemeral, published.response.content
    await env.advance_time(5)
    public = table.public_text()
    assert "Ruritania" in public and "Pact 1" in public  # after the end, the pacts are in the record
    assert any("shown by carl" in line and card in line for line in public.splitlines())  # and every showing


async def test_pacts_work_from_a_talk_thread_and_their_refusals_are_private(env, service):
    table = await _crisis(env, "anna", "boris", "carl", "dave", seated=3)  # dave is not seated
    opened = await table["anna"].slash(table.channel, "game talk", player1=table["boris"])
    assert opened.ephemeral, opened.response.content
    (thread,) = [t for t in table.channel.threads if t.name.startswith("Talk")]
    cases = [
        ({"text": "x", "with": table["anna"]}, "cannot make a pact with yourself"),
        ({"text": "x", "with": table["dave"]}, "dave is not seated at this table"),
        ({"text": "x", "with": table["boris"], "until": "turn 2"}, "not a Week of this game"),
        ({"text": "x", "with": table["boris"], "renounce": 1}, "one thing at a time"),
        ({"renounce": 3}, "party to no pact 3"),
    ]
    for options, words in cases:
        refused = await table["anna"].slash(thread, "diplomacy pact", **options)
        assert refused.ephemeral and words in refused.response.content, (options, refused.response.content)
    proposed = await table["anna"].slash(thread, "diplomacy pact", text="Share the Balkans", **{"with": table["boris"]})
    assert proposed.ephemeral and "Pact 1" in proposed.response.content, proposed.response.content
    declined = await table["boris"].slash(thread, "diplomacy pact", decline=1)
    assert declined.ephemeral and "(declined)" in declined.response.content
    await env.advance_time(5)
    assert any("declined pact 1" in text for text in table.dms("anna"))
    assert not any("Balkans" in text for text in table.dms("carl"))
    assert "Balkans" not in table.public_text()


async def test_a_pacts_confirm_button_still_answers_after_a_restart(env, service, store, clock):
    table = await _crisis(env, "anna", "boris")
    proposed = await table["anna"].slash(table.channel, "diplomacy pact", text="Quiet in the Balkans", **{"with": table["boris"]})
    assert proposed.ephemeral, proposed.response.content
    await env.advance_time(5)
    notice = next(m for m in reversed(table["boris"].user.dm_channel.history()) if "proposes a pact" in m.content)

    fresh = TableService(store, clock=clock, draw_pictures=False)  # nothing in memory survives
    await env.restart_bot(create_bot(BotConfig(), fresh))
    clicked = await table["boris"].user.click(notice, label="Confirm")
    assert clicked.ephemeral and "(active)" in clicked.response.content, clicked.response.content
    assert "Pact 1** (active)" in await fresh.diplomacy.pacts(table.channel.id, table["anna"].id)
