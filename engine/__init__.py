"""Pure rules engines. No discord, no asyncio, no database; deterministic from the seed."""
