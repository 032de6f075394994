"""The bot protocol (:class:`Bot`), the random bot, bots by name, and asking a bot for a move.

A bot sees exactly what its seat may see. The simple protocol is ``choose(view,
legal)``: the seat's view and the legal actions, returning one of them. The bots that
search (greedy, ISMCTS) also implement ``decide(game, view, seat, legal)``: the game's
rules (a ``core.CardGame``), the same view, and the legal action ids; they deal
themselves positions consistent with the view through the game's hooks. No bot gets
the session, nor the real position unless the game has perfect information and no
simultaneous steps (then ``position=`` is a copy: nothing in it is private; a sealed pick
is never handed over, whatever the game declares), so no bot can read hidden cards.

Every capability ``bot_move`` asks of a bot is declared on :class:`Bot`, with its
default. Any object with ``choose`` (or ``decide``) and ``name`` is a bot too:
:func:`make_bot` (and ``bot_move``) wraps it in a :class:`Bot` that asks it what it has.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Generator, Hashable, Sequence
from typing import Any

from ..core.errors import GameError, shown
from ..core.game import CardGame, game_type, nothing_hidden
from .bot import Bot, Thoughts, run_through

__all__ = ["Bot", "RandomBot", "make_bot", "bot_move", "bot_moving", "BOT_NAMES"]


class RandomBot(Bot):
    """Picks uniformly among the legal actions (seeded: it replays)."""

    reads_view = False  # bot_move passes view=None: it is never read

    def __init__(self, seed: int | None = None) -> None:
        self.name = "Random bot"
        self._rng = random.Random(seed)

    def choose(self, view: dict[str, Any] | None, legal: Sequence[Hashable]) -> Hashable:
        return legal[self._rng.randrange(len(legal))]

    def decide(self, game: CardGame, view: dict[str, Any] | None, seat: int, legal: Sequence[int], *, position: Any = None) -> int:
        return legal[self._rng.randrange(len(legal))]


class _ObjectBot(Bot):
    """A bot written as any object with ``choose(view, legal)`` (or ``decide``) and a
    ``name`` (README, "Bots"): the :class:`Bot` defaults, and what the object has of its own.
    This is the one place a bot's capabilities are looked up by name."""

    def __init__(self, bot: Any) -> None:
        self.bot = bot  # the object as it was given
        self._choose = getattr(bot, "choose", None)
        self._decide = getattr(bot, "decide", None)
        self._pick = getattr(bot, "pick", None)
        self._analysis = getattr(bot, "analysis", None)
        self.reads_view = bool(getattr(bot, "reads_view", True))
        self._scores_only = bool(getattr(bot, "scores_only", False)) and callable(self._pick)

    @staticmethod
    def fits(obj: Any) -> bool:
        """Is ``obj`` a bot (it has ``choose`` or ``decide``)?"""
        return callable(getattr(obj, "choose", None)) or callable(getattr(obj, "decide", None))

    @property
    def name(self) -> str:  # type: ignore[override]  # (read from the object each time: it may rename itself)
        name = getattr(self.bot, "name", None)
        return name if isinstance(name, str) and name.strip() else type(self.bot).__name__

    @property
    def scores_only(self) -> bool:
        return self._scores_only

    def choose(self, view: dict[str, Any], legal: Sequence[Hashable]) -> Hashable:
        if callable(self._choose):
            return self._choose(view, legal)  # type: ignore[no-any-return]
        return super().choose(view, legal)

    def decide(self, game: CardGame, view: dict[str, Any] | None, seat: int, legal: Sequence[int], *,
               position: Any = None) -> int | None:
        if not callable(self._decide):
            return None
        if position is None:  # (an object's own decide may take no position: it is passed only when there is one)
            return self._decide(game, view, seat, legal)  # type: ignore[no-any-return]
        return self._decide(game, view, seat, legal, position=position)  # type: ignore[no-any-return]

    def pick(self, ids: Sequence[int], scores: Sequence[float] | None) -> int:
        return self._pick(ids, scores)  # type: ignore[misc, no-any-return]

    def analysis(self) -> Thoughts | None:
        found = self._analysis() if callable(self._analysis) else None
        return found if isinstance(found, Thoughts) else None  # (anything else is not a bot's analysis: nothing to show)

    def __repr__(self) -> str:
        return f"make_bot({self.bot!r})"


def make_bot(spec: Any, *, seed: int | None = None) -> Bot:
    """A bot from a name (``"random"``, ``"greedy"``, ``"ismcts"``), a :class:`Bot`, or any
    object with ``choose`` (or ``decide``): such an object is wrapped in a :class:`Bot`
    that asks it what it has (its ``name``, ``reads_view``...); ``.bot`` is the object."""
    if isinstance(spec, str):
        key = spec.strip().lower()
        factory = _registry().get(key)
        if factory is None:
            raise GameError(f"unknown bot {shown(spec)}: expected one of {', '.join(BOT_NAMES)} or an object with choose()")
        return factory(seed)
    if isinstance(spec, Bot):
        return spec
    if _ObjectBot.fits(spec):
        return _ObjectBot(spec)
    raise GameError(f"a bot is a name ({', '.join(BOT_NAMES)}) or an object with choose(view, legal), got {shown(spec)}")


BOT_NAMES = ("random", "greedy", "ismcts")


def _registry() -> dict[str, Callable[[int | None], Bot]]:
    from .greedy import GreedyBot
    from .ismcts import ISMCTSBot

    return {
        "random": lambda seed: RandomBot(seed),
        "greedy": lambda seed: GreedyBot(seed),
        "ismcts": lambda seed: ISMCTSBot(seed=seed),
    }


def bot_move(session: Any, bot: Any, *, kinds: Sequence[str] | None = None) -> Any:
    """Ask ``bot`` (a :class:`Bot`, or any object :func:`make_bot` takes) for the move of
    the seat to act, showing it only that seat's view; return the action as the session
    hands actions out (``session.legal_actions()``).

    Raises a GameError if the bot answers with something that is not a legal action.
    A bot with ``reads_view = False`` is passed ``view=None`` (no view is built). A bot
    with ``scores_only`` true (the greedy bot) is handed only the heuristic's scores of
    the legal actions, ``bot.pick(ids, scores)``, when the game's heuristic is fair
    (``CardGame.fair_heuristic``): no view is built and no position dealt. Otherwise its
    ``decide`` is asked, and when that gives None, its ``choose``. A bot that never takes
    some kinds (``Bot.never``) is handed only the other legal actions (all of them when
    every one is of such a kind); ``kinds``: the legal actions' kinds, when the caller has
    them already (``session.action_kinds()``).
    """
    return run_through(bot_moving(session, bot, kinds=kinds))


def bot_moving(session: Any, bot: Any, *, kinds: Sequence[str] | None = None,
               deadline: float | None = None) -> Generator[None, None, Any]:
    """:func:`bot_move` in steps, for a board: a generator that yields while the bot
    searches (its :meth:`Bot.deciding`) and returns the action. ``deadline`` (a
    ``time.perf_counter()`` time): when a search answers with the best it has. The
    session must not change until it returns."""
    if not isinstance(bot, Bot):
        bot = make_bot(bot)
    seat = session.current_player
    game = session.game
    ids = session.legal_action_ids()
    every = ids
    if bot.never:  # the kinds are the seat's own actions': nothing hidden is read for it
        kept = [a for a, kind in zip(ids, kinds or session.action_kinds(), strict=True) if kind not in bot.never]
        ids = kept or ids
    if bot.scores_only and game_type(game).fair_heuristic:  # the scores are all it reads
        scores = None if len(ids) == 1 else session.heuristic_scores() if ids is every else session.heuristic_scores(ids)
        aid = bot.pick(ids, scores)
        if aid not in ids:
            raise GameError(f"{bot.name} chose {shown(aid)}, which is not a legal action")
        return session.action(aid)
    view: Any = session.view(seat) if bot.reads_view else None
    if nothing_hidden(game):  # the bot may have the position itself (never with sealed picks, whatever the game declares)
        aid = yield from bot.deciding(game, view, seat, ids, position=session.state, deadline=deadline)
    else:
        aid = yield from bot.deciding(game, view, seat, ids, deadline=deadline)
    if aid is not None:
        if aid not in ids:
            raise GameError(f"{bot.name} chose {shown(aid)}, which is not a legal action")
        return session.action(aid)
    legal = list(session.legal_actions())
    if ids is not every:  # (legal_actions lists the actions in legal_action_ids' order)
        legal = [a for a, aid in zip(legal, every, strict=True) if aid in ids]
    choice = bot.choose(view, legal)
    if choice not in legal:
        raise GameError(f"{bot.name} chose {shown(choice)}, which is not a legal action")
    return choice
