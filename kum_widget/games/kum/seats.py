"""Who plays: seat names and King races, checked (used by the game and its records)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from .cards import RACES, Race
from .errors import InvalidStateError, KumError, shown
from .ruleset import Rules

__all__ = ["king_indexes", "player_names", "rule_kings"]


def player_names(players: int | Sequence[str]) -> tuple[str, ...]:
    """The seats' names: ``players`` names checked, or a count of players named "Player 1"..."""
    if type(players) is int:
        if not 2 <= players <= 4:
            raise InvalidStateError(f"players must be 2..4, got {shown(players)}")
        return tuple(f"Player {i + 1}" for i in range(players))
    if isinstance(players, str) or not isinstance(players, Sequence):
        raise InvalidStateError(f"players must be 2..4 or a list of 2-4 names, got {shown(players)}")
    names = tuple(players)
    if not 2 <= len(names) <= 4:
        raise InvalidStateError(f"players must be 2..4 names, got {len(names)}")
    for i, name in enumerate(names):
        if not isinstance(name, str) or not name.strip() or len(name) > 40 or not name.isprintable() or name != name.strip():
            raise InvalidStateError(
                f"players[{i}]: a name is 1-40 printable characters, no line breaks, "
                f"no spaces at either end; got {shown(name)}"
            )
    if len(set(names)) != len(names):
        raise InvalidStateError(f"players: names must differ, got {list(names)}")
    return names


def king_indexes(races: Iterable[Race | str] | None, players: int) -> list[int] | None:
    """The Kings ``races`` names for ``players`` seats, as race indexes in seat order,
    checked (one each, all different); None for None."""
    if races is None:
        return None
    if not isinstance(races, (list, tuple)):
        raise InvalidStateError(f"races must be a list with one King race per player, got {shown(races)}")
    try:
        kings = [Race.parse(r).index for r in races]
    except KumError as exc:
        raise InvalidStateError(f"races: {exc}") from None
    if len(kings) != players or len(set(kings)) != players:
        raise InvalidStateError(f"races: need {players} different King races, got {[RACES[k].value for k in kings]}")
    return kings


def rule_kings(rules: Rules, players: int) -> list[int] | None:
    """The Kings the rule ``races`` gives ``players`` seats (race indexes, in seat order), or
    None when it leaves them to the seed (``""``)."""
    if not rules.races:
        return None
    kings = [Race.parse(name).index for name in rules.races.split(",")]  # checked when the rules were made
    if len(kings) != players:
        raise InvalidStateError(f"rule 'races' names {len(kings)} King races ({rules.races}): a game of {players} "
                                f"players needs {players}, one per seat")
    return kings
