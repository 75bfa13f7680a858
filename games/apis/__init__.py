"""The REST API of records, games, uploads, disputes and rulesets: one module per resource,
one view per URL, each operation with its own nested input and output serializers."""
