"""Setting a board up: checking its game, ``bots`` and game options, naming the seats,
dealing its first game and each new one. Who sees what once all are seated is the
seats' policy (``seats``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..bots import BOT_NAMES, make_bot
from ..core.errors import GameError, cut, shown, shown_names
from ..core.game import CardGame, game_type
from ..core.registry import default_game, game_class
from ..core.session import Session, new_session

__all__ = ["SESSION_OPTIONS", "board_game", "bot_kind", "check_bots", "check_game_options", "default_names", "dealt_again", "first_deal", "new_rules"]

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
    if game_type(game).has("new_session"):
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
        base = str(make_bot(bots[seat], seed=0).name)[:30] or "Bot"
        name, n = base, 1
        while name in names or name in HUMAN_NAMES:
            n += 1
            name = f"{base} {n}"
        names.append(name)
    return names


def new_rules(game: CardGame, changes: Any) -> CardGame:
    """``game`` with the rule changes ``new_game(rules=...)`` was given: a mapping of
    option names to values, the game's rules object (``kum.Rules``, ``kum.CourtRules``)
    or None (the rules as they are)."""
    if changes is None:
        return game.with_options({})
    if callable(getattr(changes, "options", None)) and not isinstance(changes, Mapping):
        changes = changes.options()  # a game's rules object (kum.CourtRules): its options
    elif not isinstance(changes, Mapping) and not callable(getattr(changes, "to_dict", None)):
        raise GameError(f"new_game: rules must map rule options to values (or be the game's rules object), got {shown(changes)}")
    try:
        return game.with_options(changes)
    except GameError:
        raise
    except Exception as exc:  # a game's own with_options or __init__ refusing them its own way
        raise GameError(f"new_game: the rules {shown(changes)} were refused ({type(exc).__name__}: {cut(str(exc))})") from exc


def first_deal(game: Any, bots: Any, options: dict[str, Any]) -> tuple[Session, dict[int, Any]]:
    """``GameWidget(game, bots=..., **options)``'s game and bots, every one checked before
    anything is built: a session as it is (no options), or a new game of a CardGame (or of
    a game's name, see ``board_game``), its human seats named Ada, Bo... and its bot seats
    after their bots."""
    game = board_game(game)
    if isinstance(game, Session):
        if options:
            raise GameError(f"pass either a game or game options, not both ({shown_names(options, 3)})")
        return game, check_bots(bots, game.num_players)
    if not isinstance(game, CardGame):
        raise GameError(f"game must be a game (a core.CardGame such as MyGame()) or a session such as kum.Game, got {cut(type(game).__name__, 60)}")
    options = dict(options)
    check_game_options(options, "GameWidget", game)
    specs = check_bots(bots, None)
    changes = options.pop("rules", None)
    rules = game.with_options(changes) if changes is not None else game
    if "players" not in options:
        options["players"] = default_names(specs, max(game_type(rules).players[0], max(specs, default=0) + 1))
    session = new_session(rules, **options)
    return session, check_bots(specs, session.num_players)


def dealt_again(session: Session, specs: dict[int, Any], seed: int | None, bots: Any, options: dict[str, Any]) -> tuple[Session, dict[int, Any]]:
    """``new_game``'s fresh game and bots (``bots`` None: the bots ``specs`` stay), every
    one checked before anything changes. The options default to ``session``'s players and
    rules; a seat still named after its old bot takes its new bot's name."""
    options = dict(options)
    rules = session.game
    check_game_options(options, "new_game", rules)
    if "rules" in options:
        rules = new_rules(rules, options.pop("rules"))
    if "players" in options:
        fresh = new_session(rules, seed=seed, **options)  # the players, seed and rules are checked first
        return fresh, check_bots(specs if bots is None else bots, fresh.num_players)
    names = list(session.players)
    new_specs = check_bots(specs if bots is None else bots, len(names))
    if bots is not None:
        old, new = default_names(specs, len(names)), default_names(new_specs, len(names))
        names = [new[s] if names[s] == old[s] else names[s] for s in range(len(names))]
    return new_session(rules, names, seed=seed, **options), new_specs
