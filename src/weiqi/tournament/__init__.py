"""Individual tournaments (RULES.md §7): settings, systems, Swiss pairing and standings.

Pure and deterministic: the event so far goes in as values, the next round's pairings and the
standings come out. Randomness (lots, nigiri) comes from ``random.Random(seed)`` with the seed
kept in the settings and in each round plan.
"""
