"""The phases of a round, one module each; `rules` runs them in order."""
