"""one spelling of color: the stored keys spelled ``colour`` are spelled ``color``

Names in code said ``color`` (the ``Color`` of the rules, ``home_color``, ``board_colors``)
and ``colour`` (``colour_policy``, ``online_colours``, the pairing explanations'
``colours_black``) for one idea. The code now says ``color`` throughout; this carries the
keys that were stored with the other spelling:

- an individual event's settings (``event_settings.settings_json``): ``colour_policy`` and
  ``online_colours``;
- a round's explanation (``event_rounds.explanation_json``): each pair's ``colours_black``,
  ``colours_white`` and ``colour_violation``, the totals' ``colour_violations``, and in each
  hand edit's problems the player's ``colours`` and the problem kind ``colour``.

Only rows whose JSON holds the old spelling are read and written. Game records, whose
signatures cover their JSON, never held either spelling, and are not touched.

Downgrade: the same keys back to ``colour``.

Revision ID: 0028
Revises: 0027
Create Date: 2026-12-06 22:00:00.000000
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import sqlalchemy as sa
from alembic import op

revision = "0028"
down_revision = "0027"
branch_labels = None
depends_on = None

#: The settings keys that were spelled ``colour`` (an individual event's).
_SETTINGS = {"colour_policy": "color_policy", "online_colours": "online_colors"}
#: The keys of one pair's explanation and of the round's totals.
_EXPLANATION = {
    "colours_black": "colors_black",
    "colours_white": "colors_white",
    "colour_violation": "color_violation",
}
_TOTALS = {"colour_violations": "color_violations"}
#: A hand edit's problem: the player's colours and the kind of a colour-rule problem.
_PROBLEM = {"colours": "colors"}
_PROBLEM_KIND = {"colour": "color"}


def _renamed(data: dict[str, Any], names: dict[str, str]) -> dict[str, Any]:
    """``data`` with each key of ``names`` under its new name, in its place."""
    return {names.get(k, k): v for k, v in data.items()}


def _both_ways(names: dict[str, str], up: bool) -> dict[str, str]:
    return names if up else {new: old for old, new in names.items()}


def _settings(data: Any, up: bool) -> Any:
    return _renamed(data, _both_ways(_SETTINGS, up)) if isinstance(data, dict) else data


def _explanation(data: Any, up: bool) -> Any:
    """A round's stored explanation with its pairs', totals' and problems' keys in the new
    spelling (``up``) or the old one."""
    if not isinstance(data, dict):
        return data
    pairs, totals = _both_ways(_EXPLANATION, up), _both_ways(_TOTALS, up)
    out = dict(data)
    if isinstance(out.get("explanations"), list):
        out["explanations"] = [
            _renamed(e, pairs) if isinstance(e, dict) else e for e in out["explanations"]
        ]
    if isinstance(out.get("totals"), dict):
        out["totals"] = _renamed(out["totals"], totals)
    if isinstance(out.get("edits"), list):
        out["edits"] = [_edit(e, up) if isinstance(e, dict) else e for e in out["edits"]]
    return out


def _edit(edit: dict[str, Any], up: bool) -> dict[str, Any]:
    """A hand edit with its problems' keys and kinds in the spelling ``up`` asks for."""
    if not isinstance(edit.get("problems"), list):
        return edit
    keys, kinds = _both_ways(_PROBLEM, up), _both_ways(_PROBLEM_KIND, up)
    problems = []
    for p in edit["problems"]:
        if isinstance(p, dict):
            p = _renamed(p, keys)
            if isinstance(p.get("kind"), str):
                p["kind"] = kinds.get(p["kind"], p["kind"])
        problems.append(p)
    return {**edit, "problems": problems}


#: The JSON columns that held the old spelling: table, key, column, how its JSON is renamed,
#: and whether the code writes it in ``\\u`` escapes (an explanation) or as it reads (settings).
_COLUMNS: tuple[tuple[str, str, str, Callable[[Any, bool], Any], bool], ...] = (
    ("event_settings", "event_id", "settings_json", _settings, False),
    ("event_rounds", "id", "explanation_json", _explanation, True),
)


def _rewrite(up: bool) -> None:
    """Rewrite each of :data:`_COLUMNS` in the rows whose JSON holds the spelling left behind
    (``colour`` going up, ``color`` going down), written as the code writes it."""
    bind = op.get_bind()
    spelled = "colour" if up else "color"
    for table, key, column, change, escaped in _COLUMNS:
        rows = bind.execute(
            sa.text(f"SELECT {key}, {column} FROM {table} WHERE {column} LIKE :s"),
            {"s": f"%{spelled}%"},
        ).all()
        for row_key, text in rows:
            try:
                data = json.loads(text)
            except ValueError:
                continue  # not JSON: nothing this migration wrote or reads
            new = change(data, up)
            if new != data:
                bind.execute(
                    sa.text(f"UPDATE {table} SET {column} = :v WHERE {key} = :k"),
                    {"v": json.dumps(new, ensure_ascii=escaped), "k": row_key},
                )


def upgrade() -> None:
    _rewrite(up=True)


def downgrade() -> None:
    _rewrite(up=False)
