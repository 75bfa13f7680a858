"""Admin views of ratings and statistics, read-mostly since they are derived data."""
