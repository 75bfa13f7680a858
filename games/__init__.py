"""Games and their records as uploaded, the players named in them, stored rulesets and disputes."""
