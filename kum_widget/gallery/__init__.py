"""The gallery: small whole games to read and copy, one module each, each passing
``core.check_game``, playing on the board and running in the lab.

- :mod:`~kum_widget.gallery.undercut` (``Undercut``): simultaneous choices, both players
  pick at once, hidden until both have (``to_act``).
- :mod:`~kum_widget.gallery.connect_four` (``ConnectFour``): a grid of cells holding discs,
  a whole column clickable as one.
- :mod:`~kum_widget.gallery.whispers` (``Whispers``): targeted effects between players,
  choice menus, notes told to two seats.
- :mod:`~kum_widget.gallery.workers` (``Woodcutters``): worker placement, places with
  capacities, meeples and resource cubes.

Each is installed as a game by name (an entry point of the group ``kum_widget.games``,
pyproject.toml), so ``kum.GameWidget("connect-four")`` and ``kum.lab.report("connect-four")``
find it without importing anything first:

>>> from kum_widget import core
>>> from kum_widget.gallery import ConnectFour
>>> core.game_class("connect-four") is ConnectFour
True
"""

from __future__ import annotations

from .connect_four import ConnectFour
from .undercut import Undercut
from .whispers import Whispers
from .workers import Woodcutters

__all__ = ["ConnectFour", "Undercut", "Whispers", "Woodcutters"]
