"""Individual tournaments (RULES.md §7): settings, systems, Swiss pairing and standings.

Pure and deterministic: the event so far goes in as values, the next round's pairings and the
standings come out. Randomness (lots, nigiri) comes from ``random.Random(seed)`` with the seed
kept in the settings and in each round plan.

==========================  ===============================================================
module                      holds
==========================  ===============================================================
``settings``                ``EventSettings`` (every choice of the event), ``System``
``ranks``, ``players``      ``Rank`` (5d, 2p, 3k, 初段, 职业2段 …), ``Entrant``
``records``                 ``Game``, ``Round``, ``Event``; ``RoundPlan`` with explanations
``scoring``                 game points of every result kind, each player's history
``pairing``                 the Swiss matching: ``Candidate`` → ``pair`` (rustworkx)
``systems``                 ``system_for(settings)``: round robin, knockout, double
                            elimination, Swiss, Swiss + elimination, McMahon, match
``standings``, ``ranking``  tie-breaks by code (generic over competitors); an event's table
==========================  ===============================================================

>>> from weiqi.tournament.players import Entrant
>>> from weiqi.tournament.records import Event
>>> from weiqi.tournament.settings import EventSettings, System
>>> from weiqi.tournament.systems import system_for
>>> event = Event(EventSettings(system=System.ROUND_ROBIN), (Entrant("a", "A"), Entrant("b", "B")))
>>> plan = system_for(event.settings).next_round(event)
>>> [(g.board, g.black, g.white) for g in plan.games]
[(1, 'a', 'b')]
"""
