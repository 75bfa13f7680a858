"""Stored game records, players, uploads and disputes."""
