"""Rule → code → test traceability: every requirement of RULES.md is named by a test.

RULES.md lives beside the repository (``../shared/spec/RULES.md``), as laid out for developers
and CI. Requirement IDs are ``R-…-N`` style (``R-KO-1``, ``R-RANK-SWISS``); the glossary also
names whole families (R-HCP, R-TIME, R-REF, R-PEN, R-RANK, R-LEAGUE), and a family counts as
traced when a test names at least one of its members.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
RULES = ROOT.parent / "shared" / "spec" / "RULES.md"
ID = re.compile(r"\bR-[A-Z0-9-]+[A-Z0-9]\b")


def _test_text() -> str:
    this = Path(__file__).resolve()
    return "\n".join(
        p.read_text(errors="replace") for p in (ROOT / "tests").rglob("*.py") if p != this
    )


def _named(rule: str, text: str) -> bool:
    # R-KO-1 must not be satisfied by R-KO-12; a family R-HCP is satisfied by R-HCP-1.
    return re.search(re.escape(rule) + r"(?![A-Z0-9])", text) is not None


@pytest.mark.skipif(not RULES.exists(), reason="../shared/spec/RULES.md is not beside this clone")
def test_every_requirement_of_rules_md_is_named_by_a_test() -> None:
    ids = sorted(set(ID.findall(RULES.read_text())))
    assert len(ids) > 40, "RULES.md lost its requirement IDs?"
    text = _test_text()
    missing = [i for i in ids if not _named(i, text)]
    assert missing == [], f"requirements no test names: {missing}"


def test_a_family_is_traced_by_a_member_not_by_a_longer_id() -> None:
    assert _named("R-HCP", "R-HCP-2: handicap")
    assert not _named("R-KO-1", "R-KO-12 only")
    assert not _named("R-RANK-RR", "R-RANK-SWISS")
