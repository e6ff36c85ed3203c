"""Game content as TOML with provenance, validated by pydantic at load."""
