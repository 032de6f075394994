"""``Bot``: the base of a bot, declaring every capability ``bot_move`` asks of one, each
with its default (see :mod:`.base` for ``bot_move`` and ``make_bot``)."""

from __future__ import annotations

from collections.abc import Generator, Hashable, Mapping, Sequence
from typing import Any, NamedTuple, TypeVar

from ..core.errors import GameError, shown
from ..core.game import CardGame, top_actions
from .common import game_of_view, ids_of

__all__ = ["Bot", "Thoughts", "Weighed", "run_through"]

T = TypeVar("T")


def run_through(steps: Generator[None, None, T]) -> T:
    """What a decision in steps (:meth:`Bot.deciding`, ``bot_moving``) returns, run to its end at once."""
    while True:
        try:
            next(steps)
        except StopIteration as stop:
            return stop.value  # type: ignore[no-any-return]


class Weighed(NamedTuple):
    """What a bot made of one legal action at its last decision (None: not measured)."""

    visits: float | None = None
    """Its share of the search's visits, 0..1 (0: never searched)."""
    value: float | None = None
    """How good it looked, 0..1: the estimated chance of winning of the seat that decided;
    a solitaire's search or a heuristic: its score scaled between the worst and the best move's."""
    score: float | None = None
    """A solitaire's search: the final score it expects after the action."""


class Thoughts(NamedTuple):
    """A bot's last decision as it weighed it: each legal action's figures (by id), the
    search's iterations, and what ``value`` measures: ``"win"`` (a chance of winning),
    ``"score"`` (a solitaire's score, scaled) or ``"heuristic"`` (the game's heuristic, scaled)."""

    moves: Mapping[int, Weighed]
    iterations: int = 0
    measure: str = "win"


class Bot:
    """The base of a bot: what ``bot_move`` asks of one, each with a default.

    ============  =========================================================  ============
    capability    what it gives                                              default
    ============  =========================================================  ============
    name          the bot's name on the board and in the lab                 "Bot"
    choose        ``choose(view, legal)``: one of ``legal`` (the session's   through
                  actions) for the seat whose view it is                     ``decide``
    decide        ``decide(game, view, seat, legal, *, position=None)``: an  None: ask
                  action id, with the rules at hand                          ``choose``
    deciding      ``decide`` in steps: a generator that yields now and       ``decide``,
                  then while it searches (a board runs it a slice at a       in one step
                  time on its event loop) and answers by a ``deadline``
    reads_view    False: ``bot_move`` builds no view and passes None         True
    scores_only   True: ``bot_move`` hands a fair heuristic's scores to      False
                  ``pick`` alone (no view, no position)
    pick          ``pick(ids, scores)``: one of ``ids`` by the scores        the first best
    analysis      ``analysis()``: the last decision as weighed                None
                  (:class:`Thoughts`), for the board's "bot's thinking"
    never         kinds of action (``CardGame.action_kind``) the bot never    none
                  takes when it has another choice: ``bot_move`` leaves
                  them out of the legal actions it hands the bot
    ============  =========================================================  ============

    A bot writes ``choose`` or ``decide`` (or both); the other comes from it.
    """

    name: str = "Bot"
    never: frozenset[str] = frozenset()
    """Kinds of action the bot never takes when it has another choice (the lab's restricted
    play, ``kum.lab.restricted``): ``bot_move`` hands it only the other legal actions, unless
    every legal action is of such a kind."""
    reads_view: bool = True
    """False when the bot never reads the view (RandomBot): ``bot_move`` builds none and
    passes ``view=None`` (a view costs more than a move)."""

    @property
    def scores_only(self) -> bool:
        """True when the heuristic's scores are all the bot reads: for a game whose
        heuristic is fair (``CardGame.fair_heuristic``), ``bot_move`` then calls
        :meth:`pick` alone, with no view built and no position dealt."""
        return False

    def choose(self, view: dict[str, Any], legal: Sequence[Hashable]) -> Hashable:
        """One of ``legal`` (the actions as the session hands them out) for the seat whose
        ``view`` this is. The default asks :meth:`decide`, the rules found from the view's
        ``"game"`` name."""
        if len(legal) == 1:
            return legal[0]
        game = game_of_view(view)
        ids = ids_of(game, view, legal)
        aid = self.decide(game, view, view["seat"], ids)
        if aid is None:
            raise GameError(f"{self.name} has neither choose() nor decide(): it cannot move")
        if aid not in ids:
            raise GameError(f"{self.name} chose {shown(aid)}, which is not a legal action")
        return legal[ids.index(aid)]

    def decide(self, game: CardGame, view: dict[str, Any] | None, seat: int, legal: Sequence[int], *,
               position: Any = None) -> int | None:
        """An action id of ``legal`` for ``seat``, with the rules (``game``) to search
        with; ``position`` is the position itself, for a game of perfect information
        only. None (the default): ``bot_move`` asks :meth:`choose` instead."""
        return None

    def deciding(self, game: CardGame, view: dict[str, Any] | None, seat: int, legal: Sequence[int], *,
                 position: Any = None, deadline: float | None = None) -> Generator[None, None, int | None]:
        """:meth:`decide` in steps, for a board: a generator that yields now and then while
        it searches (so that the board's event loop answers clicks meanwhile) and returns
        what ``decide`` would; ``deadline`` (a ``time.perf_counter()`` time, or None) is
        when it answers with the best it has found. The default runs ``decide`` in one
        step; a search writes its own (ISMCTS does)."""
        aid = self.decide(game, view, seat, legal) if position is None else self.decide(game, view, seat, legal, position=position)
        yield from ()
        return aid

    def pick(self, ids: Sequence[int], scores: Sequence[float] | None) -> int:
        """One of ``ids`` by the heuristic's ``scores`` (None: no scores, one id alone or a
        game with no heuristic). Called only for a bot with :attr:`scores_only`. The
        default: the first of the best."""
        if scores is None:
            return ids[0]
        return top_actions(ids, scores)[0]

    def analysis(self) -> Thoughts | None:
        """How the bot weighed the legal actions at its last decision (:class:`Thoughts`),
        for a board's "Show the bot's thinking" and ``kum.bots.analyse``; None (the
        default): it has nothing to show. Asked right after a decision, about that one."""
        return None

    def __repr__(self) -> str:
        return f"{type(self).__name__}()"
