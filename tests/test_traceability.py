"""Rule → code → test traceability: every requirement of RULES.md is named by a test.

The requirement IDs are kept in the project, ``docs/requirements.txt`` (written from RULES.md by
``make requirements``, see ``tests/requirements.py``), so a clone without ``../shared`` still runs
this; where ``../shared/spec/RULES.md`` is present (or ``$WEIQI_RULES``), the project's list must
be the spec's. Requirement IDs are ``R-…-N`` style (``R-KO-1``, ``R-RANK-SWISS``); the glossary
also names whole families (R-HCP, R-TIME, R-REF, R-PEN, R-RANK, R-LEAGUE), and a family counts as
traced when a test names at least one of its members.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.requirements import LIST, RULES, ids_in, project_ids

ROOT = Path(__file__).resolve().parent.parent


def _test_text() -> str:
    # Not this file nor the list's reader, whose examples name IDs without testing them.
    skip = {Path(__file__).resolve(), ROOT / "tests" / "requirements.py"}
    return "\n".join(
        p.read_text(errors="replace") for p in (ROOT / "tests").rglob("*.py") if p not in skip
    )


def _named(rule: str, text: str) -> bool:
    # R-KO-1 must not be satisfied by R-KO-12; a family R-HCP is satisfied by R-HCP-1.
    return re.search(re.escape(rule) + r"(?![A-Z0-9])", text) is not None


def test_every_requirement_is_named_by_a_test() -> None:
    ids = project_ids()
    assert len(ids) > 40, f"{LIST} lost its requirement IDs?"
    text = _test_text()
    missing = [i for i in ids if not _named(i, text)]
    assert missing == [], f"requirements no test names: {missing}"


@pytest.mark.skipif(not RULES.exists(), reason=f"{RULES} is not beside this clone")
def test_the_projects_requirement_list_is_the_specs() -> None:
    """docs/requirements.txt has exactly the IDs of RULES.md (else: ``make requirements``)."""
    assert project_ids() == ids_in(RULES.read_text(encoding="utf-8")), "run make requirements"


def test_a_family_is_traced_by_a_member_not_by_a_longer_id() -> None:
    assert _named("R-HCP", "R-HCP-2: handicap")
    assert not _named("R-KO-1", "R-KO-12 only")
    assert not _named("R-RANK-RR", "R-RANK-SWISS")
