"""Fixtures of the board's tests: the stand-in page of the front-end tests (test_frontend*.py,
tests/_live_helpers.py), served once per module, and a fresh page of it per test."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from _live_helpers import open_page, serve_page
from _returning import returning


@pytest.fixture(scope="module")
def server(request: pytest.FixtureRequest) -> Iterator[str]:
    """The stand-in page, served as a file of this module's own."""
    yield from serve_page(f"_{request.module.__name__}_page.html")


@pytest.fixture()
def page(browser: Any, server: str) -> Iterator[Any]:
    """The stand-in page, ready to mount, for a returning player: the first-time panels seen
    before, so none lies over the board (a module that tests the panel opens its own)."""
    for page in open_page(browser, server):
        yield returning(page)
