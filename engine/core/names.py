"""Names as players type them: the one matcher every game's commands use.

A player types `Szogyeny` for the card Szőgyény, `Kaiser's Blank Cheque` with a straight
apostrophe, `Witte` for Sergei Witte, `England` for Britain, `austria hungary` for
Austria-Hungary. `fold` makes both sides comparable (no accents, no quotes, any case, every
other mark a space), and `match_name` picks the one candidate a typed name means:

1. exactly: the candidate's value (an id or code, typed in full) or one of its names;
2. else by a prefix of one of its names (`Szog`, spaces optional: `LloydGeorge`), or by
   whole words of one in a row (`Witte`, `Kaiser's Blank Cheque`, `Hungary`).

An exact match always wins over a prefix; when several candidates are equally good the
name is refused with a sentence that lists them by their full names ("`Ber` could be
Berchtold or Bertie: type more of the name."). Candidates are given as
`(value, full name, other names...)`: the game hands over the common names of its nations
(England for Britain) as other names, so the data stays with the game.

Pure functions: no state, no randomness.
"""

from __future__ import annotations

import difflib
import unicodedata
from collections.abc import Iterable, Mapping, Sequence
from functools import lru_cache
from typing import Any, TypeVar, cast

from .errors import IllegalAction

__all__ = ["fold", "match_name", "find_name", "seat_names", "matches_seat", "nearest_names", "did_you_mean"]

V = TypeVar("V")

# Marks that vanish, so that "Kaiser’s", "Kaiser's" and "Kaisers" are the same word.
_QUOTES = frozenset("'’‘‛ʼʹ`´′\"“”„‟«»‹›")
# Letters NFKD leaves whole: the ones a player without them on the keyboard types plainly.
_LETTERS = str.maketrans({"ø": "o", "ł": "l", "đ": "d", "ð": "d", "þ": "th", "æ": "ae", "œ": "oe", "ı": "i"})


@lru_cache(maxsize=8192)  # the same names are folded at every order: fold each once
def _fold(text: str) -> str:
    plain = unicodedata.normalize("NFKD", text.casefold())
    plain = "".join(ch for ch in plain if not unicodedata.combining(ch)).translate(_LETTERS)
    kept = "".join(ch if ch.isalnum() else " " for ch in plain if ch not in _QUOTES)
    return " ".join(kept.split())


def fold(text: Any) -> str:
    """`text` as the matcher compares it: case folded, accents dropped (Unicode NFKD),
    quotes and apostrophes (straight or curly) dropped, every other mark but letters and
    digits a space (hyphens, dashes, slashes, brackets, full stops), spaces collapsed.
    `fold("The Kaiser’s Blank-Cheque") == "the kaisers blank cheque"`."""
    text = str(text)
    return _fold(text) if len(text) <= 200 else _fold.__wrapped__(text)  # long text: not kept


def _tier(typed: str, compact: str, name: str) -> int | None:
    """0: `name` (folded) is what was typed; 1: it starts with it, or one or more of its
    whole words in a row are it (spaces optional); None: neither."""
    squeezed = name.replace(" ", "")
    if name == typed or squeezed == compact:
        return 0
    if squeezed.startswith(compact):
        return 1
    words = name.split(" ")
    for i in range(1, len(words)):
        for j in range(i + 1, len(words) + 1):
            if "".join(words[i:j]) == compact:
                return 1
    return None


def _shown(text: Any, limit: int = 40) -> str:
    """What the player typed, echoed in a refusal: one line, cut short, no backticks."""
    line = " ".join(str(text).replace("`", "'").split())
    return line if len(line) <= limit else line[:limit] + "…"


def _either(names: list[str]) -> str:
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} or {names[-1]}"


def _best(typed: Any, candidates: Iterable[Sequence[Any]]) -> tuple[list[Any], dict[Any, str]]:
    """The values that match `typed` best (in the candidates' order) and every value's
    full name."""
    key = fold(typed)
    compact = key.replace(" ", "")
    tiers: dict[Any, int] = {}
    shown: dict[Any, str] = {}
    for value, *names in candidates:
        shown.setdefault(value, str(names[0]) if names else str(value))
        if not key:
            continue
        found = [0] if isinstance(value, str) and fold(value).replace(" ", "") == compact else []
        found += [t for n in names if (t := _tier(key, compact, fold(n))) is not None]
        if found:
            tiers[value] = min(tiers.get(value, 2), *found)
    if not tiers:
        return [], shown
    top = min(tiers.values())
    return [v for v, t in tiers.items() if t == top], shown


def find_name(typed: Any, candidates: Iterable[Sequence[Any]]) -> Any | None:
    """The value of the one candidate `typed` names (see the module's rules); None when it
    names none. Several equally good: IllegalAction listing them by their full names."""
    hits, shown = _best(typed, candidates)
    if len(hits) > 1:
        raise IllegalAction(
            f"`{_shown(typed)}` could be {_either([shown[v] for v in hits])}: type more of the name."
        )
    return hits[0] if hits else None


def nearest_names(typed: Any, candidates: Iterable[str | Sequence[Any]], n: int = 2) -> list[str]:
    """The one or two candidates a misspelt `typed` most likely meant (`germny` for
    Germany, `sazanov` for "Sazonov (Russia)", `plya` for play), nearest first; none when
    nothing is close. A candidate is a name, or `(name shown, other names...)`: it is near
    when any of its names is, compared folded (`fold`) by difflib's similarity ratio."""
    key = fold(typed)
    if not key:
        return []
    scores: dict[str, float] = {}
    for candidate in candidates:
        names = [candidate] if isinstance(candidate, str) else [str(x) for x in candidate]
        if not names:
            continue
        score = max(_similar(key, fold(name)) for name in names)
        if score >= _NEAR:
            scores[names[0]] = max(scores.get(names[0], 0.0), score)
    return sorted(scores, key=lambda name: -scores[name])[:n]  # a stable sort: ties keep their order


_NEAR = 0.7  # a little stricter than difflib.get_close_matches (0.6): `germny` is not near Grey


def _similar(key: str, name: str) -> float:
    """How alike a typed key and a name are (0 to 1), with or without spaces; the first
    word of a longer name alone counts too (`sazanov` for "sazonov russia")."""
    forms = {name, name.replace(" ", ""), name.split(" ")[0]}
    return max(difflib.SequenceMatcher(None, key, form).ratio() for form in forms if form)


def did_you_mean(typed: Any, candidates: Iterable[str | Sequence[Any]], n: int = 2) -> str:
    """"Did you mean Germany?" (or "… Germany or Russia?") for a misspelt name, from
    `nearest_names`; "" when no candidate is close."""
    near = nearest_names(typed, candidates, n)
    return f"Did you mean {_either(near)}?" if near else ""


def match_name(
    typed: Any,
    candidates: Iterable[Sequence[V]],
    what: str = "name",
    *,
    unknown: str | None = None,
    listed: str | None = None,
) -> V:
    """The value of the one candidate `typed` names. Candidates are `(value, full name,
    other names...)`. Refused (IllegalAction) when several are equally good, listing them,
    and when none matches: with `unknown` if given (else "… is not a legal {what}."), then
    "Did you mean …?" naming the nearest one or two when the name looks misspelt, then
    `listed` if given (else, without `unknown`, "Legal: " and the legal ones)."""
    candidates = list(candidates)
    found = find_name(typed, candidates)
    if found is not None:
        return cast(V, found)  # one of the candidates' values
    if unknown is None:
        unknown = f"{_shown(str(typed).strip())!r} is not a legal {what}."
        if listed is None:
            legal = ", ".join(dict.fromkeys(str(c[1]) if len(c) > 1 else str(c[0]) for c in candidates))
            listed = f"Legal: {legal or 'none right now'}."
    named = [
        (str(c[1]) if len(c) > 1 else str(c[0]), *(str(x) for x in c[1:]), *([c[0]] if isinstance(c[0], str) else []))
        for c in candidates
        if c
    ]
    parts = [unknown, did_you_mean(typed, named), listed or ""]
    raise IllegalAction(" ".join(p for p in parts if p))


def seat_names(seat: str, label: str, alternatives: Mapping[str, Iterable[str]] | None = None) -> list[str]:
    """Every name a seat answers to: its label ("Poincaré (France)", "Germany &
    Austria-Hungary"), each part of it (the statesman, the nation, each country), and the
    other names the game gives for those parts (`alternatives`, by the part's name: England
    for Britain). The seat id is matched as a value, not a name."""
    parts = [label]
    for chunk in label.replace("(", "&").replace(")", "&").split("&"):
        if chunk.strip():
            parts.append(chunk.strip())
    extra = {fold(k): tuple(v) for k, v in (alternatives or {}).items()}
    names = list(parts)
    for part in parts:
        names += extra.get(fold(part), ())
    return list(dict.fromkeys(names))


def matches_seat(
    typed: Any, seat: str, label: str, alternatives: Mapping[str, Iterable[str]] | None = None
) -> bool:
    """Whether a player's wish (a `/game join` preference) names this seat: its id, or any
    part of one of its `seat_names` (`Fran` in "Poincaré (France)", as always), accents,
    quotes, case, spaces and hyphens ignored: `Poincare`, and `England` for "Grey (Britain)"
    given the game's alternatives."""
    key = fold(typed)
    if not key:
        return False
    if key == fold(seat):
        return True
    compact = key.replace(" ", "")
    return any(compact in fold(n).replace(" ", "") for n in seat_names(seat, label, alternatives))
