"""The command-line tools of `python -m bot`: simulate, pacing, migrate (docs/architecture.md §6)."""
