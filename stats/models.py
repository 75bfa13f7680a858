"""Models for ratings and statistics; every row is derived from verified games and can be
rebuilt from them, so nothing here is a source of truth."""
