"""Models for game records, players, uploads and disputes; the records are kept exactly as
uploaded so any report can be reproduced by replaying them again."""
