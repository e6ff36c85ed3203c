"""play(): the Play Step's six actions, the decisions inside a turn, and moving the game on."""

from __future__ import annotations

import random
from typing import Any

from engine.core import Event, IllegalAction, NotYourTurn
from engine.core.words import counted

from . import actions as a
from . import content, weeks
from .cards import (
    blocked_by_momentum,
    card,
    check_choices,
    discard_from_hand,
    draw_card,
    gain_prestige,
    limit,
    offers_choice,
    play_card,
    reduce_tension,
    reducible_boxes,
)
from .log import Log, name, statesman
from .state import CrisisState, Pending, Player

SOLO_COST = 1  # Prestige paid for Deliberate and Reorganize in the solitaire game


def play(state: CrisisState, seat: str, action: Any, rng: random.Random) -> list[Event]:
    log = Log()
    p = state.player_of(seat)
    if p is None:
        raise NotYourTurn("You do not hold a nation in this game.")
    if state.pending:
        _answer_pending(state, p, action, rng, log)
    elif state.phase == "play":
        _turn(state, p, action, rng, log)
    elif state.phase in ("congress_invite", "congress_answer"):
        _congress(state, p, action, log)
    elif state.phase == "refresh":
        _refresh(state, p, action, rng, log)
    else:
        raise IllegalAction("Nothing is owed right now.")
    advance(state, rng, log)
    return log.done()


# -- the Play Step -------------------------------------------------------------------------------
def _turn(state: CrisisState, p: Player, action: Any, rng: random.Random, log: Log) -> None:
    if state.actor != p.nation:
        raise NotYourTurn(f"It is {statesman(state.actor or '')}'s turn.")
    at_limit = len(p.tableau) >= limit(p)
    if at_limit and not isinstance(action, a.Pass):
        raise IllegalAction(f"You have played your {limit(p)} cards this Week: you must Pass.")
    who = statesman(p.nation)
    if isinstance(action, a.Draw):
        got = draw_card(p, rng, log)
        if got is None:
            raise IllegalAction("Your Draw Pile and Recycled Discards are empty: there is no card to draw.")
        log.revealed()
        _reveal_onto_tableau(state, p, got, rng, log, "from the Draw Pile")
    elif isinstance(action, a.Play):
        if action.card not in p.hand:
            raise IllegalAction(f"{_label(action.card)} is not in your Hand.")
        check_choices(state, p, card(action.card), action)
        p.hand.remove(action.card)
        play_card(state, p, action.card, action, rng, log, "from Hand")
    elif isinstance(action, a.Deliberate):
        _deliberate(state, p, action, rng, log)
    elif isinstance(action, a.Reorganize):
        _reorganize(state, p, action, log)
    elif isinstance(action, a.Seize):
        _seize(state, p, action, log)
    elif isinstance(action, a.Pass):
        p.passed = True
        log.public("pass", f"{who} passes for the rest of the Week.", nation=p.nation)
    else:
        raise IllegalAction(
            "That is not a Play Step action: draw, play, deliberate, reorganize, seize or pass."
        )
    if not state.pending:
        end_turn(state)


def _label(card_id: str) -> str:
    try:
        return name(card_id)
    except KeyError:
        return repr(card_id)


def _reveal_onto_tableau(
    state: CrisisState, p: Player, card_id: str, rng: random.Random, log: Log, src: str
) -> None:
    if offers_choice(state, p, card(card_id)):
        state.pending.insert(0, Pending(kind="resolve", nation=p.nation, cards=[card_id]))
        log.public("revealed", f"{statesman(p.nation)} reveals {name(card_id)} {src}.", card=card_id)
    else:
        play_card(state, p, card_id, a.CardChoices(), rng, log, src)


def _deliberate(state: CrisisState, p: Player, action: a.Deliberate, rng: random.Random, log: Log) -> None:
    if p.deliberated:
        raise IllegalAction("You have already Deliberated this Week.")
    _check_unblocked(state, p, "Deliberate")
    if state.solo and p.prestige < SOLO_COST:
        raise IllegalAction("Deliberate costs 1 Prestige in the solitaire game, and you have none.")
    if not p.draw and not p.recycled:
        raise IllegalAction("You have no cards left to draw, so you cannot Deliberate.")
    discard_from_hand(p, action.discard, log, "to Deliberate")
    if state.solo:
        gain_prestige(p, f"Week {state.week}: Deliberate (solitaire cost)", -SOLO_COST)
    p.deliberated = True
    drawn = [c for c in (draw_card(p, rng, log) for _ in range(3)) if c is not None]
    state.pending.insert(0, Pending(kind="choose", nation=p.nation, cards=drawn))
    log.private(
        p.seat,
        "deliberate",
        "You draw " + ", ".join(name(c) for c in drawn) + ": play one of them.",
        reveals=True,
    )
    log.public(
        "deliberate", f"{statesman(p.nation)} Deliberates and draws {len(drawn)} cards.", nation=p.nation
    )
    if not state.solo:  # the solitaire Berchtold token never moves
        _leave_column(state, p)
        state.will_bottom.append(p.nation)


def _reorganize(state: CrisisState, p: Player, action: a.Reorganize, log: Log) -> None:
    _check_unblocked(state, p, "Reorganize")
    if state.solo and p.prestige < SOLO_COST:
        raise IllegalAction("Reorganize costs 1 Prestige in the solitaire game, and you have none.")
    discard_from_hand(p, action.discard, log, "to Reorganize")
    if state.solo:
        gain_prestige(p, f"Week {state.week}: Reorganize (solitaire cost)", -SOLO_COST)
    top = p.draw[:3]
    log.public("reorganize", f"{statesman(p.nation)} Reorganizes the top {len(top)} cards of the Draw Pile.")
    if top:
        state.pending.insert(0, Pending(kind="reorder", nation=p.nation, cards=list(top)))
        log.private(
            p.seat, "reorganize", "The top of your Draw Pile: " + ", ".join(name(c) for c in top) + "."
        )


def _seize(state: CrisisState, p: Player, action: a.Seize, log: Log) -> None:
    if state.solo:
        raise IllegalAction("Seize Initiative is not available in the solitaire game.")
    top = next((n for n in state.current if n is not None), p.nation)
    leader = state.players[top]
    if p.highest < leader.highest:
        raise IllegalAction(
            f"You need at least {leader.highest} DP ({statesman(top)}, top of the Initiative Track) to Seize Initiative."
        )
    if len(action.discards) != 3 or len(set(action.discards)) != 3:
        raise IllegalAction("Seize Initiative discards exactly 3 different cards from your Hand.")
    for cid in action.discards:
        if cid not in p.hand:
            raise IllegalAction(f"{_label(cid)} is not in your Hand.")
    for cid in action.discards:
        discard_from_hand(p, cid, log, "to Seize Initiative")
    _leave_column(state, p)
    state.will_top.insert(0, p.nation)
    log.public("seize", f"{statesman(p.nation)} Seizes the Initiative.", nation=p.nation)


def _check_unblocked(state: CrisisState, p: Player, what: str) -> None:
    by = blocked_by_momentum(state, p)
    if by is not None:
        raise IllegalAction(f"{statesman(by)}'s Momentum stops you from taking a {what} action this Week.")


def _leave_column(state: CrisisState, p: Player) -> None:
    state.current = [None if n == p.nation else n for n in state.current]


def end_turn(state: CrisisState) -> None:
    state.turn += 1
    state.actor = None


# -- decisions inside a turn ---------------------------------------------------------------------
def _answer_pending(state: CrisisState, p: Player, action: Any, rng: random.Random, log: Log) -> None:
    """The answer to what the statesman owes before anything else (a revealed card to place,
    a Deliberation's card to choose, cards to reorder or discard, the Score Step's reduction):
    one branch per kind, each short, kept together so the order of the checks reads as the
    rulebook gives them."""
    pending = state.pending[0]
    if pending.nation != p.nation:
        raise NotYourTurn(f"Waiting for {statesman(pending.nation)}.")
    if pending.kind in ("resolve", "choose"):
        if not isinstance(action, a.Resolve):
            command = "/crisis place" if pending.kind == "resolve" else "/crisis choose"
            raise IllegalAction(f"First decide how the card is played ({command}).")
        if pending.kind == "resolve":
            chosen = pending.cards[0]
            if action.card not in (None, chosen):
                raise IllegalAction(f"The card to resolve is {name(chosen)}.")
        else:
            if action.card not in pending.cards:
                raise IllegalAction(
                    "Choose one of the cards you drew: " + ", ".join(name(c) for c in pending.cards) + "."
                )
            chosen = action.card
        check_choices(state, p, card(chosen), action)  # refuse before anything moves
        state.pending.pop(0)
        if pending.kind == "choose":
            kept = [c for c in pending.cards if c != chosen]
            p.hand.extend(kept)
            if kept:
                log.private(p.seat, "kept", "You keep " + ", ".join(name(c) for c in kept) + " in your Hand.")
            log.revealed()
        src = "from the Draw Pile" if pending.kind == "resolve" else "after Deliberating"
        play_card(state, p, chosen, action, rng, log, src)
    elif pending.kind == "reorder":
        if not isinstance(action, a.Reorder):
            raise IllegalAction(
                "First put the cards you looked at back in the order you want (/crisis reorder)."
            )
        if sorted(action.order) != sorted(pending.cards):
            raise IllegalAction(
                "Reorder exactly the cards you looked at: " + ", ".join(name(c) for c in pending.cards) + "."
            )
        p.draw[: len(action.order)] = action.order
        p.known = max(p.known, len(action.order))
        state.pending.pop(0)
        log.private(
            p.seat, "reorder", "Your Draw Pile now starts " + ", ".join(name(c) for c in action.order) + "."
        )
    elif pending.kind == "reduce":
        if not isinstance(action, a.Reduce):
            raise IllegalAction("First choose the Tension die to lower by 1 (reduce).")
        boxes = reducible_boxes(state, p.nation)
        if action.box is not None and action.box not in boxes:
            nations = content.load_content().nations
            where = nations[p.nation].city
            if action.box not in state.tension[p.nation]:
                raise IllegalAction(f"There is no {action.box} Tension box in {where}.")
            raise IllegalAction(
                f"The {nations[action.box].name} die in {where} is at its Belligerence floor: "
                "choose " + " or ".join(nations[b].name for b in boxes) + "."
            )
        state.pending.pop(0)
        reduce_tension(state, p.nation, action.box, 1, log)
    elif pending.kind == "discard":
        if not isinstance(action, a.Discard):
            raise IllegalAction(f"First discard {counted(pending.count, 'card')} from your Hand (/crisis discard).")
        if len(action.cards) != pending.count or len(set(action.cards)) != len(action.cards):
            raise IllegalAction(f"Discard exactly {counted(pending.count, 'different card')} from your Hand.")
        for cid in action.cards:
            if cid not in p.hand:
                raise IllegalAction(f"{_label(cid)} is not in your Hand.")
        state.pending.pop(0)
        log.revealed()  # a discard is face-up
        for cid in action.cards:
            discard_from_hand(p, cid, log, "as a card demands")
    if not state.pending and state.phase in ("first_draw", "play") and state.actor is not None:
        end_turn(state)


# -- Congress and Refresh ------------------------------------------------------------------------
def _congress(state: CrisisState, p: Player, action: Any, log: Log) -> None:
    if not isinstance(action, a.Congress):
        raise IllegalAction("Answer the Congress: yes or no.")
    if state.phase == "congress_invite":
        if p.nation != state.congress_inviter:
            raise NotYourTurn("Only the last player on the Initiative Track may invite to a Congress.")
        if not action.yes:
            log.public("congress", f"{statesman(p.nation)} does not call a Congress.")
            state.phase = "end_check"
            state.congress_inviter = None
            return
        state.congress_yes = [p.nation]
        state.phase = "congress_answer"
        log.public("congress", f"{statesman(p.nation)} invites all statesmen to a Congress.")
        return
    if p.nation not in delegates_to_answer(state):
        raise NotYourTurn("You have already answered the Congress (or are not invited).")
    if not action.yes:
        log.public("congress", f"{statesman(p.nation)} refuses: there is no Congress.")
        state.congress_inviter = None
        state.phase = "end_check"
        return
    state.congress_yes.append(p.nation)
    log.public("congress", f"{statesman(p.nation)} agrees to attend.")
    if not delegates_to_answer(state):
        weeks.hold_congress(state, log)
        state.congress_inviter = None
        state.phase = "end_check"


def delegates_to_answer(state: CrisisState) -> list[str]:
    """The invited statesmen who have not answered yet, from the top of the Initiative Track
    down. They are asked at once (docs/rulings.md, Crisis 35): the Congress meets only if all
    agree, so an answer given before the ones above it changes nothing."""
    return [n for n in weeks.congress_order(state) if n not in state.congress_yes]


def _refresh(state: CrisisState, p: Player, action: Any, rng: random.Random, log: Log) -> None:
    if not isinstance(action, a.Refresh):
        raise IllegalAction("Choose the cards to discard from your Hand for the Refresh Step: /crisis refresh discards:… (or none).")
    if p.nation not in weeks.refresh_waiting(state):
        raise NotYourTurn("You have already made your Refresh choice.")
    if len(set(action.discards)) != len(action.discards) or any(c not in p.hand for c in action.discards):
        raise IllegalAction("Discard only cards in your Hand, each once.")
    kept = len(p.hand) - len(action.discards)
    if kept > weeks.HAND_MAX:
        raise IllegalAction(
            f"You may keep at most {weeks.HAND_MAX} cards: discard {kept - weeks.HAND_MAX} more."
        )
    state.refresh_discards[p.nation] = list(action.discards)
    log.private(p.seat, "refresh", f"You will discard {counted(len(action.discards), 'card')}.")
    log.public("refresh", f"{statesman(p.nation)} has made their Refresh choice.")
    if not weeks.refresh_waiting(state):
        log.revealed()
        weeks.finish_refresh(state, rng, log)


# -- moving on until someone owes a decision -----------------------------------------------------
def advance(state: CrisisState, rng: random.Random, log: Log) -> None:
    while not state.pending and state.phase != "over":
        if state.phase == "first_draw":
            if not _first_draw(state, rng, log):
                return
        elif state.phase == "score":
            weeks.finish_score(state, log)
            state.phase = "end_check"
            if weeks.congress_possible(state):
                state.congress_inviter = weeks.congress_order(state)[-1]
                state.congress_yes = []
                state.phase = "congress_invite"
        elif state.phase == "end_check":
            if weeks.game_end_check(state, log):
                return
            weeks.start_refresh(state, rng, log)
        elif state.phase == "play":
            if _next_actor(state):
                return
            # the Round is over
            weeks.new_round(state)
            if all(p.passed for p in state.active()):
                _score_step(state, log)
            else:
                state.round += 1
        elif state.phase == "refresh":
            if weeks.refresh_waiting(state):
                return
            weeks.finish_refresh(state, rng, log)
        else:
            return  # Congress: someone owes an answer


def _score_step(state: CrisisState, log: Log) -> None:
    weeks.score_week(state, log)  # phase "score": its -1 Tension choices may be owed first


def _next_actor(state: CrisisState) -> bool:
    while state.turn < len(state.current):
        n = state.current[state.turn]
        if n is not None and state.players[n].lost is None and not state.players[n].passed:
            state.actor = n
            return True
        state.turn += 1
    return False


def _first_draw(state: CrisisState, rng: random.Random, log: Log) -> bool:
    """Each player in Initiative order turns over their top card; False while a choice is owed."""
    while state.turn < len(state.current):
        n = state.current[state.turn]
        if n is None or state.players[n].lost is not None:
            state.turn += 1
            continue
        p = state.players[n]
        state.actor = n
        got = draw_card(p, rng, log)
        if got is not None:
            log.revealed()
            _reveal_onto_tableau(state, p, got, rng, log, "in the First Draw Step")
        if state.pending:
            return False
        end_turn(state)
    state.phase = "play"
    state.turn = 0
    state.actor = None
    state.round = 1
    return True
