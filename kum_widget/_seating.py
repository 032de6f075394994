"""Who sits where on a board: checking ``bots`` and game options, naming the seats."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .bots import BOT_NAMES, make_bot
from .core.errors import GameError, cut, shown
from .core.game import CardGame
from .core.registry import default_game, game_class

__all__ = ["SESSION_OPTIONS", "board_game", "bot_kind", "check_bots", "check_game_options", "default_names"]

SESSION_OPTIONS = ("players", "seed", "rules")  # what a new game of any game takes
HUMAN_NAMES = ("Ada", "Bo", "Cy", "Di")
MAX_PLAYERS = 4


def board_game(game: Any) -> Any:
    """``GameWidget``'s ``game`` as a session or a CardGame: a game's name (None: the
    default game, ``core.registry.default_game()``) or a CardGame class becomes a
    CardGame of it with its default options; anything else is returned as it is."""
    if game is None or isinstance(game, str):
        try:
            game = game_class(default_game() if game is None else game)
        except GameError as exc:
            raise GameError(f"game must be a game (its name, a core.CardGame such as MyGame()) or a session such "
                            f"as kum.Game: {exc}") from None
    if isinstance(game, type) and issubclass(game, CardGame):
        try:
            return game()
        except GameError:
            raise
        except Exception as exc:  # a game class that needs arguments
            raise GameError(f"game: {game.__name__}() failed ({type(exc).__name__}: {cut(str(exc))}): pass a game, "
                            "such as MyGame(option=...)") from None
    return game


def check_game_options(options: Mapping[str, Any], where: str, game: CardGame) -> None:
    """Refuse an option a new game of ``game`` does not take. A game with its own
    ``new_session`` takes its own setup options too, and refuses others itself (before
    anything is built)."""
    if callable(getattr(game, "new_session", None)):
        return
    unknown = sorted(map(str, set(options) - set(SESSION_OPTIONS)))
    if unknown:
        raise GameError(f"{where}: unknown option {shown(unknown[0])}; the game options are {', '.join(SESSION_OPTIONS)}")


def check_bots(bots: Any, players: int | None) -> dict[int, Any]:
    """``bots`` as {seat: spec}, every seat and spec checked (``players`` None: up to 4)."""
    if bots is None:
        return {}
    if not isinstance(bots, Mapping):
        raise GameError(f"bots must map seats to bots, like {{1: 'greedy'}}; got {shown(bots)}")
    top = (players or MAX_PLAYERS) - 1
    out: dict[int, Any] = {}
    for seat, spec in bots.items():
        if type(seat) is not int or not 0 <= seat <= top:
            raise GameError(f"bots: a seat is a whole number 0..{top}, got {shown(seat)}")
        if isinstance(spec, str):
            if spec.strip().lower() not in BOT_NAMES:
                raise GameError(f"bots: unknown bot {shown(spec)}; expected one of {', '.join(BOT_NAMES)} or an object with choose()")
        elif not callable(getattr(spec, "choose", None)):
            raise GameError(f"bots: a bot is a name ({', '.join(BOT_NAMES)}) or an object with choose(view, legal), got {shown(spec)}")
        out[seat] = spec
    return out


def bot_kind(spec: Any) -> str | None:
    """The registered name of a bot spec ("greedy"), None for a bot object."""
    return spec.strip().lower() if isinstance(spec, str) else None


def default_names(bots: Mapping[int, Any], count: int | None = None) -> list[str]:
    """Seat names for a new game: humans Ada, Bo, ...; bots by their name, numbered
    when two would share one ("Greedy bot", "Greedy bot 2")."""
    count = count or max(2, max(bots, default=0) + 1)
    names: list[str] = []
    for seat in range(count):
        if seat not in bots:
            names.append(HUMAN_NAMES[seat])
            continue
        base = str(getattr(make_bot(bots[seat], seed=0), "name", "Bot"))[:30] or "Bot"
        name, n = base, 1
        while name in names or name in HUMAN_NAMES:
            n += 1
            name = f"{base} {n}"
        names.append(name)
    return names
