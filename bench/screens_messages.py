"""What a member reads of a Discord message, whatever its shape: its text (content,
embeds, Components V2's text displays, the labels of its buttons and menus), its length as
Discord counts it, and its buttons and menus, read alike from discord.py's objects and
from an interaction's raw answer. Used by bench/discord_screens.py and the modules beside
it; nothing here knows the shape of the bot's messages.
"""

from __future__ import annotations

from typing import Any


def message_text(message: Any, labels: bool = True) -> str:
    """What a member reads of a message, whatever its kind: content, embeds, components
    (with their buttons' and menus' labels unless `labels` is False)."""
    parts = [message.content] if message.content else []
    for embed in message.embeds:
        e = embed.to_dict()
        parts += [x for x in (e.get("title"), e.get("description")) if x]
        for f in e.get("fields") or []:
            parts += [f.get("name") or "", f.get("value") or ""]
        if (e.get("footer") or {}).get("text"):
            parts.append(e["footer"]["text"])
    for component in message.components:
        parts += _component_text(component, labels)
    return "\n".join(p for p in parts if p)


def part(component: Any, key: str) -> Any:
    """A component's field, whether discord.py's object or the raw payload (an interaction's answer)."""
    if isinstance(component, dict):
        return component.get(key)
    value = getattr(component, key, None)
    return None if callable(value) else value


def _children(component: Any) -> list[Any]:
    out: list[Any] = []
    for key in ("children", "components", "items"):
        value = part(component, key)
        if isinstance(value, (list, tuple)):
            out += value
    accessory = part(component, "accessory")
    return out + ([accessory] if accessory is not None else [])


def _component_text(component: Any, labels: bool = True) -> list[str]:
    """The text of a component and those inside it (Components V2: text displays, sections,
    containers), with buttons' and menus' labels unless `labels` is False."""
    out = []
    for key in ("content", "label", "placeholder") if labels else ("content",):
        value = part(component, key)
        if isinstance(value, str) and value:
            out.append(value)
    for option in part(component, "options") or [] if labels else []:
        label = part(option, "label")
        if label:
            out.append(label)
    for child in _children(component):
        out += _component_text(child, labels)
    return out


def characters(message: Any) -> int:
    """Characters of text as Discord counts them against a message's limits: its content,
    its embeds' texts and its text displays, not the labels of its buttons and menus."""
    return len(message_text(message, labels=False))


def custom_ids(components: Any) -> list[str]:
    return [str(part(c, "custom_id")) for c in controls(components)]


def controls(components: Any) -> list[Any]:
    """Every button and menu of a message, nested ones (Components V2) included."""
    out = []
    for c in components or []:
        if part(c, "custom_id"):
            out.append(c)
        out += controls(_children(c))
    return out
