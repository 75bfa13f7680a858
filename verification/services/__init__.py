"""Writes that need both the engine and the database: storing records (``store``, with the
rows a report gives, ``rows``), one record through the API (``records``) and re-verification
(``reverify``)."""
