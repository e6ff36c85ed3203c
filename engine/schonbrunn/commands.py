"""Placeholder replaced below."""

COMMANDS = ()
