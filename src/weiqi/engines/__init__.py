"""Engines as players: a GTP v2 client (:mod:`weiqi.engines.gtp`) and GNU Go self-play
(:mod:`weiqi.engines.selfplay`)."""
