"""The requirement IDs of RULES.md, kept in the project as ``docs/requirements.txt``.

RULES.md lives beside the repository (``../shared/spec/RULES.md``); a clone without it still
knows which IDs the tests must name, from ``docs/requirements.txt`` (one ID a line, ``#``
comments). ``make requirements`` (or ``python -m tests.requirements [RULES.md]``) writes that file
from RULES.md again; ``tests/test_traceability.py`` checks that both lists agree whenever RULES.md
is there. ``$WEIQI_RULES`` points at another copy of RULES.md.

>>> ids_in("R-KO-1 and R-RANK-SWISS, not R-KO-1 twice; R-HCP (a family)")
['R-HCP', 'R-KO-1', 'R-RANK-SWISS']
"""

from __future__ import annotations

import os
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RULES = Path(os.environ.get("WEIQI_RULES") or ROOT.parent / "shared" / "spec" / "RULES.md")
LIST = ROOT / "docs" / "requirements.txt"
ID = re.compile(r"\bR-[A-Z0-9-]+[A-Z0-9]\b")
HEADER = """\
# The requirement IDs of RULES.md (../shared/spec/RULES.md), one a line: each must be named by a
# test (tests/test_traceability.py). Written by `make requirements` from RULES.md; do not edit.
"""


def ids_in(text: str) -> list[str]:
    """The distinct requirement IDs ``text`` names, sorted."""
    return sorted(set(ID.findall(text)))


def project_ids(path: Path = LIST) -> list[str]:
    """The IDs of ``docs/requirements.txt``, in its order."""
    lines = (line.strip() for line in path.read_text(encoding="utf-8").splitlines())
    return [line for line in lines if line and not line.startswith("#")]


def write(rules: Path = RULES, path: Path = LIST) -> list[str]:
    """Write ``docs/requirements.txt`` from ``rules``; returns the IDs."""
    ids = ids_in(rules.read_text(encoding="utf-8"))
    path.write_text(HEADER + "".join(f"{i}\n" for i in ids), encoding="utf-8")
    return ids


if __name__ == "__main__":
    source = Path(sys.argv[1]) if len(sys.argv) > 1 else RULES
    print(f"{LIST.relative_to(ROOT)}: {len(write(source))} requirement IDs from {source}")
