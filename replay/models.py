"""Models for verification reports, their findings and background runs; the engine itself
(``replay.engine``) knows nothing of them."""
