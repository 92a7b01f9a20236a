"""Team events and league seasons (RULES.md §7 team rules, §9 leagues).

Ranks are the tournament package's ``weiqi.tournament.ranks.Rank`` (R-FMT-2).

Pure and deterministic: time comes in as numbers, randomness from a seeded ``random.Random``.

============================  ===================================================================
module                        holds
============================  ===================================================================
``league.team``               ``Team``, ``RosterEntry``, ``TeamType`` (R-FMT-1),
                              ``fixed_board_order`` (分台定人制), ``event_order``
``league.lineup``             ``LineupSettings``, ``validate_lineup`` → ``LineupRejected``,
                              ``LineupBox`` (sealed until the deadline), ``MissingLineup``
``league.match``              ``TeamMatch`` (boards, colours, forfeits of empty boards),
                              ``game_points``/``match_points`` (R-SCORE-TEAM-1),
                              ``rotation_match`` (全队轮赛制), ``player_records``/``board_records``
``league.standings``          the team scoring policy (``team_competitors``) for the one
                              standings module, ``TeamRanking`` as its codes (``MP``, ``GP``,
                              ``B1``, …, ``SOS``, ``TOTAL``), ``team_standings`` (R-RANK-TEAM);
                              ``members_total`` (队员总分制)
``league.team_rounds``        a team event as the tournament's systems see it (``team_event``):
                              the same round robin, Swiss and knockout objects pair teams
``league.winner_stays_on``    ``WinnerStaysOn``, the 擂台赛 state machine (R-FMT-3)
``league.calendar``           ``berger_rounds``, ``double_round_robin``, ``weekly_dates``
``league.season``             ``Season``, ``SeasonSettings`` (R-LEAGUE-1), ``final_order``,
                              ``promotion_and_relegation``
``league.draft``              ``Draft`` (摘牌, R-LEAGUE-2), ``draft_order``,
                              ``combined_standing``, ``replay``
============================  ===================================================================
"""
