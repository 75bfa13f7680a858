"""Replay of game records: the pure engine in ``replay.engine`` and, around it, the Django code
that feeds it stored records and keeps its reports and findings."""
