"""`/diplomacy show` in the service: a hidden thing shown with the referee's word reaches
exactly the players named, the channel learns only that something was shown, every
refusal is in words and private, and after the end the record and the published history
list every showing (before it, no export carries one)."""

from __future__ import annotations

import json
import unicodedata

import pytest

from bot.discord.markup import markup
from bot.service.errors import TableError
from tests.render.lint import lint

from .conftest import ANNA, BORIS, CARL, CHANNEL, member, started


def fold_plain(name: str) -> str:
    """A name typed without its accents, as a keyboard without them types it."""
    return unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode()


async def _hand(service, user: int) -> list[str]:
    return [s.name for s in await service.diplomacy.showable(CHANNEL, user)]


async def _play_to_the_end(service) -> None:
    while await service.auto(CHANNEL) is not None:
        pass
    assert (await service.table_info(CHANNEL)).status == "finished"


async def test_a_shown_card_reaches_only_the_players_named_and_the_channel_learns_only_that(service):
    await started(service, "crisis1914", ANNA, BORIS, CARL)
    card = (await _hand(service, ANNA))[0]
    out = await service.diplomacy.show(CHANNEL, ANNA, card.lower(), [member(BORIS)])

    private = [p for p in out.posts if p.to == "seat"]
    assert [p.user_id for p in private] == [BORIS]
    assert card in private[0].text and "checked by the referee" in private[0].text
    assert "as it stood when shown" in private[0].text
    # with DMs closed, the channel's mention names no card; /diplomacy pacts keeps what was shown
    assert markup(private[0].public) == f"<@{BORIS}>, anna showed you something privately; /diplomacy pacts here shows it."
    assert card in (await service.diplomacy.pacts(CHANNEL, BORIS)).split("Shown to you")[1]
    assert "Shown to you" not in await service.diplomacy.pacts(CHANNEL, CARL)
    public = [p.text for p in out.posts if p.to != "seat"]
    assert public == ["anna showed something to boris."]
    assert card in out.reply and "Nobody else" in out.reply  # the shower's own answer

    assert not lint([*(p.text for p in out.posts), out.reply], "showing")
    log = await service.history.log(CHANNEL)
    assert "anna showed something to boris." in log and card not in log.split("log, page")[1]
    record = json.dumps(await service.history.export(CHANNEL))  # the public record, mid-game
    assert "showed something" in record and f"**{card}**" not in record


async def test_showing_to_several_players_tells_each_of_them(service):
    await started(service, "crisis1914", ANNA, BORIS, CARL)
    card = (await _hand(service, BORIS))[0]
    out = await service.diplomacy.show(CHANNEL, BORIS, card, [member(ANNA), member(CARL)])
    assert sorted(p.user_id for p in out.posts if p.to == "seat") == [ANNA, CARL]
    assert [p.text for p in out.posts if p.to == "channel"] == ["boris showed something to anna and carl."]


async def test_a_card_not_in_hand_is_refused_naming_the_hand_with_did_you_mean(service):
    await started(service, "crisis1914", ANNA, BORIS)
    hand = await _hand(service, ANNA)
    with pytest.raises(TableError) as refused:
        await service.diplomacy.show(CHANNEL, ANNA, "Hoyos", [member(BORIS)])
    assert str(refused.value).startswith("You do not hold Hoyos: your Hand is ")
    assert all(name in str(refused.value) for name in hand)
    accented = next((c for c in hand if c != fold_plain(c)), None)
    if accented is not None:  # typed without its accents, it is still the card
        await service.diplomacy.show(CHANNEL, ANNA, fold_plain(accented), [member(BORIS)])
    with pytest.raises(TableError, match="Did you mean"):
        await service.diplomacy.show(CHANNEL, ANNA, hand[0][:-1], [member(BORIS)])


@pytest.mark.parametrize(
    ("to", "words"),
    [
        ([member(ANNA)], "cannot show something to yourself"),
        ([member(CARL)], "carl is not seated at this table"),
        ([], "Name at least one other seated player"),
    ],
)
async def test_showing_to_oneself_nobody_or_someone_not_seated_is_refused(service, to, words):
    await started(service, "crisis1914", ANNA, BORIS)
    card = (await _hand(service, ANNA))[0]
    with pytest.raises(TableError, match=words):
        await service.diplomacy.show(CHANNEL, ANNA, card, to)


async def test_someone_not_seated_cannot_show_and_nothing_is_shown_before_the_start_or_after_the_end(service):
    await service.lobby.create(CHANNEL, 9, "crisis1914", ANNA, "anna")
    await service.lobby.join(CHANNEL, BORIS, "boris")
    with pytest.raises(TableError, match="has not started"):
        await service.diplomacy.show(CHANNEL, ANNA, "Conrad", [member(BORIS)])
    await service.lobby.start(CHANNEL, ANNA, seed=5)
    with pytest.raises(TableError, match="not seated"):
        await service.diplomacy.show(CHANNEL, CARL, "Conrad", [member(BORIS)])
    await _play_to_the_end(service)
    with pytest.raises(TableError, match="over"):
        await service.diplomacy.show(CHANNEL, ANNA, "Conrad", [member(BORIS)])
    assert await service.diplomacy.showable(CHANNEL, ANNA) == []


async def test_after_the_end_the_record_and_the_published_history_list_every_showing(service):
    await started(service, "crisis1914", ANNA, BORIS)
    card = (await _hand(service, ANNA))[0]
    await service.diplomacy.show(CHANNEL, ANNA, card, [member(BORIS)])
    await _play_to_the_end(service)

    record = await service.history.export(CHANNEL)
    shown = record["diplomacy"]["showings"]
    assert len(shown) == 1 and shown[0]["to"] == ["Sazonov (Russia)"] and card in shown[0]["text"]
    published = "\n".join(p.text for p in (await service.history.publish(CHANNEL, ANNA)).posts)
    assert "[to Sazonov (Russia)] **Crisis: 1914**: shown by anna" in published and card in published


async def test_schonbrunn_face_down_delegates_are_refused_while_the_table_hides_them_from_their_owner(service):
    await started(service, "schonbrunn", ANNA, BORIS, CARL)

    def refused(t) -> list[tuple[int, str]]:
        """(owner, item) of every thing a seat holds but the rules keep hidden even from it."""
        return [(s.user_id, x.name) for s in t.seats for x in t.game.showable(t.state, s.seat) if x.refused]

    for _ in range(200):  # on to the first face-down Delegates on the Objectives
        hidden = refused(await service.load(CHANNEL))
        if hidden:
            break
        assert await service.auto(CHANNEL) is not None
    owner, name = hidden[0]
    other = member(next(u for u in (ANNA, BORIS, CARL) if u != owner))
    with pytest.raises(TableError, match="not even by the player who played them"):
        await service.diplomacy.show(CHANNEL, owner, name, [other])
    assert name not in [s.name for s in await service.diplomacy.showable(CHANNEL, owner)]
    # what is behind the screen may be shown: the Receptions
    out = await service.diplomacy.show(CHANNEL, owner, "receptions", [other])
    assert "Reception" in next(p.text for p in out.posts if p.to == "seat")
