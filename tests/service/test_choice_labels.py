"""Turn buttons hold at most 80 characters (Discord's limit). Two legal actions whose words
differ only after that, such as two ways to Seize the Initiative in Crisis: 1914 naming
three long cards each, must still read differently on the player's buttons."""

from __future__ import annotations

import itertools

from bot.render import button_labels
from bot.service.tables import TableService
from engine.crisis1914 import GAME
from engine.crisis1914.content import load_content
from tests.crisis1914.helpers import cid

from .conftest import CHANNEL

SEIZE = "Seize the Initiative, discarding "
LONG_HAND = [
    "General Mobilization (Austria-Hungary)",
    "The Kaiser's Blank Cheque",
    "Assassination Investigations",
    "Summer Harvest Leave",
    "Ultimatum",
]
LONG_AH_CARDS = [  # out of Austria-Hungary's Hand and Draw Pile at the start of this game
    "The Kaiser's Blank Cheque",
    "Assassination Investigations",
    "Summer Harvest Leave",
    "No Romanian Support",
    "Straussenburg",
]


def _fine(labels: list[str]) -> None:
    assert all(0 < len(label) <= 80 for label in labels), [x for x in labels if len(x) > 80]
    assert len(set(labels)) == len(labels), labels


def test_buttons_that_differ_only_after_80_characters_read_differently():
    a = SEIZE + "Assassination Investigations, The Kaiser's Blank Cheque, Summer Harvest Leave"
    b = SEIZE + "Assassination Investigations, The Kaiser's Blank Cheque, Ultimatum"
    c = SEIZE + "Assassination Investigations, The Kaiser's Blank Cheque, Straussenburg"
    assert len(a) > 80 and len(b) > 80 and len(c) > 80 and a[:80] == b[:80] == c[:80]
    shown = button_labels(["Draw", a, b, c, "Pass"])
    _fine(shown)
    assert shown[0] == "Draw" and shown[4] == "Pass"  # the index order is kept
    for label in shown[1:4]:  # the verb stays whole; every card is still recognisable
        assert label.startswith(SEIZE), label
        assert "Ass" in label and "Kai" in label, label
    assert "Sum" in shown[1] and "Ult" in shown[2] and "Str" in shown[3]


def test_labels_that_fit_and_differ_are_shown_unchanged():
    labels = ["Draw", "Play Hartwig (3 DP)", "Play Hartwig (3 DP) with Belligerence", "x" * 80, "Pass"]
    assert button_labels(labels) == labels


def test_a_long_label_unlike_the_others_is_cut_after_a_word_with_an_ellipsis():
    long = SEIZE + "General Mobilization (Austria-Hungary), Assassination Investigations, Ultimatum"
    shown = button_labels(["Draw", long])
    _fine(shown)
    assert shown[1].endswith("…") and long.startswith(shown[1][:-1])
    assert long[len(shown[1]) - 1] in " ,", "cut inside a word"


def test_the_same_words_twice_get_a_number():
    long = "Discard " + ", ".join(LONG_HAND)
    shown = button_labels(["Pass", "Pass", long, long, long])
    _fine(shown)
    assert shown[:2] == ["Pass", "Pass (2)"]
    assert shown[3].endswith(" (2)") and shown[4].endswith(" (3)")
    assert shown[3][:-4] == shown[4][:-4] and shown[2].endswith("…")


def test_every_way_to_seize_from_a_hand_of_long_cards_reads_differently():
    hands = [[*LONG_HAND, "Tisza"], list(reversed(LONG_HAND))]
    for hand in hands:
        labels = [SEIZE + ", ".join(c) for c in itertools.combinations(hand, 3)]
        _fine(button_labels(labels))


async def test_a_crisis_player_holding_long_cards_sees_every_seize_button_different(service, store, clock):
    """A real table: Austria-Hungary at the top of the Initiative Track, on its turn, holding
    five cards with long names; its Seize the Initiative buttons name three of them each."""
    await service.lobby.create(CHANNEL, 9, "crisis1914", 1, "anna")
    for uid, name in ((2, "boris"), (3, "clara")):
        await service.lobby.join(CHANNEL, uid, name)
    await service.lobby.start(CHANNEL, 1, seed=1914)
    row = await store.get_table(CHANNEL)
    state = GAME.load_state(row.state)
    seat = GAME.prompts(state)[0].seat
    ah = state.player_of(seat)
    assert ah.nation == "AH" and state.phase == "play", "the seed puts Austria-Hungary first"
    wanted = [cid(n) for n in LONG_AH_CARDS]
    assert set(wanted) <= set(ah.hand + ah.draw)
    ah.draw = [c for c in ah.hand + ah.draw if c not in wanted]
    ah.hand = wanted
    row.state = state.model_dump_json()
    await store.save(row, row.version, columns=["state"])

    user = next(s.user_id for s in await store.get_seats(CHANNEL) if s.seat == seat)
    step, choices = await TableService(store, clock=clock).choices(CHANNEL, user)
    legal = GAME.legal_actions(state, seat)
    assert step == state.step and [i for i, _, _ in choices] == list(range(len(legal)))
    full = [GAME.action_label(state, seat, x) for x in legal]
    seize = [i for i, x in enumerate(legal) if x.kind == "seize"]
    assert len({full[i][:80] for i in seize}) < len(seize), "some Seize labels agree in 80 characters"

    shown = [label for _, label, _ in choices]
    _fine(shown)
    cards = load_content().cards
    for i in seize:  # each button still names its cards, by at least a word's first letters
        assert shown[i].startswith("Seize "), shown[i]
        if not shown[i].endswith("…"):
            for c in legal[i].discards:
                assert any(w[:3] in shown[i] for w in cards[c].name.split()), (shown[i], cards[c].name)
    for i, label in enumerate(full):  # the short ones are the game's own words
        if len(label) <= 80:
            assert shown[i] == label
