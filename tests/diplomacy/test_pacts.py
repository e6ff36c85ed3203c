"""`/diplomacy pact` and `/diplomacy pacts` in the service: a pact is proposed to seated
players, active once every party confirms, declined by any one of them, renounced by a
party, and ended with a private reminder when the table passes its `until`, read in each
game's words. Private to its parties during the game (no export carries it), in the record
and the published history after the end."""

from __future__ import annotations

import json

import pytest

from bot.discord.markup import markup
from bot.service.errors import TableError
from bot.service.pacts import PACT_CHARS, parse_until
from bot.store.records import Record, replay
from engine import games
from tests.render.lint import lint

from .conftest import ANNA, BORIS, CARL, CHANNEL, member, started


def _to(out, user: int) -> list[str]:
    return [p.text for p in out.posts if p.to == "seat" and p.user_id == user]


async def _pact(service, text: str = "No attack on Ruritania", until: str | None = None, *with_: int) -> None:
    await service.diplomacy.pact(CHANNEL, ANNA, text=text, parties=[member(u) for u in with_ or (BORIS,)], until=until)


async def test_a_pact_is_asked_of_each_party_privately_and_active_once_all_confirmed(service):
    await started(service, "crisis1914", ANNA, BORIS, CARL)
    out = await service.diplomacy.pact(
        CHANNEL, ANNA, text="No *attack* on Ruritania", parties=[member(BORIS), member(CARL)]
    )
    assert not out.public()  # nothing in the channel
    for user in (BORIS, CARL):
        (asked,) = _to(out, user)
        assert "proposes a pact" in asked and "No \\*attack\\* on Ruritania" in asked  # escaped
        assert "/diplomacy pact confirm:1" in asked and "private to their parties until the game ends" in asked
    fallbacks = [markup(p.public) for p in out.posts if p.to == "seat"]  # DMs closed: who proposed is not said
    assert fallbacks == [f"<@{u}>, a private line about this game waits for you; /diplomacy pacts here shows it." for u in (BORIS, CARL)]
    assert "Pacts are private to their parties until the game ends" in out.reply

    out = await service.diplomacy.pact(CHANNEL, BORIS, confirm=1)
    assert "(proposed)" in out.reply and _to(out, ANNA) and _to(out, CARL)
    out = await service.diplomacy.pact(CHANNEL, CARL, confirm=1)
    assert "(active)" in out.reply
    assert all("it is active now" in text for u in (ANNA, BORIS) for text in _to(out, u))
    assert "Pact 1** (active)" in await service.diplomacy.pacts(CHANNEL, BORIS)
    texts = [*(p.text for p in out.posts), out.reply, await service.diplomacy.pacts(CHANNEL, BORIS)]
    assert not lint(texts, "pacts")


async def test_one_decline_declines_it_and_a_renounced_pact_tells_the_others(service):
    await started(service, "crisis1914", ANNA, BORIS, CARL)
    await _pact(service, "First", None, BORIS, CARL)
    out = await service.diplomacy.pact(CHANNEL, CARL, decline=1)
    assert "declined" in out.reply and any("declined pact 1" in t for t in _to(out, ANNA))
    with pytest.raises(TableError, match="declined; there is nothing to answer"):
        await service.diplomacy.pact(CHANNEL, BORIS, confirm=1)

    await _pact(service, "Second")
    with pytest.raises(TableError, match="Only an active pact can be renounced"):
        await service.diplomacy.pact(CHANNEL, ANNA, renounce=2)
    await service.diplomacy.pact(CHANNEL, BORIS, confirm=2)
    out = await service.diplomacy.pact(CHANNEL, BORIS, renounce=2)
    assert any("renounced your pact" in t for t in _to(out, ANNA))
    listed = await service.diplomacy.pacts(CHANNEL, ANNA)
    assert "Pact 1** (declined)" in listed and "Pact 2** (renounced)" in listed


async def test_refusals_are_in_words(service):
    await started(service, "crisis1914", ANNA, BORIS, CARL)
    cases = [
        ({"text": "x", "parties": [member(ANNA)]}, "cannot make a pact with yourself"),
        ({"text": "x", "parties": [(4, "dora")]}, "dora is not seated"),
        ({"text": "x", "parties": []}, "Name at least one other seated player"),
        ({"text": "  ", "parties": [member(BORIS)]}, "Write what the pact says"),
        ({"text": "x" * (PACT_CHARS + 1), "parties": [member(BORIS)]}, f"at most {PACT_CHARS} characters"),
        ({"text": "x", "parties": [member(BORIS)], "confirm": 1}, "one thing at a time"),
        ({"text": "x", "parties": [member(BORIS)], "until": "turn 3"}, "'turn 3' is not a Week of this game"),
        ({"text": "x", "parties": [member(BORIS)], "until": "Week 9"}, "no Week 9: its last is Week 6"),
    ]
    for options, words in cases:
        with pytest.raises(TableError, match=words):
            await service.diplomacy.pact(CHANNEL, ANNA, **options)
    with pytest.raises(TableError, match="party to no pact 7"):
        await service.diplomacy.pact(CHANNEL, BORIS, confirm=7)
    await _pact(service)
    with pytest.raises(TableError, match="party to no pact 1"):  # not a party
        await service.diplomacy.pact(CHANNEL, CARL, confirm=1)
    with pytest.raises(TableError, match="already confirmed"):
        await service.diplomacy.pact(CHANNEL, ANNA, confirm=1)


def test_until_is_read_in_each_games_words():
    def period(game_id: str, players: int):
        g = games.get(game_id)
        return g.period(g.setup([f"s{i}" for i in range(1, players + 1)], g.Options(), 3))

    crisis, origins, schonbrunn = period("crisis1914", 2), period("origins", 3), period("schonbrunn", 3)
    assert [parse_until(crisis, t) for t in ("Week 3", "week 2", "4")] == [3, 2, 4]
    assert [parse_until(origins, t) for t in ("turn 4", "Round 5", "January 1914")] == [4, 5, 4]
    assert origins.label(4) == "Turn 4 (January 1914)"
    assert parse_until(schonbrunn, "Round 2") == 2
    with pytest.raises(TableError, match="no Round 5: its last is Round 4"):
        parse_until(schonbrunn, "round 5")
    with pytest.raises(TableError, match="not a Round of this game"):
        parse_until(schonbrunn, "Week 2")


async def test_a_pact_expires_when_the_table_passes_its_until_and_its_parties_are_reminded(service):
    await started(service, "crisis1914", ANNA, BORIS, CARL)
    await _pact(service, "Quiet on the Danube", "Week 1", BORIS)
    await service.diplomacy.pact(CHANNEL, BORIS, confirm=1)
    reminders = []
    while (await service.load(CHANNEL)).state.week == 1:
        out = await service.auto(CHANNEL)
        texts = [(p.user_id, markup(p.text)) for p in out.posts]
        reminders += [(user, text) for user, text in texts if "expired at the end of Week 1" in text]
    assert sorted(u for u, _ in reminders) == [ANNA, BORIS]  # the parties only, once each
    assert all("Quiet on the Danube" in text for _, text in reminders)
    assert "(expired)" in await service.diplomacy.pacts(CHANNEL, ANNA)


async def test_pacts_are_in_no_export_during_the_game_and_in_the_record_after_it(service):
    await started(service, "crisis1914", ANNA, BORIS)
    await _pact(service, "Ruritania stays neutral")
    await service.diplomacy.pact(CHANNEL, BORIS, confirm=1)
    assert "Ruritania" not in json.dumps(await service.history.export(CHANNEL))
    assert "Ruritania" not in await service.history.log(CHANNEL)
    while await service.auto(CHANNEL) is not None:
        pass
    record = await service.history.export(CHANNEL)
    assert replay(games.get("crisis1914"), Record.model_validate(record)).ok  # the record still replays
    (pact,) = record["diplomacy"]["pacts"]
    assert pact["text"] == "Ruritania stays neutral" and pact["status"] == "active" and pact["number"] == 1
    published = "\n".join(p.text for p in (await service.history.publish(CHANNEL, ANNA)).posts)
    assert "**Pact 1** (active) between anna" in published and "Ruritania stays neutral" in published
    with pytest.raises(TableError, match="over"):
        await _pact(service, "Too late")


async def test_the_replay_page_lists_every_showing_and_pact_after_the_end(service):
    await started(service, "crisis1914", ANNA, BORIS)
    card = (await service.diplomacy.showable(CHANNEL, ANNA))[0].name
    await service.diplomacy.show(CHANNEL, ANNA, card, [member(BORIS)])
    await _pact(service, "Ruritania <stays> neutral", "Week 2")
    with pytest.raises(TableError, match="when the game ends"):
        await service.history.export_html(CHANNEL)
    while await service.auto(CHANNEL) is not None:
        pass
    page = (await service.history.export_html(CHANNEL)).decode()
    section = page[page.index('<section id="diplomacy"') :]
    assert f"shown by anna (Berchtold (Austria-Hungary)), checked by the referee (Week 1): anna holds {card}" in section
    assert "To Sazonov (Russia):" in section
    assert "Pact 1</b> (proposed), between anna and boris" in section
    assert "Ruritania &lt;stays&gt; neutral" in section and "until the end of Week 2" in section
