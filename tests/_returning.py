"""A returning player's browser, for the stand-in page's tests (tests/_live_helpers.py): every
shipped game's first-time panel already dismissed (guide.js keeps that in localStorage, per
game title), since the panel lies over the board (issue 42) where these tests click. The
tests of the panel itself start from a new browser (``new_player``)."""

from __future__ import annotations

from typing import Any

import kum_widget as kum
from kum_widget import gallery

__all__ = ["TITLES", "new_player", "returning"]

TITLES = [kum.Game(["Ada", "Bo"]).title, kum.Court().title, *(getattr(gallery, name).title for name in gallery.__all__)]


def returning(page: Any) -> Any:
    """``page`` with every shipped game's first-time panel dismissed before; returns it."""
    page.evaluate("titles => { for (const t of titles) localStorage.setItem('kum-widget:intro:' + t, '1'); }", TITLES)
    return page


def new_player(page: Any) -> Any:
    """``page`` as a browser that has seen no game yet; returns it."""
    page.evaluate("() => localStorage.clear()")
    return page
