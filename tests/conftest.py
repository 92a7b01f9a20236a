"""Tests that need a program this machine lacks are skipped, not run into a crash; the site
keys of the PostgreSQL test databases (``store.site_key``) live in a folder of the run, not in
the user's data directory."""

from __future__ import annotations

import os
import shutil
import tempfile

import pytest

from tests.programs import NEEDS, present
from tests.store.conftest import postgres_template  # noqa: F401  (every PostgreSQL test's)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """A test marked ``gnugo`` or ``browser`` is skipped when GNU Go or Chromium is missing."""
    missing = {
        marker: pytest.mark.skip(reason=reason)
        for marker, (program, reason) in NEEDS.items()
        if not present(program)
    }
    if not missing:
        return
    for item in items:
        for marker, skip in missing.items():
            if item.get_closest_marker(marker) is not None:
                item.add_marker(skip)


_DATA_HOME = "WEIQI_TEST_DATA_HOME"


def pytest_configure(config: pytest.Config) -> None:
    os.environ["XDG_DATA_HOME"] = os.environ[_DATA_HOME] = tempfile.mkdtemp(
        prefix="weiqi-test-data-"
    )
    # The command line speaks its user's language (WEIQI_LANG, else the locale's, else
    # Chinese); the tests read its English unless one asks for Chinese (``chinese`` fixtures
    # take WEIQI_LANG away), whatever the machine's locale. Child processes inherit it.
    os.environ["WEIQI_LANG"] = "en"


def pytest_unconfigure(config: pytest.Config) -> None:
    folder = os.environ.pop(_DATA_HOME, None)
    if folder:
        shutil.rmtree(folder, ignore_errors=True)
