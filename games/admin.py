"""Admin views of records, players, uploads and disputes: the staff's interface to this app."""
