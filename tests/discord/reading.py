"""What a member reads of a message the bot posted or edited: its text, then each embed's
title, description, fields and footer, in the order Discord shows them (the status
message holds the round summary as text and the status card as an embed)."""

from __future__ import annotations

from typing import Any


def shown(message: Any) -> str:
    """A `discord.Message` as a reader sees it, as one text."""
    parts = [message.content] if message.content else []
    for embed in message.embeds:
        parts += _embed_parts(embed.to_dict())
    return "\n".join(parts)


def shown_payload(payload: dict[str, Any]) -> str:
    """A REST call's message body (a send or an edit) as a reader would see it."""
    parts = [payload["content"]] if payload.get("content") else []
    for embed in payload.get("embeds") or []:
        parts += _embed_parts(embed)
    return "\n".join(parts)


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
