"""structured lineups and signed game records

Lineups: a team's lineup was its players' codes joined by commas (``team_lineups.players``), and
its declared 定台换人制 order the same (``teams.declared_order``), so a player whose code holds a
comma ("Li, Wei") could be sealed but never revealed. Now each board of a lineup is a row of
``team_lineup_boards`` naming the player's roster row, and the declared order is
``team_roster.declared_position``. Every stored lineup and order is carried over: the joined text
is split where the team's own roster codes say it must be — "Li, Wei,B2" on a roster of
``Li, Wei`` and ``B2`` is those two players — and a text the roster cannot account for in
exactly one way stops the migration, naming the lineup, rather than lose a player.

Records: each game record's head is signed with the site's record key (HMAC, see
``weiqi.referee.signature``) in a new ``signature`` column of ``game_records`` and
``team_game_records``. The site's secret is in this database (``site_settings``; stored here if
no server has stored it yet), so every record is signed now, once, after its hash chain, stored
head and replay are checked: a record that does not verify keeps no signature and stays
refused, as it already was. Signing here rather than on a record's next write leaves no
"unsigned" records to accept meanwhile — a finished game is never written again, and a missing
signature is exactly what a forger would leave.

SQLite: only columns and indexes are added or dropped (ALTER TABLE, SQLite 3.35 or newer); the
tables are never copied, since dropping a copied ``teams`` or ``team_roster`` would cascade to
every row that refers to them (foreign keys are on).

Revision ID: 0009
Revises: 0008
Create Date: 2027-01-10 10:00:00.000000
"""

from __future__ import annotations

import secrets
from collections import defaultdict

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def split_codes(joined: str, roster: set[str], what: str) -> list[str]:
    """The roster codes ``joined`` lists, as the old columns stored them (``",".join``): its
    pieces grouped into codes of ``roster``, each at most once. ``RuntimeError`` unless exactly
    one grouping exists.

    >>> split_codes("Li, Wei,B2", {"Li, Wei", "B2", "Li"}, "lineup 1")
    ['Li, Wei', 'B2']
    >>> split_codes("", {"B2"}, "lineup 1")
    []
    """
    if not joined:
        return []
    pieces = joined.split(",")
    found: list[list[str]] = []

    def walk(start: int, taken: list[str]) -> None:
        if len(found) > 1:
            return
        if start == len(pieces):
            found.append(list(taken))
            return
        for end in range(start + 1, len(pieces) + 1):
            code = ",".join(pieces[start:end])
            if code in roster and code not in taken:
                taken.append(code)
                walk(end, taken)
                taken.pop()

    walk(0, [])
    if len(found) != 1:
        why = "no way" if not found else "more than one way"
        raise RuntimeError(
            f"migration 0009: {what} is stored as {joined!r}, which its team's roster splits "
            f"into players in {why}; correct it by hand and migrate again"
        )
    return found[0]


def upgrade() -> None:
    _structured_lineups()
    _signed_records()


def _structured_lineups() -> None:
    bind = op.get_bind()
    roster_ids: dict[int, dict[str, int]] = defaultdict(dict)
    for rid, team_id, code in bind.execute(
        sa.text("SELECT id, team_id, player_code FROM team_roster")
    ):
        roster_ids[team_id][code] = rid
    orders = bind.execute(sa.text("SELECT id, code, declared_order FROM teams")).all()
    lineups = bind.execute(
        sa.text("SELECT id, team_id, round_id, players FROM team_lineups ORDER BY id")
    ).all()

    op.create_table(
        "team_lineup_boards",
        sa.Column("lineup_id", sa.Integer(), nullable=False),
        sa.Column("position", sa.Integer(), nullable=False),
        sa.Column("player_id", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(
            ["lineup_id"],
            ["team_lineups.id"],
            name=op.f("fk_team_lineup_boards_lineup_id_team_lineups"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["player_id"],
            ["team_roster.id"],
            name=op.f("fk_team_lineup_boards_player_id_team_roster"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("lineup_id", "position", name=op.f("pk_team_lineup_boards")),
        sa.UniqueConstraint(
            "lineup_id", "player_id", name=op.f("uq_team_lineup_boards_lineup_id_player_id")
        ),
    )
    op.create_index(
        op.f("ix_team_lineup_boards_player_id"), "team_lineup_boards", ["player_id"], unique=False
    )
    op.add_column("team_roster", sa.Column("declared_position", sa.Integer(), nullable=True))
    op.create_index(
        op.f("ix_team_roster_team_id_declared_position"),
        "team_roster",
        ["team_id", "declared_position"],
        unique=True,
    )

    for team_id, team, joined in orders:
        codes = split_codes(joined or "", set(roster_ids[team_id]), f"the order of team {team}")
        for position, code in enumerate(codes, start=1):
            bind.execute(
                sa.text("UPDATE team_roster SET declared_position = :p WHERE id = :id"),
                {"p": position, "id": roster_ids[team_id][code]},
            )
    for lineup_id, team_id, round_id, joined in lineups:
        what = f"lineup {lineup_id} (round row {round_id}, team row {team_id})"
        codes = split_codes(joined or "", set(roster_ids[team_id]), what)
        for position, code in enumerate(codes, start=1):
            bind.execute(
                sa.text(
                    "INSERT INTO team_lineup_boards (lineup_id, position, player_id) "
                    "VALUES (:lineup, :position, :player)"
                ),
                {"lineup": lineup_id, "position": position, "player": roster_ids[team_id][code]},
            )
    # plain ALTER TABLE … DROP COLUMN: never a copy of a table others refer to (see above)
    with op.batch_alter_table("team_lineups", recreate="never") as batch_op:
        batch_op.drop_column("players")
    with op.batch_alter_table("teams", recreate="never") as batch_op:
        batch_op.drop_column("declared_order")


def _signed_records() -> None:
    # the core of this version reads and signs the records (the JSON is versioned)
    from weiqi.errors import InputError
    from weiqi.referee.record import GameRecord
    from weiqi.referee.signature import record_key, signing_context

    bind = op.get_bind()
    for table in ("game_records", "team_game_records"):
        op.add_column(table, sa.Column("signature", sa.String(length=64), nullable=True))
    secret = bind.execute(
        sa.text("SELECT value FROM site_settings WHERE key = 'secret_key'")
    ).scalar()
    if secret is None:  # (later versions keep it outside the database: store.site_key)
        from weiqi.store.site_key import existing_secret

        secret = existing_secret(bind.engine)
    if secret is None:  # no server has run yet: the secret it would generate, stored now
        secret = secrets.token_urlsafe(48)
        bind.execute(
            sa.text("INSERT INTO site_settings (key, value) VALUES ('secret_key', :value)"),
            {"value": secret},
        )
    key = record_key(secret)
    for table in ("game_records", "team_game_records"):
        rows = bind.execute(
            sa.text(f"SELECT game_id, record_json, head FROM {table} ORDER BY game_id")
        ).all()
        for game_id, text, head in rows:
            try:
                record = GameRecord.from_json(text, head)
            except InputError:
                continue  # refused before, refused still: it gets no signature
            bind.execute(
                sa.text(f"UPDATE {table} SET signature = :signature WHERE game_id = :id"),
                {
                    "signature": record.signature(key, signing_context(table, game_id)),
                    "id": game_id,
                },
            )


def downgrade() -> None:
    for table in ("game_records", "team_game_records"):
        with op.batch_alter_table(table, recreate="never") as batch_op:
            batch_op.drop_column("signature")

    bind = op.get_bind()
    # the old columns, filled with the codes joined by commas as version 0008 stored them
    with op.batch_alter_table("team_lineups", recreate="never") as batch_op:
        batch_op.add_column(sa.Column("players", sa.Text(), nullable=False, server_default=""))
    with op.batch_alter_table("teams", recreate="never") as batch_op:
        batch_op.add_column(
            sa.Column("declared_order", sa.Text(), nullable=False, server_default="")
        )
    boards: dict[int, list[str]] = defaultdict(list)
    for lineup_id, code in bind.execute(
        sa.text(
            "SELECT b.lineup_id, r.player_code FROM team_lineup_boards b "
            "JOIN team_roster r ON r.id = b.player_id ORDER BY b.lineup_id, b.position"
        )
    ):
        boards[lineup_id].append(code)
    for lineup_id, codes in boards.items():
        bind.execute(
            sa.text("UPDATE team_lineups SET players = :players WHERE id = :id"),
            {"players": ",".join(codes), "id": lineup_id},
        )
    orders: dict[int, list[str]] = defaultdict(list)
    for team_id, code in bind.execute(
        sa.text(
            "SELECT team_id, player_code FROM team_roster WHERE declared_position IS NOT NULL "
            "ORDER BY team_id, declared_position"
        )
    ):
        orders[team_id].append(code)
    for team_id, codes in orders.items():
        bind.execute(
            sa.text("UPDATE teams SET declared_order = :order WHERE id = :id"),
            {"order": ",".join(codes), "id": team_id},
        )
    op.drop_index(op.f("ix_team_roster_team_id_declared_position"), table_name="team_roster")
    with op.batch_alter_table("team_roster", recreate="never") as batch_op:
        batch_op.drop_column("declared_position")
    op.drop_index(op.f("ix_team_lineup_boards_player_id"), table_name="team_lineup_boards")
    op.drop_table("team_lineup_boards")
