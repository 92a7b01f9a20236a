"""The referee: the game record (an append-only, hash-chained log of events), infractions,
penalties, rulings, the ending protocol, colours and nigiri (RULES.md §2, §4, §6)."""
