"""The table service: one table per channel, locked, loaded, applied and saved, and its parts (docs/architecture.md §3)."""
