"""Team events and league seasons (RULES.md §7 team rules, §9 leagues): teams and rosters, the
team types of R-FMT-1, lineups, team matches and their scoring, 擂台赛, team standings, the
dated double round robin of a club season, promotion and relegation, and the transfer draft.

Pure and deterministic: time comes in as numbers, randomness from a seeded ``random.Random``.
"""
