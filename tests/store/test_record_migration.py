"""Migration 0009 on SQLite and PostgreSQL (issue #16), records: 0009 signs the head of every
stored record with the site's record key once its chain verifies; a record that did not verify
before gets no signature and stays refused; a database no server ever ran on gets its site
secret from the migration."""

from __future__ import annotations

import pytest
from sqlalchemy import inspect, select, text

from tests.store.test_lineup_migration import LOCAL, _down_to_0008, _per_round_event
from weiqi.errors import RecordRefused
from weiqi.services import games, teams
from weiqi.services import tournament as t
from weiqi.services.events import create_event
from weiqi.services.games import TeamBoard
from weiqi.store.database import Database
from weiqi.store.games import GameRecordRow
from weiqi.store.tournament import GameRow
from weiqi.tournament.settings import EventSettings, System


def _signatures(db: Database) -> dict[tuple[str, int], str | None]:
    """Every record's signature by its kind of board and its game's id."""
    with db.transaction() as session:
        return {
            ("team" if match_id is not None else "individual", row.game_id): row.signature
            for row, match_id in session.execute(
                select(GameRecordRow, GameRow.match_id).join(
                    GameRow, GameRow.id == GameRecordRow.game_id
                )
            )
        }


@pytest.mark.parametrize("secret", ["kept", "none yet"])
def test_0009_signs_every_stored_record_that_verifies(database_url: str, secret: str) -> None:
    """Records: at 0008 nothing is signed; 0009 signs every record whose chain and stored head
    verify — with the site's secret, or (``none yet``: no server ever ran) with one it stores
    — and the services then show them; a record already broken at 0008 gets no signature and
    stays refused. With the secret kept, the signatures are those the services made."""
    db = Database(database_url)
    db.upgrade()
    ev = create_event(db, LOCAL, "Club", EventSettings(system=System.ROUND_ROBIN)).id
    t.import_players(db, LOCAL, ev, "name\nP1\nP2\nP3\nP4\n")
    t.pair_round(db, LOCAL, ev)
    games.enter_result(db, LOCAL, ev, 1, 1, "B+R")
    games.enter_result(db, LOCAL, ev, 1, 2, "185")
    team_ev = _per_round_event(db)
    rnd = teams.show_round(db, team_ev, 1)
    played = next(m for m in rnd.matches if all(b.home_player and b.away_player for b in m.boards))
    teams.record_results(db, LOCAL, team_ev, 1, [(played.home, 1, "W+R")])
    before = _signatures(db)
    assert len(before) == 3 and all(len(s or "") == 64 for s in before.values())

    _down_to_0008(db)
    assert "signature" not in {c["name"] for c in inspect(db.engine).get_columns("game_records")}
    with db.engine.begin() as connection:
        if secret == "none yet":
            connection.execute(text("DELETE FROM site_settings WHERE key = 'secret_key'"))
        # board 2's record broken at 0008 (refused there already): it must not be signed
        connection.execute(
            text(
                "UPDATE game_records SET record_json = replace(record_json, "
                '\'"black_count":"185"\', \'"black_count":"175"\') WHERE game_id = '
                "(SELECT g.id FROM event_games g WHERE g.board = 2)"
            )
        )

    db.upgrade()
    after = _signatures(db)
    broken = [k for k, s in after.items() if s is None]
    assert len(broken) == 1 and broken[0][0] == "individual"
    if secret == "kept":  # (a team board moves to a new id at 0032, signed anew for it)
        assert {k: s for k, s in after.items() if s is not None and k[0] == "individual"} == {
            k: s for k, s in before.items() if k not in broken and k[0] == "individual"
        }
    checks = games.check_records(db)
    assert [(c.event_id, c.board, c.problem is None) for c in checks] == [
        (ev, 1, True),
        (ev, 2, False),
        (team_ev, TeamBoard(played.number, 1), True),
        (ev, 2, False),  # and its board, which no record vouches for, is left unsealed
    ]
    assert checks[-1].problem == games.UNSEALED
    assert games.game_view(db, ev, 1, 1).result == "B+R"
    assert games.game_view(db, team_ev, 1, TeamBoard(played.number, 1)).result == "W+R"
    with pytest.raises(RecordRefused, match="it has no signature"):
        games.game_view(db, ev, 1, 2)
    db.dispose()
