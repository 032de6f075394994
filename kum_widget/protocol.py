"""The game-agnostic protocol that bots, the lab and the widget rely on.

Any card game can reuse kum_widget's bots, simulation lab and board shell by
providing a state object with these members. ``kum.Game`` is the reference
implementation. Actions are opaque, hashable, sortable values whose text form
``action_text`` gives and ``apply`` accepts back.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import Any, Protocol, TypeVar, runtime_checkable

__all__ = ["GameState"]

S = TypeVar("S", bound="GameState")


@runtime_checkable
class GameState(Protocol):
    """A turn-based game position with hidden information."""

    @property
    def num_players(self) -> int: ...

    @property
    def current_player(self) -> int: ...

    @property
    def is_over(self) -> bool: ...

    @property
    def state_id(self) -> int:
        """Changes at every change of the position (a stale id means a stale view)."""
        ...

    def legal_actions(self) -> Sequence[Hashable]:
        """Every legal action of the player to move, in a stable order."""
        ...

    def apply(self, action: Any) -> Sequence[Any]:
        """Apply one legal action (or its text); raise ValueError, unchanged, otherwise."""
        ...

    def action_text(self, action: Any) -> str: ...

    def view(self, seat: int | None) -> dict[str, Any]:
        """JSON-safe observation for ``seat``; nothing private to another seat."""
        ...

    def clone(self: S) -> S: ...

    def scores(self) -> list[int]: ...

    def winners(self) -> list[int]: ...

    def record(self) -> str: ...
