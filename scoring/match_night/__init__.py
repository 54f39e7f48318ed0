"""Match night: what waits for each person (results to confirm, disputes, dates to accept,
fixtures tonight) and the notices that tell them (docs/match-night.md)."""
