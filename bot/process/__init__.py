"""What a running process is: its configuration, process settings, logging and shards (docs/architecture.md §6)."""
