"""The rules of play: board, moves, ko, counting and results (RULES.md sections 1–3).

- :mod:`~weiqi.rules.ruleset` — ``Ruleset``: every rule choice of a game (size, komi in stones,
  cycle policy, handicap and its placement, play mode), presets ``chinese``, ``no_komi``,
  ``handicap_game``.
- :mod:`~weiqi.rules.vertex` — points are ints ``row * size + col`` (A1 = 0); GTP names.
- :mod:`~weiqi.rules.board` — ``Board``: a game position with its history: ``play``, ``pass_``,
  ``legality`` (occupied, suicide, ko, superko, wrong-turn, off-board, game-over), ``undo``,
  groups and liberties, situational superko over the whole game, the R-KO-2 cycle result.
- :mod:`~weiqi.rules.handicap` — star points and the standard handicap points.
- :mod:`~weiqi.rules.counting` — ``count``: area counting, par, komi, compensation, penalties.
- :mod:`~weiqi.rules.dead_stones` — ``propose_dead``: the dead-stone proposal (R-END-3).
- :mod:`~weiqi.rules.playout` — seeded random games that never fill an eye.
- :mod:`~weiqi.rules.result` — ``Result`` in Chinese, English, SGF.

>>> from weiqi.rules.board import Board
>>> from weiqi.rules.color import Color
>>> from weiqi.rules.counting import count
>>> from weiqi.rules.ruleset import Ruleset
>>> from weiqi.rules.vertex import parse_vertex
>>> rules = Ruleset.chinese(size=9)
>>> board = Board.from_ruleset(rules)
>>> board.play(Color.BLACK, parse_vertex("E5", 9))
[]
>>> count(board, set(), rules).result.to_zh()
'黑胜36又3/4子'
"""
