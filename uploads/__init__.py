"""Uploads of many records: the file, its items and the batches that verify them."""
