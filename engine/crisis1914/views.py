"""What a statesman of Crisis: 1914 may see and how it reads: who owes a decision
(`prompts`), the view of a seat or of the public (`view`), its short Markdown (`describe`)
and the public view laid out for a phone's status card (`layout`, engine/core/layout.py).
"""

from __future__ import annotations

from engine.core import Layout, Panel, Prompt
from engine.core.words import counted

from . import rules, texts, weeks
from .cards import card, card_dp, limit_of
from .content import Card, load_content
from .state import CrisisState, Player
from .texts import week_words
from .view_types import CardView, CrisisView, PendingView, PlayedView, StatesmanView, YourView

__all__ = ["CrisisView", "card_view", "describe", "layout", "prompts", "view"]


def prompts(state: CrisisState) -> list[Prompt]:
    """Who owes a decision now: the card a statesman must place, choose, order, discard
    or lower a die for; else the statesman whose turn it is; the Congress invitation and
    the answers (every delegate at once); the Refresh (secret, all at once). One branch a
    kind of decision, each with its own sentence: split up, they would only be read apart."""
    w = f"week{state.week}"
    if state.phase == "over":
        return []
    if state.pending:
        pend = state.pending[0]
        seat = state.players[pend.nation].seat
        revealed = ""
        if pend.kind == "resolve" and pend.cards and pend.cards[0]:
            c = card(pend.cards[0])
            revealed = f"{c.name} ({card_dp(state, state.players[pend.nation], c)} DP)"
        text = {
            "resolve": f"Decide how the card you revealed, {revealed}, is played: `/crisis place` "
            "(with Belligerence, its alternative effect, or as it is).",
            "choose": "Play one of the three cards you drew by Deliberating with `/crisis choose`; "
            "keep the other two.",
            "reorder": "Put the top cards of your Draw Pile back in the order you want with `/crisis reorder`.",
            "discard": f"Discard {counted(pend.count, 'card')} from your Hand with `/crisis discard`.",
            "reduce": "Score Step: you have 13 DP or fewer, so you may lower one Tension die in "
            "your City Box by 1. Choose which with `/crisis reduce`.",
        }[pend.kind]
        return [
            Prompt(
                seat=seat,
                kind=pend.kind,
                text=text,
                phase=f"{w}/r{state.round}/{pend.nation}/{pend.kind}",
                # a card's consequences finish the turn it was drawn or played in; the
                # Score Step's reduction is a decision of its own
                turn=None if pend.kind == "reduce" else f"{w}/r{state.round}/{pend.nation}",
            )
        ]
    if state.phase in ("play", "first_draw") and state.actor is not None:
        p = state.players[state.actor]
        return [
            Prompt(
                seat=p.seat,
                kind="turn",
                text="Your turn: `/crisis draw`, `play`, `deliberate`, `reorganize`, `seize` or `pass`.",
                phase=f"{w}/r{state.round}/{p.nation}/turn",
                turn=f"{w}/r{state.round}/{p.nation}",
            )
        ]
    if state.phase == "congress_invite" and state.congress_inviter:
        seat = state.players[state.congress_inviter].seat
        return [
            Prompt(
                seat=seat,
                kind="congress",
                text="Invite all statesmen to a Congress? `/crisis congress answer:invite` or `answer:no`.",
                phase=f"{w}/congress",
                thread=f"Week {state.week} Congress",
            )
        ]
    if state.phase == "congress_answer":  # every delegate at once (docs/rulings.md, Crisis 35)
        return [
            Prompt(
                seat=state.players[n].seat,
                kind="congress",
                text="Attend the Congress or refuse? `/crisis congress answer:attend` or `answer:refuse`.",
                phase=f"{w}/congress",  # the invitation's: one deadline and one thread
                thread=f"Week {state.week} Congress",
            )
            for n in rules.delegates_to_answer(state)
        ]
    if state.phase == "refresh":
        return [
            Prompt(
                seat=state.players[n].seat,
                kind="refresh",
                text="Refresh: choose the cards to discard from your Hand (keep at most 6) with "
                "`/crisis refresh`.",
                phase=f"{w}/refresh",
                mode="simultaneous",
            )
            for n in weeks.refresh_waiting(state)
        ]
    return []


def view(state: CrisisState, seat: str | None) -> CrisisView:
    """What `seat` may know (`None`: the public view): every statesman's board, Tableau
    and counts, the Initiative, the Tension, what is pending; for a seat its own Hand, the
    top of its Draw Pile it knows and the cards it is looking at, each with its text. One
    line a fact of the view, which is why it runs past sixty lines."""
    nations = load_content().nations
    players = {}
    for nid, p in state.players.items():
        nation = nations[nid]
        tableau = _tableau(p)
        types = [t.type for t in tableau]
        players[nid] = StatesmanView(
            seat=p.seat,
            statesman=nation.statesman,
            nation=nation.name,
            city=nation.city,
            tableau=tableau,
            score=p.score,
            second=p.second,
            prestige=p.prestige,
            belligerence=p.belligerence,
            hand_size=len(p.hand),
            draw_size=len(p.draw),
            known_top=p.known,
            recycled=tuple(p.recycled),
            returned=tuple(p.returned),
            permanent=tuple(p.permanent),
            set_aside=tuple(p.set_aside),
            counters=dict(p.counters),
            limit=limit_of(types),
            assertions=types.count("assertion"),  # as cards.assertions counts them
            deliberated=p.deliberated,
            passed=p.passed,
            momentum=p.momentum,
            lost=p.lost,
        )
    return CrisisView(
        game="crisis1914",
        week=state.week,
        round=state.round,
        phase=state.phase,
        solo=state.solo,
        initiative=tuple(state.current),
        will_move_top=tuple(state.will_top),
        will_move_bottom=tuple(state.will_bottom),
        turn=state.turn + 1,
        actor=state.actor,
        tension={k: dict(v) for k, v in state.tension.items()},
        players=players,
        # the cards of a Deliberation or a Reorganization stay with their owner (`you`)
        pending=tuple(
            PendingView(
                kind=x.kind,
                nation=x.nation,
                count=x.count,
                cards=tuple(x.cards) if x.kind == "resolve" else (),
            )
            for x in state.pending
        ),
        congress_inviter=state.congress_inviter,
        congress_yes=tuple(state.congress_yes),
        refresh_done=tuple(sorted(state.refresh_discards)),
        last_week={k: dict(v) for k, v in state.last_week.items()},
        result=state.result,
        you=_yours(state, state.player_of(seat)) if seat is not None else None,
    )


# Each card on a Tableau as the view shows it, made once per card, DP and Belligerence: a
# Tableau changes one card at a time and the views of every state share them, so a typed
# view costs no more to build than the plain dictionaries it replaced. A few hundred at
# most (each card at the DP it may count), kept with the content they were read from (a
# group's own content replaces it, content.py).
_shown: tuple[dict[str, Card], dict[tuple[str, int, bool], PlayedView]] | None = None


def _tableau(p: Player) -> tuple[PlayedView, ...]:
    global _shown
    cards = load_content().cards
    if _shown is None or _shown[0] is not cards:
        _shown = (cards, {})
    known = _shown[1]
    out = []
    for t in p.tableau:
        key = (t.card, t.dp, t.belligerence)
        shown = known.get(key)
        if shown is None:
            c = cards[t.card]
            shown = known[key] = PlayedView(t.card, c.name, t.dp, c.type, t.belligerence)
        out.append(shown)
    return tuple(out)


def _yours(state: CrisisState, me: Player | None) -> YourView | None:
    """The seat's own cards: its Hand, the top of its Draw Pile it has seen, the cards it
    draws by Deliberating or looks at by Reorganizing, and its Refresh choice once made."""
    if me is None:
        return None
    looking_at = None
    for x in state.pending:
        if x.nation == me.nation and x.kind in ("choose", "reorder"):
            looking_at = tuple(card_view(state, me, c) for c in x.cards)
    discards = state.refresh_discards.get(me.nation)
    return YourView(
        nation=me.nation,
        hand=tuple(card_view(state, me, c) for c in me.hand),
        known_top=tuple(card_view(state, me, c) for c in me.draw[: me.known]),
        looking_at=looking_at,
        refresh_discards=None if discards is None else tuple(discards),
    )


def card_view(state: CrisisState, p: Player, card_id: str) -> CardView:
    """One of `p`'s own cards as its Hand shows it: its DP for `p` now and its full text."""
    c = card(card_id)
    dp = card_dp(state, p, c)
    return CardView(card=card_id, name=c.name, dp=dp, type=c.type, text=texts.card_text(c, dp))


def describe(view: CrisisView) -> str:
    """A view as short Markdown for a phone: the Week, the Initiative, each statesman's
    DP, Prestige, Belligerence, Tension and Tableau, and for a seat its own cards in full.
    One statement per line of the status, which is why it runs past sixty lines."""
    content = load_content()
    nations = content.nations
    lines = [f"**Crisis: 1914** — {week_words(view.week, view.round, view.phase)}"]
    order = [n for n in view.initiative if n]
    init = " > ".join(nations[n].statesman for n in order)
    nxt = view.will_move_top + view.will_move_bottom
    lines.append(
        f"Initiative: {init}"
        + (f" (moving: {', '.join(nations[n].statesman for n in nxt)})" if nxt else "")
    )
    if view.actor:
        lines.append(f"Turn {view.turn}: **{nations[view.actor].statesman}**")
    for nid, p in view.players.items():
        dp = f"{p.score}" + (f"&{p.second}" if p.second is not None else "")
        flags = [
            f
            for f, on in (("passed", p.passed), ("momentum", p.momentum), ("deliberated", p.deliberated))
            if on
        ]
        if p.lost:
            flags.append(f"LOST: {p.lost}")
        tension = ", ".join(f"{nations[b].name} {t}" for b, t in view.tension[nid].items())
        lines.append(
            f"**{p.statesman}** ({p.city}): {dp} DP, {p.prestige} Prestige, "
            f"Belligerence {p.belligerence}, Tension {tension}; Hand {p.hand_size}, "
            f"Draw {p.draw_size}, cards {len(p.tableau)}/{p.limit}"
            + (f" · {', '.join(flags)}" if flags else "")
        )
        if p.tableau:
            played = [f"{t.name} {t.dp}" + (" (Belligerence)" if t.belligerence else "") for t in p.tableau]
            lines.append("  Tableau: " + ", ".join(played))
    for x in view.pending:
        if x.kind == "resolve":
            lines.append(f"{nations[x.nation].statesman} is placing {content.cards[x.cards[0]].name}.")
    if view.you is not None:
        you = view.you
        # each of one's own cards with its full text: no printed card to look at
        lines.append("Your Hand:" + ("" if you.hand else " empty"))
        lines += [f"• **{c.name}**: {c.text}" for c in you.hand]
        if you.known_top:
            lines.append("Top of your Draw Pile, top first:")
            lines += [f"• **{c.name}**: {c.text}" for c in you.known_top]
        if you.looking_at:
            lines.append("You are looking at:")
            lines += [f"• **{c.name}**: {c.text}" for c in you.looking_at]
    if view.result:
        lines.append(f"**{view.result}**")
    return "\n".join(lines)


def layout(view: CrisisView) -> Layout:
    """The public view for a phone's status card (engine/core/layout.py): the Week, round and
    step; one panel per statesman in Initiative order with the Score markers, Prestige,
    Belligerence, the Tension in their City Box, their Hand and Tableau sizes and what
    they did this Week. Each Tableau card by card is in `describe` and the picture."""
    nations = load_content().nations
    title = f"Crisis: 1914 · {week_words(view.week, view.round, view.phase)}"
    lines = []
    if view.result:
        lines.append(f"**{view.result}**")
    for x in view.pending:
        if x.kind == "resolve":
            card = load_content().cards[x.cards[0]].name
            lines.append(f"{nations[x.nation].statesman} is placing {card}.")
    order = [n for n in view.initiative if n is not None and n in view.players]
    order += [n for n in view.players if n not in order]
    # a statesman who Deliberated or Seized leaves the column until the next round
    moving = {n: "to the top next round" for n in view.will_move_top}
    moving |= {n: "to the bottom next round" for n in view.will_move_bottom}
    panels = []
    for i, nid in enumerate(order, 1):
        p = view.players[nid]
        dp = f"{p.score}" + (f" & {p.second}" if p.second is not None else "")
        tension = ", ".join(f"{nations[b].name} {t}" for b, t in view.tension[nid].items())
        done = (("passed", p.passed), ("Momentum", p.momentum), ("deliberated", p.deliberated))
        flags = [f for f, on in done if on]
        if nid in moving:
            flags.append(moving[nid])
        rows = [
            f"**{dp} DP** · {p.prestige} Prestige · Belligerence {p.belligerence}",
            f"Tension: {tension} · Hand {p.hand_size} · {len(p.tableau)} of {p.limit} cards"
            + "".join(f" · {f}" for f in flags),
        ]
        if p.lost:
            rows.append(f"Lost: {p.lost}")
        panels.append(Panel(name=f"{i}. {p.statesman} ({p.nation})", lines=rows, seat=p.seat))
    return Layout(title=title, round=f"Week {view.week}", lines=lines, panels=panels)
