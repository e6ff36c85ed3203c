"""What a seat of Schönbrunn may see and how it reads: who owes a decision (`prompts`), the
view of a seat or of the public (`view`), its short Markdown (`describe`) and the public
view laid out for a phone's status card (`layout`, engine/core/layout.py).
"""

from __future__ import annotations

from engine.core import Layout, Panel, Prompt
from engine.core.words import counted

from . import texts
from .content import card, nations
from .pieces import influence, name, supply_values
from .state import Delegate, SchonbrunnState
from .view_types import Balance, Delegation, ObjectiveView, PlayerView, PrivateView, SchonbrunnView

__all__ = ["PHASE", "describe", "layout", "private_view", "prompts", "view"]

PHASE = {
    "bid": "Auction",
    "choose": "Auction",
    "commit": "Hierarchy",
    "tiebreak": "Hierarchy",
    "sign": "Hierarchy",
    "receptions": "Hierarchy",
    "favour": "Assignments",
    "assign": "Assignments",
    "plot": "Plot",
    "move": "Chancellery",
    "minister": "Chancellery",
    "activate": "Congress",
    "keep": "Recovery",
    "over": "End of the Game",
}


def prompts(state: SchonbrunnState) -> list[Prompt]:
    """Who owes a decision now: every seat still to bid or commit (secret, revealed
    together), else the one seat the stage waits for."""
    stage = state.stage  # read once: a model's attribute costs more than a local's
    if stage == "over":
        return []
    if stage in ("bid", "commit"):
        text, phase = texts.STAGE_TEXT[stage], f"r{state.round}/{stage}"
        return [Prompt(seat=s, kind=stage, text=text, phase=phase, mode="simultaneous") for s in state.queue]
    seat = state.queue[0]
    kind: str = stage
    if stage == "assign":
        step = state.assign_step
        kind = "head" if step == "head" else "assign"
        text = texts.assign_words(step, state.assign_left)
    elif stage == "tiebreak":
        text = texts.tiebreak_text(state, seat)
    else:
        text = texts.STAGE_TEXT.get(stage, "")
    # a Political Favour and the assignment it leads to are one seat's turn of Phase 2
    turn = f"r{state.round}/assignments/{seat}" if stage in ("favour", "assign") else None
    return [Prompt(seat=seat, kind=kind, text=text, phase=f"r{state.round}/{stage}/{seat}", turn=turn)]


def view(state: SchonbrunnState, seat: str | None) -> SchonbrunnView:
    """What `seat` may know (`None`: the public view): the board, each nation's public
    facts, and for a seat its own Receptions, supply, screen and the texts of its cards."""
    at = _by_place(state)
    pob = state.piles["PoB"]
    shown = bool(pob) and state.tops_revealed
    return SchonbrunnView(
        round=state.round,
        rounds=state.rounds,
        stage=state.stage,
        phase=PHASE[state.stage],
        simplified=state.simplified,
        hierarchy=tuple([name(state, s) for s in state.hierarchy]),
        master=name(state, state.master),
        objectives={o: _objective(state, o, at) for o in state.objectives},
        balance=Balance(
            reparation=card(pob[0]).name if shown else None,
            reparation_text=texts.card_text(card(pob[0])) if shown else None,
            pile=len(pob),
        ),
        players={s: _player(state, s, len(at.get((s, "supply"), ()))) for s in state.seats},
        waiting=tuple([name(state, p.seat) for p in prompts(state)]),
        last_awards=tuple(state.last_awards),
        final={name(state, s): v for s, v in state.final.items()},
        me=private_view(state, seat) if seat is not None and seat in state.players else None,
    )


def _by_place(state: SchonbrunnState) -> dict[tuple[str, str], list[Delegate]]:
    """Every Delegate by (owner, place), gathered in one pass over the pieces: the view
    reads each delegation and each supply, and a pass for each would cost more than the
    whole view."""
    at: dict[tuple[str, str], list[Delegate]] = {}
    for d in state.delegates:
        key = (d.owner, d.place)
        if key in at:
            at[key].append(d)
        else:
            at[key] = [d]
    return at


def _objective(state: SchonbrunnState, o: str, at: dict[tuple[str, str], list[Delegate]]) -> ObjectiveView:
    """An Objective's top Reparation, Political Favour and each nation's delegation there,
    in Hierarchy order (table order before the first Hierarchy)."""
    pile = state.piles[o]
    shown = bool(pile) and state.tops_revealed
    congress = state.stage == "activate"  # everything is face up, the totals public
    pieces = {}
    for s in state.hierarchy or state.seats:
        here = at.get((s, o), ())
        up = sorted([d.value for d in here if d.face_up])
        down = len(here) - len(up)
        p = state.players[s]
        markers = tuple([m.value for m in state.markers if m.owner == s and m.objective == o])
        if up or down or p.minister == o or p.head == o or markers:
            pieces[name(state, s)] = Delegation(
                face_up=tuple(up),
                face_down=down,
                minister=p.minister == o,
                head=p.head == o,
                markers=markers,
                total=influence(state, s, o) if congress else None,
            )
    return ObjectiveView(
        reparation=card(pile[0]).name if shown else None,
        reparation_text=texts.card_text(card(pile[0])) if shown else None,
        pile=len(pile),
        favour=state.favours[o] if o in state.favours_up else None,
        pieces=pieces,
    )


def _player(state: SchonbrunnState, s: str, supply: int) -> PlayerView:
    """What anyone sees of seat `s`'s nation (`supply`: how many Delegates it has there)."""
    p = state.players[s]
    return PlayerView(
        nation=name(state, s),
        prestige=p.prestige,
        signed=tuple([card(t).name for t in p.signed]),
        behind_screen=len(p.screen),
        under_nation_card=len(p.under),
        ally_markers=p.ally_markers,
        supply=supply,
        committed=p.committed,
        head=(name(state, p.head) if p.head in state.players else p.head),
        bid=p.bid if state.stage == "choose" else None,
        # nothing hides them at the end
        receptions=p.receptions if state.simplified or state.stage == "over" else None,
    )


def private_view(state: SchonbrunnState, seat: str) -> PrivateView:
    """What only `seat` knows: its Receptions, Delegates, screen and the texts of its cards."""
    p = state.players[seat]
    pending = [d.value for d in state.delegates if d.owner == seat and d.place == "committed"]
    down = None
    if state.see_own_face_down:
        down = tuple(
            sorted(
                (d.place, d.value)
                for d in state.delegates
                if d.owner == seat and d.place in state.objectives and not d.face_up
            )
        )
    return PrivateView(
        seat=seat,
        nation=name(state, seat),
        receptions=p.receptions,
        supply=tuple(supply_values(state, seat)),
        screen=tuple(card(c).name for c in p.screen),
        # the texts of one's own cards, nation and head: no printed card to read
        screen_texts=tuple(texts.card_text(card(c)) for c in p.screen),
        signed_texts={card(t).name: texts.card_text(card(t)) for t in p.signed},
        nation_text=texts.nation_text(nations()[p.nation]) if p.nation else None,
        aids_shown=tuple(card(c).name for c in p.shown_aids),
        bid=p.bid,
        committed=pending[0] if pending else None,
        face_down=down,
    )


def describe(view: SchonbrunnView) -> str:
    """A view as short Markdown for a phone: the round, the Hierarchy, each Objective's
    delegations, the Prestige, and for a seat its own cards with their texts."""
    lines = [
        f"**Schönbrunn** round {view.round}/{view.rounds} · {view.phase}"
        + (" · simplified" if view.simplified else "")
    ]
    if view.hierarchy:
        lines.append("Hierarchy: " + " › ".join(view.hierarchy) + f" · Master: {view.master}")
    for o, info in view.objectives.items():
        head = f"**{o}** {info.reparation or '—'} ({info.pile} left)"
        if info.favour is not None:
            head += f" · favour {info.favour}"
        parts = []
        for nation, pc in info.pieces.items():
            bits = [str(v) for v in pc.face_up] + ["?"] * pc.face_down
            if pc.minister:
                bits.append("FM")
            if pc.head:
                bits.append("Head")
            bits += [f"{m:+d}" for m in pc.markers]
            parts.append(f"{nation} {' '.join(bits)}")
        lines.append(head + (": " + "; ".join(parts) if parts else ""))
    bal = view.balance
    lines.append(f"Balance: {bal.reparation or '—'} ({bal.pile} left)")
    scores = []
    for p in view.players.values():
        extra = f" ({p.receptions}R)" if p.receptions is not None else ""
        signed = f" signed: {', '.join(p.signed)}" if p.signed else ""
        allies = f" allies {'+'.join(map(str, p.ally_markers))}" if p.ally_markers else ""
        scores.append(f"{p.nation} {p.prestige}P{extra}{allies}{signed}")
    lines.append("Prestige: " + " · ".join(scores))
    if view.waiting:
        lines.append("Waiting for: " + ", ".join(view.waiting))
    if view.final:
        lines.append("Final: " + ", ".join(f"{n} {v}" for n, v in view.final.items()))
    if view.me is not None:
        lines += _own_lines(view, view.me)
    return "\n".join(lines)


def _own_lines(view: SchonbrunnView, me: PrivateView) -> list[str]:
    """`describe`'s lines for the seat itself: its supply, its cards with their texts, the
    Reparations on the board with theirs, and its face-down Delegates."""
    lines = [
        f"You ({me.nation}): {counted(me.receptions, 'Reception')} · Delegates in supply: "
        + (", ".join(map(str, me.supply)) or "none")
        + (f" · committed {me.committed}" if me.committed is not None else "")
    ]
    if me.screen:
        lines.append("Behind your screen:")
        lines += [f"• **{n}**: {t}" for n, t in zip(me.screen, me.screen_texts, strict=True)]
    if me.signed_texts:
        lines.append("Your signed Treaties:")
        lines += [f"• **{n}**: {t}" for n, t in me.signed_texts.items()]
    if me.nation_text:
        lines.append(f"Your nation: {me.nation_text}")
    shown = [(o, i.reparation, i.reparation_text) for o, i in view.objectives.items() if i.reparation]
    if view.balance.reparation:
        shown.append(("Balance", view.balance.reparation, view.balance.reparation_text))
    if shown:
        lines.append("Reparations on the board:")
        lines += [f"• {o} **{rep}**: {text}" for o, rep, text in shown]
    if me.face_down:
        lines.append("Your face-down: " + ", ".join(f"{v} in {o}" for o, v in me.face_down))
    return lines


def layout(view: SchonbrunnView) -> Layout:
    """The public view for a phone's status card (engine/core/layout.py): the round and phase,
    the Master of Ceremonies, then one panel per nation in Hierarchy order with its Prestige,
    Ally markers, the Delegates in its supply, its Hierarchy Delegate once revealed and its
    signed Treaties. Each Objective's Delegates are in `describe` and the picture."""
    if view.round:
        title = f"Schönbrunn · Round {view.round} of {view.rounds} · {view.phase}"
    else:  # the auction variant's bidding for the Nations comes before Round 1
        title = f"Schönbrunn · {view.phase}, before Round 1 of {view.rounds}"
    if view.simplified:
        title += " · simplified"
    lines = [f"Master of Ceremonies: {view.master}"] if view.hierarchy else []
    players = list(view.players.items())
    rank = {n: i for i, n in enumerate(view.hierarchy)}
    players.sort(key=lambda item: rank.get(item[1].nation, len(rank)))
    panels = []
    for i, (seat, p) in enumerate(players, 1):
        final = view.final.get(p.nation)
        score = f"**{final} Prestige** (final)" if final is not None else f"**{p.prestige} Prestige**"
        first = [score]
        if p.receptions is not None:
            first.append(f"{p.receptions} Reception{'' if p.receptions == 1 else 's'}")
        if p.ally_markers:
            first.append("Allies " + " + ".join(map(str, p.ally_markers)))
        second = [f"{p.supply} Delegate{'' if p.supply == 1 else 's'} in supply"]
        if p.committed is not None:
            second.append(f"Hierarchy Delegate: {p.committed}")
        rows = [" · ".join(first), " · ".join(second)]
        if p.signed:
            rows.append("Signed: " + ", ".join(p.signed))
        name = f"{i}. {p.nation}" if view.hierarchy else p.nation
        panels.append(Panel(name=name, lines=rows, seat=seat))
    name = f"Round {view.round}" if view.round else "The auction for the Nations"
    return Layout(title=title, round=name, lines=lines, panels=panels)
