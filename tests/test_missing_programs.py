"""Issue #15: on a machine without GNU Go or Chromium no test crashes; those that need them skip.

The tests that drive GNU Go or Chromium run again in a child pytest with ``$WEIQI_GNUGO`` and
``$WEIQI_CHROMIUM`` pointing at paths that do not exist. Those variables are where the tests find
the programs (``tests/programs.py``): the same paths the tests would launch, so a test that
forgot its marker launches a missing program here and fails this test, as it would on a machine
without the package. The same files with the Debian paths really hidden (as root, in a mount
namespace of its own) gave 45 passed, 59 skipped, none failed::

    unshare -m sh -c 'mount -t tmpfs none /usr/games && mount --bind /dev/null /usr/bin/chromium \
        && .venv/bin/pytest -n 0 FILES src/weiqi/engines'
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

TESTS = Path(__file__).resolve().parent
ROOT = TESTS.parent
USES = re.compile(r"tests\.programs import|pytest\.mark\.(gnugo|browser)")
HARD_CODED = re.compile(r"/usr/games/gnugo|/usr/bin/chromium")


def files_that_drive_programs() -> list[Path]:
    return sorted(p for p in TESTS.rglob("test_*.py") if USES.search(p.read_text("utf-8")))


def test_no_test_hard_codes_where_gnu_go_or_chromium_is() -> None:
    """Every test finds the programs through ``tests/programs.py``, so the skips see them too."""
    offenders = [
        str(p.relative_to(ROOT))
        for p in TESTS.rglob("*.py")
        if p.name not in ("programs.py", Path(__file__).name)
        and HARD_CODED.search(p.read_text("utf-8"))
    ]
    assert offenders == []


@pytest.mark.slow
def test_without_gnu_go_and_chromium_their_tests_skip_and_nothing_crashes(
    tmp_path: Path,
) -> None:
    files = files_that_drive_programs()
    assert any("gnugo" in p.name for p in files) and any("browser" in p.name for p in files)
    report = tmp_path / "report.xml"
    env = {
        **os.environ,
        "WEIQI_GNUGO": str(tmp_path / "no" / "gnugo"),
        "WEIQI_CHROMIUM": str(tmp_path / "no" / "chromium"),
    }
    pytest_args = ["-q", "-n", "0", "-p", "no:cacheprovider", f"--basetemp={tmp_path / 'run'}"]
    pytest_args.append(f"--junitxml={report}")
    done = subprocess.run(
        [sys.executable, "-m", "pytest", *pytest_args, *map(str, files)],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=1200,
        check=False,
    )
    cases = ET.parse(report).getroot().iter("testcase")
    outcomes: dict[str, str] = {}
    for case in cases:
        name = f"{case.get('classname')}::{case.get('name')}"
        failure, error, skipped = (case.find(tag) for tag in ("failure", "error", "skipped"))
        problem = failure if failure is not None else error
        if problem is not None:
            outcomes[name] = f"crashed: {problem.get('message')}"
        elif skipped is not None:
            outcomes[name] = skipped.get("message") or ""
        else:
            outcomes[name] = "passed"
    crashed = {n: o for n, o in outcomes.items() if o.startswith("crashed")}
    assert crashed == {}, done.stdout[-3000:]
    assert done.returncode == 0, done.stdout[-3000:]
    skipped = [o for o in outcomes.values() if o != "passed"]
    assert any("needs GNU Go at" in o and "apt-get install gnugo" in o for o in skipped)
    assert any("needs Chromium at" in o and "apt-get install chromium" in o for o in skipped)
    assert all(o.startswith(("needs GNU Go at", "needs Chromium at")) for o in skipped), skipped
