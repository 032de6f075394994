"""What a bot makes of a position: :func:`analyse` asks a bot for the move of the seat to
act, as :func:`~.base.bot_move` does (the bot sees that seat's view only), and gives back
how it weighed every legal action: its share of the search's visits and its value (for
ISMCTS, the chance of winning it estimates for that seat). "Why did the bot play that?",
answered from a cell; a board's hint (``GameWidget.hint``) is the same call.

>>> from kum_widget.core import Session
>>> from kum_widget.core.examples import Bust
>>> table = analyse(Session(Bust(), ["Ada", "Bo"], seed=1), "greedy")
>>> table.chosen, [m.action.text for m in table.moves][:2]
(Action(2, 'play 3'), ['play 3', 'play 5'])
"""

from __future__ import annotations

from collections.abc import Generator
from dataclasses import dataclass
from typing import Any

from ..core.errors import GameError, shown
from ..core.session import Session
from .base import bot_moving, make_bot
from .bot import Bot, Thoughts, Weighed, run_through

__all__ = ["Analysis", "Considered", "analyse", "analysing", "ranked"]


@dataclass(frozen=True)
class Considered:
    """One legal action as the bot weighed it (None: not measured)."""

    action: Any  # the session's Action: its id, with .text
    visits: float | None  # share of the search's visits, 0..1
    value: float | None  # 0..1: the estimated chance of winning (see Analysis.measure)
    score: float | None = None  # a solitaire's search: the final score it expects


@dataclass(frozen=True)
class Analysis:
    """A bot's decision for ``seat``: every legal action (``moves``, the most visited first,
    then the best valued), the one it ``chosen``, its search's ``iterations``, and what
    ``value`` measures (``"win"``: a chance of winning; ``"score"``: a solitaire's expected
    score, scaled between its worst and best move; ``"heuristic"``: the game's heuristic,
    scaled). Printed, it is a table."""

    seat: int
    bot: str
    iterations: int
    measure: str
    chosen: Any
    moves: tuple[Considered, ...]

    def thoughts(self) -> Thoughts:
        """The figures by action id, as a bot's ``analysis()`` gives them."""
        return Thoughts({int(m.action): Weighed(m.visits, m.value, m.score) for m in self.moves}, self.iterations, self.measure)

    def rows(self) -> list[dict[str, Any]]:
        """The table as rows (``pandas.DataFrame(analysis.rows())``)."""
        return [{"action": m.action.text, "visits": m.visits, "value": m.value, "score": m.score,
                 "chosen": m.action == self.chosen} for m in self.moves]

    def __repr__(self) -> str:
        def pct(x: float | None) -> str:
            return "-" if x is None else f"{x:.0%}"

        head = f"{self.bot} for seat {self.seat}" + (f", {self.iterations} iterations" if self.iterations else "")
        label = {"win": "win chance", "score": "score", "heuristic": "heuristic"}.get(self.measure, "value")
        width = max([len("action"), *(len(m.action.text) for m in self.moves)])
        lines = [head, f"  {'action':<{width}}  visits  {label}"]
        for m in self.moves:
            value = f"{m.score:.1f}" if m.score is not None else pct(m.value)
            mark = "  <- chosen" if m.action == self.chosen else ""
            lines.append(f"  {m.action.text:<{width}}  {pct(m.visits):>6}  {value:>{len(label)}}{mark}")
        return "\n".join(lines)


def ranked(thoughts: Thoughts, ids: list[int]) -> list[tuple[int, Any]]:
    """``ids`` with their figures, the most visited first, then the best valued (stable)."""
    def key(a: int) -> tuple[float, float]:
        w = thoughts.moves.get(a)
        if w is None:
            return (0.0, 1.0)
        return (-(w.visits or 0.0), -(w.value if w.value is not None else -1.0))

    return [(a, thoughts.moves.get(a)) for a in sorted(ids, key=key)]


def analyse(session: Any, bot: Any = "ismcts", *, seat: int | None = None, seed: int = 0) -> Analysis:
    """How ``bot`` (a name, ``"ismcts"`` by default, or a bot object) weighs the legal actions
    of the seat to act in ``session``: a small table (:class:`Analysis`). The bot sees that
    seat's view only (``game.view(seat)``), never the hidden cards; the game is not changed.
    ``seat``, when given, must be the seat to act (a bot weighs only its moves). A named
    bot is seeded with ``seed``: the same position gives the same table."""
    return run_through(analysing(session, bot, seat=seat, seed=seed))


def analysing(session: Any, bot: Any = "ismcts", *, seat: int | None = None, seed: int = 0,
              deadline: float | None = None) -> Generator[None, None, Analysis]:
    """:func:`analyse` in steps, for a board's Hint: a generator that yields while the bot
    searches and returns the table; ``deadline`` (a ``time.perf_counter()`` time): when the
    search answers with what it has found. The session must not change until it returns."""
    if not isinstance(session, Session):
        raise GameError(f"analyse takes a game's session (a kum.Game, a kum.Court, a core.Session), got {type(session).__name__}")
    if session.is_over:
        raise GameError("the game is over: there is no decision to weigh")
    cur = session.current_player
    if seat is not None and (type(seat) is not int or seat != cur):
        who = session.players[seat] if type(seat) is int and 0 <= seat < session.num_players else shown(seat)
        raise GameError(f"it is {session.players[cur]}'s turn (seat {cur}), not {who}'s: a bot weighs the moves of the seat to act")
    if type(seed) is not int:
        raise GameError(f"seed must be a whole number, got {shown(seed)}")
    player: Bot = make_bot(bot, seed=seed) if isinstance(bot, str) else make_bot(bot)
    chosen = yield from bot_moving(session, player, deadline=deadline)
    thoughts = player.analysis()
    if thoughts is None:
        raise GameError(f"{player.name} shows no analysis of its moves (the random bot weighs nothing): try 'ismcts' or 'greedy'")
    actions = {int(a): a for a in session.legal_actions()}
    moves = tuple(Considered(actions[a], None, None) if w is None else Considered(actions[a], w.visits, w.value, w.score)
                  for a, w in ranked(thoughts, list(actions)))
    return Analysis(cur, player.name, thoughts.iterations, thoughts.measure, chosen, moves)
