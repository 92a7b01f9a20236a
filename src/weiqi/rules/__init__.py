"""The rules of play: board, moves, ko, counting and results (RULES.md sections 1–3)."""
