"""Statistics, ratings and leaderboards computed from verified games."""
