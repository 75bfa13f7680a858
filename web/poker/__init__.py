"""The joker poker games (``raspis-poker/1``) on the pages: findings in words and the report."""
