"""The Discord adapter (docs/architecture.md §6): the only package that imports discord.py."""

from .client import ChancelleryBot, create_bot, run_discord

__all__ = ["ChancelleryBot", "create_bot", "run_discord"]
