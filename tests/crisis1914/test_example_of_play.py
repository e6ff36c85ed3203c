"""The rulebook's two Examples of Play, action by action."""

from __future__ import annotations

from engine.crisis1914.actions import (
    Deliberate,
    Draw,
    Pass,
    Play,
    Reorder,
    Reorganize,
    Resolve,
    Seize,
)

from .helpers import Stacked, act, cid, names, week_start


def test_example_of_play_2_players_week_1():
    """Example of Play - 2 Players, Week 1: "The game continues (with Sergei winning 5 Prestige
    points to Leopold's 2, and them sitting on 2 and 3 Tension respectively)."

    Hands and Draw Piles are set to the cards the example turns over, in its order.
    """
    state, _ = week_start(
        2,
        hands={
            "AH": ["No Romanian Support", "Szőgyény", "Hoyos"],
            "RU": ["Basili", "Goremykin", "Hartwig"],
        },
        draws={
            "AH": [
                "Conrad",
                "Potiorek",
                "Mensdorff",
                "Czernin",  # drawn by Deliberate
                "Archduke Friedrich",
                "Assassination Investigations",
                "The Kaiser's Blank Cheque",  # reorganized
                "Bilinski",
                "Giesl",
                "Stürgkh",
            ],
            "RU": [
                "Freedericksz",
                "The Czar",
                "Krivoshein",
                "Bark",
                "Maklakov",  # seen by Reorganize
                "Benckendorff",
                "Sergei Witte",
                "Shebeko",
            ],
        },
    )
    ah, ru = state.players["AH"], state.players["RU"]
    # First Draw Step: Conrad 4 DP; Freedericksz 0 DP, Caution: the top card goes to Hand.
    # No choice is owed: Freedericksz's "or" (take an Assertion back) needs an Assertion on
    # Sergei's Tableau, and he has none (docs/rulings.md, Crisis: 1914, ruling 34)
    assert not state.pending
    assert (ah.score, ru.score) == (4, 0)
    assert names(ru.hand) == ["Basili", "Goremykin", "Hartwig", "The Czar"]

    # Round One: Leopold Deliberates (No Romanian Support to Recycled), plays Potiorek.
    act(state, "AH", Deliberate(discard=cid("No Romanian Support")))
    act(state, "AH", Resolve(card=cid("Potiorek")))
    assert ah.score == 8 and names(ah.recycled) == ["No Romanian Support"]
    assert state.will_bottom == ["AH"] and ah.deliberated
    act(state, "RU", Reorganize(discard=cid("Basili")))
    act(state, "RU", Reorder(order=[cid("Krivoshein"), cid("Bark"), cid("Maklakov")]))
    assert state.current == ["RU", "AH"]  # Leopold moved to the bottom: Sergei goes first

    # Round Two
    act(state, "RU", Draw())
    act(state, "RU", Resolve())
    assert ru.score == 4
    act(state, "AH", Reorganize(discard=cid("Szőgyény")))
    act(
        state,
        "AH",
        Reorder(
            order=[
                cid("Assassination Investigations"),
                cid("Archduke Friedrich"),
                cid("The Kaiser's Blank Cheque"),
            ]
        ),
    )
    assert names(ah.recycled) == ["No Romanian Support", "Szőgyény"]

    # Round Three: Bark (Consensus); Assassination Investigations 2 DP, marker to 3.
    act(state, "RU", Draw())
    act(state, "RU", Resolve())
    act(state, "AH", Draw())
    act(state, "AH", Resolve())
    assert (ru.score, ah.score) == (6, 10)
    assert ah.counters["investigations"] == 3

    # Round Four: Sergei Reorganizes again; Leopold plays Mensdorff and draws a card.
    act(state, "RU", Reorganize(discard=cid("Goremykin")))
    act(state, "RU", Reorder(order=[cid("Maklakov"), cid("Benckendorff"), cid("Sergei Witte")]))
    act(state, "AH", Play(card=cid("Mensdorff")))
    assert ah.score == 10 and cid("Archduke Friedrich") in ah.hand

    # Round Five: Maklakov (second Consensus: 9 cards allowed); the Blank Cheque as Belligerence.
    act(state, "RU", Draw())
    act(state, "RU", Resolve())
    assert ru.score == 8 and len(ru.hand) == 2
    act(state, "AH", Draw())
    act(state, "AH", Resolve(belligerence=True))
    assert ah.score == 18 and ah.belligerence == 1 and state.tension["AH"]["RU"] == 1

    # Round Six: Benckendorff with its Back-Channel: 12 & 13. Bilinski: 22.
    act(state, "RU", Draw())
    act(state, "RU", Resolve())
    assert (ru.score, ru.second) == (12, 13)
    act(state, "AH", Draw())
    act(state, "AH", Resolve())
    assert ah.score == 22

    # Round Seven: Witte finds no Tension to reduce; Leopold Seizes the Initiative.
    act(state, "RU", Draw())
    act(state, "RU", Resolve())
    assert state.tension["RU"]["AH"] == 0
    act(state, "AH", Seize(discards=list(ah.hand)))
    assert ah.hand == [] and state.current == ["AH", "RU"]

    # Round Eight: Giesl, 0 DP in Week 1 (3 Assertions); Shebeko: 16 & 18.
    act(state, "AH", Draw())
    act(state, "AH", Resolve())
    assert ah.score == 22
    assert (
        sum(
            1
            for t in ah.tableau
            if t.card in {cid("Potiorek"), cid("The Kaiser's Blank Cheque"), cid("Giesl")}
        )
        == 3
    )
    act(state, "RU", Draw())
    act(state, "RU", Resolve())
    assert (ru.score, ru.second) == (16, 18)

    # Round Nine: Stürgkh, 25: Leopold's 8th and last card. Hartwig with Belligerence: 24 & 26.
    act(state, "AH", Draw())
    act(state, "AH", Resolve())
    assert ah.score == 25 and ah.second is None
    act(state, "RU", Play(card=cid("Hartwig"), belligerence=True))
    assert (ru.score, ru.second) == (24, 26)
    assert not state.pending  # Leopold has no card to discard

    # Round Ten: Leopold must Pass; Sergei Passes.
    assert [
        type(x).__name__
        for x in __import__("engine.crisis1914", fromlist=["GAME"]).GAME.legal_actions(state, ah.seat)
    ] == ["Pass"]
    act(state, "AH", Pass())
    act(state, "RU", Pass())

    # Score Step: Sergei 3 + 1; Leopold (1 + 1 - 1) x 2; Tension 1+2 and 1+3.
    assert state.last_week["RU"]["prestige"] == 4 and state.last_week["AH"]["prestige"] == 2
    assert state.tension["RU"]["AH"] == 3 and state.tension["AH"]["RU"] == 4
    # Congress Step: Sergei, last on the Initiative Track, invites; Leopold attends.
    assert state.phase == "congress_invite" and state.congress_inviter == "RU"
    act(state, "RU", {"kind": "congress", "yes": True})
    act(state, "AH", {"kind": "congress", "yes": True})
    assert (ru.prestige, ah.prestige) == (5, 2)
    assert (state.tension["RU"]["AH"], state.tension["AH"]["RU"]) == (2, 3)

    # Refresh Step: the Blank Cheque and Hartwig are Permanent; The Czar goes back from the Hand.
    # Sergei's only card went back and Leopold holds none: nobody has a discard to choose
    # (docs/rulings.md, Crisis 28), so the Refresh Step is over at once.
    assert cid("The Czar") in ru.draw and state.phase != "refresh"
    assert names(ah.permanent) == ["The Kaiser's Blank Cheque"]
    assert names(ru.permanent) == ["Hartwig"]
    assert cid("Conrad") in ah.recycled and cid("Shebeko") in ru.recycled
    assert state.week == 2 and len(ah.hand) == 3 and len(ru.hand) == 3
    assert ah.score + ru.score == sum(t.dp for t in ah.tableau) + sum(t.dp for t in ru.tableau)
    assert not ah.deliberated and not ah.passed


def test_example_of_play_solitaire_weeks_1_and_2_as_printed():
    """Example of Play - Solitaire, Weeks 1 and 2, with every printed number.

    The Emperor counts 0 DP (docs/rulings.md, Crisis: 1914, ruling 5): then Szapáry's
    Back-Channel puts the second marker "onto the 1 space" by the card rule ("+1 DP ahead of
    it"), Week 1 ends on 18 & 19 with 2 Prestige and 1 Tension from the 18 space, and Week 2
    ends on 19 & 21 with 5 Prestige and 2 Tension, as printed. Only the First Draw Step's
    "1 DP" is not reproduced.
    The example's Hand counts do not add up from 3 cards, so Week 1 starts from the one card
    that Tisza makes Berchtold discard; two unnamed cards start in the Recycled Discards so
    that the Draw Pile runs out in Week 2, Round Six, as printed.
    """
    rng = Stacked()
    state, _ = week_start(
        1,
        hands={"AH": ["Stürgkh"]},
        draws={
            "AH": [
                "The Emperor",
                "Szapáry",
                "Straussenburg",
                "Conrad",
                "Sukhomlinov",
                "The Kaiser's Blank Cheque",
                "Potiorek",
                "Tisza",
                "Giesl",
            ]
        },
        recycled={"AH": ["Szőgyény", "Krobatin"]},
        rng=rng,
    )
    ah = state.players["AH"]
    assert names(ah.set_aside) == ["Ultimatum", "General Mobilization (Austria-Hungary)"]
    assert ah.score == 0 and not state.pending  # First Draw: The Emperor, no choice to make
    expected = [(0, 1), (2, 3), (6, 7), (10, 11), (14, 15), (18, 19)]
    for markers in expected:
        act(state, "AH", Draw())
        act(state, "AH", Resolve())
        assert (ah.score, ah.second) == markers
    act(state, "AH", Draw())  # Round Seven: Tisza, discard 1 card from Hand
    act(state, "AH", Resolve())
    act(state, "AH", {"kind": "discard", "cards": [cid("Stürgkh")]})
    assert ah.hand == [] and cid("Stürgkh") in ah.recycled
    act(state, "AH", Draw())  # Round Eight: Giesl, 0 DP
    act(state, "AH", Resolve())
    assert (ah.score, ah.second) == (18, 19) and len(ah.tableau) == 9
    assert [
        type(x).__name__
        for x in __import__("engine.crisis1914", fromlist=["GAME"]).GAME.legal_actions(state, ah.seat)
    ] == ["Pass"]

    # the Refresh shuffle "happens" to deal Tisza, Assassination Investigations and Mensdorff
    rng.order = [
        cid(n)
        for n in [
            "Tisza",
            "Assassination Investigations",
            "Mensdorff",
            "Summer Harvest Leave",
            "Hoyos",
            "Bilinski",
            "No Romanian Support",
            "Forgách",
            "Archduke Friedrich",
            "Burian",
            "Czernin",
        ]
    ]
    act(state, "AH", Pass(), rng)
    # SCORE STEP: 1 for 14+ DP, 1 for 19 (1 above 18); 1 Tension from the lower marker on 18
    assert state.last_week["AH"] == {"prestige": 2, "dp": 19, "tension": 1}
    assert ah.prestige == 2 and state.tension["AH"]["RU"] == 1
    assert names(ah.permanent) == ["The Kaiser's Blank Cheque"]
    assert state.week == 2 and names(ah.hand) == ["Tisza", "Assassination Investigations", "Mensdorff"]

    # Week 2
    assert ah.tableau[0].card == cid("Summer Harvest Leave")  # First Draw, 0 DP
    act(state, "AH", Deliberate(discard=cid("Tisza")))  # -1 Prestige
    assert ah.prestige == 1 and ah.returned == [cid("Tisza")]  # "-1 Prestige, down to 1"
    act(state, "AH", Resolve(card=cid("Hoyos")))
    assert ah.score == 4 and state.current == ["AH"]  # the solitaire token never moves
    for markers in [(7, 8), (10, 11), (12, 13), (14, 15)]:
        act(state, "AH", Draw())
        act(state, "AH", Resolve())
        assert (ah.score, ah.second) == markers
    assert ah.draw == []
    rng.order = [cid("Stürgkh")]
    act(state, "AH", Draw(), rng)  # Round Six: the Recycled Discards form the Draw Pile
    act(state, "AH", Resolve())
    assert (ah.score, ah.second) == (17, 19)
    assert ah.returned == [cid("Tisza")] and cid("Tisza") not in ah.draw
    act(state, "AH", Play(card=cid("Assassination Investigations")))
    assert (ah.score, ah.second) == (19, 21) and ah.counters["investigations"] == 3
    assert len(ah.tableau) == 8
    act(state, "AH", Pass())
    assert state.last_week["AH"] == {"prestige": 4, "dp": 21, "tension": 1}
    assert ah.prestige == 5 and state.tension["AH"]["RU"] == 2  # TOTAL PRESTIGE: 5, TENSION: 2
    # Refresh: Summer Harvest Leave is Permanent, so Ultimatum joins the Draw Pile, with Tisza.
    assert names(ah.permanent) == ["The Kaiser's Blank Cheque", "Summer Harvest Leave"]
    assert cid("Ultimatum") in ah.draw and cid("Tisza") in ah.draw and ah.returned == []
    assert cid("Ultimatum") not in ah.set_aside
