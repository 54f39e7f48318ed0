"""Live play: tables people (and practice bots) play at, over the pure rules of games.engines.

Services and selectors of tables, the turn clock, the Celery tasks, fixture tables, the play
pages and the live-table API. The layer below, games.engines and games.bots, imports nothing of
it; the models stay at games/'s top, where Django looks for them (docs/architecture.md).
"""
