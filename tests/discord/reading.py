"""What a member reads of a message the bot posted or edited: its text, then each embed's
title, description, fields and footer, then the text of its Components V2 layout, in the
order Discord shows them (the status message is a V2 layout: the card, the seats, the
round summary)."""

from __future__ import annotations

from typing import Any


def shown(message: Any) -> str:
    """A `discord.Message` as a reader sees it, as one text."""
    parts = [message.content] if message.content else []
    for embed in message.embeds:
        parts += _embed_parts(embed.to_dict())
    parts += layout_texts([c.to_dict() for c in message.components])
    return "\n".join(parts)


def shown_payload(payload: dict[str, Any]) -> str:
    """A REST call's message body (a send or an edit) as a reader would see it."""
    parts = [payload["content"]] if payload.get("content") else []
    for embed in payload.get("embeds") or []:
        parts += _embed_parts(embed)
    parts += layout_texts(payload.get("components") or [])
    return "\n".join(parts)


def layout_texts(components: list[dict[str, Any]]) -> list[str]:
    """The text displays of a Components V2 layout, in order, however deep."""
    out: list[str] = []
    for c in components:
        if c.get("type") == 10 and c.get("content"):
            out.append(c["content"])
        out += layout_texts(c.get("components") or [])
        if isinstance(c.get("accessory"), dict):
            out += layout_texts([c["accessory"]])
    return out


def card_size(payload_or_embed: dict[str, Any]) -> int:
    """Characters of text in one embed, as Discord counts them."""
    e = payload_or_embed
    return (
        len(e.get("title") or "")
        + len(e.get("description") or "")
        + sum(len(f.get("name") or "") + len(f.get("value") or "") for f in e.get("fields") or [])
        + len((e.get("footer") or {}).get("text") or "")
    )


def _embed_parts(e: dict[str, Any]) -> list[str]:
    parts = [x for x in (e.get("title"), e.get("description")) if x]
    for f in e.get("fields") or []:
        parts += [f.get("name") or "", f.get("value") or ""]
    footer = (e.get("footer") or {}).get("text")
    return parts + ([footer] if footer else [])


def status_parts(message: Any) -> tuple[str, str]:
    """A Components V2 status message as a member reads it: the card (title, waiting line,
    seats) above the separator, and the round summary below it. A finished summary (a
    lone text) is all summary; a message of plain text too."""
    top = [c.to_dict() for c in message.components]
    if message.content or not top or top[0].get("type") != 17:
        return "", "\n".join([message.content, *layout_texts(top)]).strip()
    card: list[str] = []
    summary: list[str] = []
    into = card
    for c in top[0].get("components") or []:
        if c.get("type") == 14:
            into = summary
        into += layout_texts([c])
    return "\n".join(card), "\n".join(summary)


def message_text(message: Any) -> str:
    """The text a message shows, whether plain or a Components V2 layout (no embeds)."""
    return "\n".join([message.content, *layout_texts([c.to_dict() for c in message.components])]).strip()
