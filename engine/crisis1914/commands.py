"""The player commands: `/crisis draw|play|place|deliberate|choose|reorganize|reorder|seize|pass|
discard|reduce|congress|refresh|hand`. Autocomplete (`suggest`) offers only what is legal for the caller."""

from __future__ import annotations

from typing import Any

from engine.core import Choice, Command, IllegalAction, Option, match_choice, match_name

from . import actions as a
from .cards import card, reducible_boxes
from .content import TYPE_NAMES, load_content
from .state import CrisisState, Pending, Player

# The names players commonly type for the nations besides the board's (a Tension box, a
# /game join preference), by the board's name: England for Britain, Austria for
# Austria-Hungary. The board's names and ids stay accepted as ever.
NATION_NAMES: dict[str, tuple[str, ...]] = {
    "Austria-Hungary": ("Austria", "Austro-Hungary", "Austro-Hungarian Empire", "Dual Monarchy"),
    "Britain": ("Great Britain", "England", "United Kingdom", "UK", "British Empire"),
    "Germany": ("German Empire", "Prussia"),
    "Russia": ("Russian Empire",),
    "France": ("French Republic",),
}


def nation_alternatives() -> dict[str, tuple[str, ...]]:
    """NATION_NAMES: what a seat's label ("Grey (Britain)") may also be called."""
    return dict(NATION_NAMES)


def _box(state: CrisisState, p: Player, value: Any) -> str:
    """A Tension box of the player's board, by its nation's id, name or common name."""
    nations = load_content().nations
    boxes = [(b, nations[b].name, *NATION_NAMES.get(nations[b].name, ())) for b in state.tension[p.nation]]
    return match_name(value, boxes, "Tension box")


def _me(state: CrisisState, seat: str) -> Player:
    p = state.player_of(seat)
    if p is None:
        raise IllegalAction("You do not hold a nation in this game.")
    return p


def _card_choices(ids: list[str]) -> list[Choice]:
    out = []
    for cid in dict.fromkeys(ids):
        c = card(cid)
        out.append(Choice(f"{c.name} ({TYPE_NAMES[c.type]})", cid))
    return out


def _my_pending(state: CrisisState, seat: str, kind: str) -> Pending | None:
    p = state.player_of(seat)
    if p is None or not state.pending:
        return None
    first = state.pending[0]
    return first if first.nation == p.nation and first.kind == kind else None


# -- suggestions ---------------------------------------------------------------------------------
def _hand(state: CrisisState, seat: str, typed: dict[str, Any]) -> list[Choice]:
    p = state.player_of(seat)
    return _card_choices(p.hand) if p else []


def _drawn(state: CrisisState, seat: str, typed: dict[str, Any]) -> list[Choice]:
    pend = _my_pending(state, seat, "choose")
    return _card_choices(pend.cards) if pend else []


def _looked_at(state: CrisisState, seat: str, typed: dict[str, Any]) -> list[Choice]:
    pend = _my_pending(state, seat, "reorder")
    if pend is None:
        return []
    taken = {str(v) for v in typed.values()}
    return _card_choices([c for c in pend.cards if c not in taken])


def _boxes(state: CrisisState, seat: str, typed: dict[str, Any]) -> list[Choice]:
    p = state.player_of(seat)
    if p is None:
        return []
    nations = load_content().nations
    return [Choice(f"{nations[b].name} ({t})", b) for b, t in state.tension[p.nation].items()]


def _reducible(state: CrisisState, seat: str, typed: dict[str, Any]) -> list[Choice]:
    p = state.player_of(seat)
    if p is None:
        return []
    nations = load_content().nations
    tension = state.tension[p.nation]
    return [Choice(f"{nations[b].name} ({tension[b]})", b) for b in reducible_boxes(state, p.nation)]


def _build_reduce(state: CrisisState, seat: str, opts: dict[str, Any]) -> a.Reduce:
    p = _me(state, seat)
    if _my_pending(state, seat, "reduce") is None:
        raise IllegalAction(
            "You have no Tension die to lower now (only at the Score Step, with 13 DP or fewer)."
        )
    return a.Reduce(box=_box(state, p, opts["box"]))


def _assertions(state: CrisisState, seat: str, typed: dict[str, Any]) -> list[Choice]:
    p = state.player_of(seat)
    return _card_choices([t.card for t in p.tableau if card(t.card).type == "assertion"]) if p else []


def _congress_answers(state: CrisisState, seat: str, typed: dict[str, Any]) -> list[Choice]:
    if state.phase == "congress_invite":
        return [Choice("invite", "invite"), Choice("no congress", "no")]
    return [Choice("attend", "attend"), Choice("refuse", "refuse")]


# -- building actions ----------------------------------------------------------------------------
def _pick(state: CrisisState, value: Any, ids: list[str], what: str) -> str:
    """A card by id, printed name or autocomplete label, as players type names (accents,
    quotes and case ignored, a unique prefix or word of the name enough: `Szogyeny`, `Witte`)."""
    candidates = [(c.value, card(c.value).name, c.label) for c in _card_choices(ids)]
    legal = ", ".join(name for _, name, _ in candidates) or "none right now"
    return match_name(value, candidates, what, unknown=f"{value!r} is not a legal {what}.", listed=f"Legal: {legal}.")


def _flag(value: Any) -> bool:
    if isinstance(value, bool):
        return value
    return str(value).strip().casefold() in ("true", "yes", "y", "1", "on")


def _card_options(state: CrisisState, p: Player, opts: dict[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {
        "belligerence": _flag(opts.get("belligerence", False)),
        "alternative": _flag(opts.get("alternative", False)),
    }
    if opts.get("box"):
        out["box"] = _box(state, p, opts["box"])
    if opts.get("reclaim"):
        out["reclaim"] = _pick(state, opts["reclaim"], [t.card for t in p.tableau], "Assertion card")
    return out


def _build_play(state: CrisisState, seat: str, opts: dict[str, Any]) -> a.Play:
    p = _me(state, seat)
    return a.Play(
        card=_pick(state, opts["card"], p.hand, "card from your Hand"), **_card_options(state, p, opts)
    )


def _build_place(state: CrisisState, seat: str, opts: dict[str, Any]) -> a.Resolve:
    p = _me(state, seat)
    if _my_pending(state, seat, "resolve") is None:
        raise IllegalAction("You have no revealed card to place.")
    return a.Resolve(**_card_options(state, p, opts))


def _build_choose(state: CrisisState, seat: str, opts: dict[str, Any]) -> a.Resolve:
    p = _me(state, seat)
    pend = _my_pending(state, seat, "choose")
    if pend is None:
        raise IllegalAction("You have not Deliberated: there is nothing to choose.")
    return a.Resolve(
        card=_pick(state, opts["card"], pend.cards, "drawn card"), **_card_options(state, p, opts)
    )


def _build_reorder(state: CrisisState, seat: str, opts: dict[str, Any]) -> a.Reorder:
    pend = _my_pending(state, seat, "reorder")
    if pend is None:
        raise IllegalAction("You are not Reorganizing.")
    order = [
        _pick(state, opts[k], pend.cards, "card you looked at")
        for k in ("first", "second", "third")
        if opts.get(k)
    ]
    order += [c for c in pend.cards if c not in order]  # unnamed cards keep their order below
    return a.Reorder(order=order)


def _build_seize(state: CrisisState, seat: str, opts: dict[str, Any]) -> a.Seize:
    p = _me(state, seat)
    return a.Seize(
        discards=[_pick(state, opts[k], p.hand, "card from your Hand") for k in ("first", "second", "third")]
    )


def _build_discard(state: CrisisState, seat: str, opts: dict[str, Any]) -> a.Discard:
    p = _me(state, seat)
    cards = [_pick(state, opts[k], p.hand, "card from your Hand") for k in ("card", "card2") if opts.get(k)]
    return a.Discard(cards=cards)


def _build_congress(state: CrisisState, seat: str, opts: dict[str, Any]) -> a.Congress:
    answer = match_choice(opts["answer"], _congress_answers(state, seat, opts), "answer")
    return a.Congress(yes=answer in ("invite", "attend"))


def _build_refresh(state: CrisisState, seat: str, opts: dict[str, Any]) -> a.Refresh:
    p = _me(state, seat)
    text = str(opts.get("discards") or "").strip()
    if not text or text.casefold() == "none":
        return a.Refresh()
    return a.Refresh(discards=[_pick(state, part, p.hand, "card from your Hand") for part in text.split(",")])


CARD_OPTIONS = (
    Option("belligerence", "Double its DP with a Belligerence action", "bool", required=False),
    Option("alternative", 'Use the card\'s alternative ("or") effect', "bool", required=False),
    Option("box", "Tension box a Reduce Tension effect lowers", required=False, suggest=_boxes),
    Option("reclaim", "Assertion card a Caution effect takes back", required=False, suggest=_assertions),
)

COMMANDS = (
    Command("draw", "Add the top card of your Draw Pile to your Tableau", lambda s, seat, o: a.Draw()),
    Command(
        "play",
        "Add a card from your Hand to your Tableau",
        _build_play,
        (Option("card", "A card in your Hand", suggest=_hand), *CARD_OPTIONS),
        private=True,
    ),
    Command(
        "place", "Place the card you revealed (Belligerence, alternative effect)", _build_place, CARD_OPTIONS
    ),
    Command(
        "deliberate",
        "Discard a card, draw 3, play 1 and keep 2 (once a Week)",
        lambda s, seat, o: a.Deliberate(
            discard=_pick(s, o["discard"], _me(s, seat).hand, "card from your Hand")
        ),
        (Option("discard", "The card you discard", suggest=_hand),),
        private=True,
    ),
    Command(
        "choose",
        "Play one of the cards you drew by Deliberating",
        _build_choose,
        (Option("card", "One of the cards you drew", suggest=_drawn), *CARD_OPTIONS),
        private=True,
    ),
    Command(
        "reorganize",
        "Discard a card and look at the top 3 cards of your Draw Pile",
        lambda s, seat, o: a.Reorganize(
            discard=_pick(s, o["discard"], _me(s, seat).hand, "card from your Hand")
        ),
        (Option("discard", "The card you discard", suggest=_hand),),
        private=True,
    ),
    Command(
        "reorder",
        "Put the cards you looked at back, new top first",
        _build_reorder,
        (
            Option("first", "The new top card", suggest=_looked_at),
            Option("second", "The second card", required=False, suggest=_looked_at),
            Option("third", "The third card", required=False, suggest=_looked_at),
        ),
        private=True,
    ),
    Command(
        "seize",
        "Discard 3 cards to Seize the Initiative",
        _build_seize,
        tuple(Option(k, f"The {k} card you discard", suggest=_hand) for k in ("first", "second", "third")),
        private=True,
    ),
    Command("pass", "Play no more cards this Week", lambda s, seat, o: a.Pass()),
    Command(
        "discard",
        "Discard the card(s) a card makes you discard",
        _build_discard,
        (
            Option("card", "A card in your Hand", suggest=_hand),
            Option("card2", "Another", required=False, suggest=_hand),
        ),
        private=True,
    ),
    Command(
        "reduce",
        "Score Step with 13 DP or fewer: the Tension die in your City Box to lower by 1",
        _build_reduce,
        (Option("box", "The Tension box to lower", suggest=_reducible),),
    ),
    Command(
        "congress",
        "Invite to a Congress (last on the Initiative Track), or attend or refuse one",
        _build_congress,
        (Option("answer", "invite / no, or attend / refuse", suggest=_congress_answers),),
    ),
    Command(
        "refresh",
        "Refresh Step: the cards to discard from your Hand (comma-separated, or none)",
        _build_refresh,
        (Option("discards", "Cards to discard, or none", required=False, suggest=_hand),),
        private=True,
    ),
    Command(
        "hand", "Show your Hand and what you know of your Draw Pile", lambda s, seat, o: None, private=True
    ),
)
