"""The events of one action, remembering from where on they follow a revealed hidden card."""

from __future__ import annotations

from engine.core import Event, built

from .content import load_content


class Log:
    def __init__(self) -> None:
        self.events: list[Event] = []
        self._reveal_from: int | None = None

    # built without validation: these fields are made here from known types, and a game
    # makes thousands of events
    def public(self, kind: str, text: str, **data: object) -> None:
        self.events.append(built(Event, kind=kind, text=text, audience=None, reveals=False, data=data))

    def private(self, seat: str, kind: str, text: str, reveals: bool = False, **data: object) -> None:
        self.events.append(built(Event, kind=kind, text=text, audience=seat, reveals=reveals, data=data))

    def revealed(self) -> None:
        """A hidden card is now known: what follows in this action may depend on it."""
        if self._reveal_from is None:
            self._reveal_from = len(self.events)

    def done(self) -> list[Event]:
        if self._reveal_from is not None:
            for event in self.events[self._reveal_from :]:
                if event.audience is None:
                    event.reveals = True
        return self.events


def name(card_id: str) -> str:
    return load_content().cards[card_id].name


def statesman(nation: str) -> str:
    return load_content().nations[nation].statesman
