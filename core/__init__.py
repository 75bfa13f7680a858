"""Plumbing shared by every app: the API's errors and shapes, and bulk writes to the database."""
