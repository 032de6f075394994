"""The games that ship with kum_widget, each its own package on the core.

Each is installed as a plug-in, like any other game: an entry point in the group
``kum_widget.games`` (pyproject.toml), found by ``core.game_class(name)``. This package
says which of them is the default.
"""

from ..core.registry import set_default_game

DEFAULT_GAME = "kings-under-mountains"
"""The game ``kum.simulate`` and ``kum.GameWidget`` play when given none (the one place
that says so; ``core.registry.default_game()`` reads it)."""

set_default_game(DEFAULT_GAME)
