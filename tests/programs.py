"""The programs outside Python that some tests drive, found in one place.

GNU Go (tests marked ``gnugo``) and Chromium (tests marked ``browser``, through Playwright) are
Debian packages at fixed paths; ``$WEIQI_GNUGO`` and ``$WEIQI_CHROMIUM`` point the tests at
another build or another distribution's path. Where a program is missing, ``tests/conftest.py``
skips the tests marked for it with one line saying what to install, and
``tests/test_missing_programs.py`` checks that nothing else crashes in its place.

>>> present("/bin/sh"), present("/nonexistent/gnugo")
(True, False)
"""

from __future__ import annotations

import os
import shutil

GNUGO = os.environ.get("WEIQI_GNUGO") or "/usr/games/gnugo"
CHROMIUM = os.environ.get("WEIQI_CHROMIUM") or "/usr/bin/chromium"

#: marker → (program, why a test with that marker is skipped when the program is missing)
NEEDS = {
    "gnugo": (GNUGO, f"needs GNU Go at {GNUGO} (apt-get install gnugo, or set WEIQI_GNUGO)"),
    "browser": (
        CHROMIUM,
        f"needs Chromium at {CHROMIUM} (apt-get install chromium, or set WEIQI_CHROMIUM)",
    ),
}


def present(program: str) -> bool:
    """Whether ``program`` (a path or a name on ``$PATH``) exists and may be executed."""
    return shutil.which(program) is not None
