"""Cups beside the league: the draw, the rounds, ties decided and winners sent on (docs/cups.md)."""
