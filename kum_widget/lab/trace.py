"""Games played with their course kept: what each decision offered, who chose what, and
how each seat stood along the way (standard library only: this runs in worker processes).

A traced run is ``simulate``'s table with four more columns per game, read by the design
report (:mod:`kum_widget.lab.design`):

- ``trace_legal``: the number of legal actions at each decision, in order;
- ``trace_movers``: the seat that chose at each decision;
- ``trace_actions``: the text of the action chosen at each decision;
- ``trace_kinds``: what each decision played, as a kind ("play giant", "draw deck": the
  words of the action's text before its first number, or what ``kinds`` says);
- ``trace_evals``: ``(decision, (chance of seat 0, chance of seat 1, ...))`` at sampled
  decisions and once at the end (the result itself), from the position evaluator;
- and ``trace_turns``: the turns played (the game's own count when it keeps one, else
  runs of one seat's decisions).

The evaluator sees the whole position, every hidden card included: it is an observer's
estimate, measured after the fact, never shown to a bot.
"""

from __future__ import annotations

import math
import random
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, fields
from typing import Any

from ..core.errors import GameError, shown
from ..core.game import CardGame
from .play import Spec, Unfinished, _derive, _make, _past_limit, _row, _seated, new_session

__all__ = ["EVALUATORS", "TraceSpec", "action_kind", "evaluator_of", "ismcts_estimate", "playout_estimate", "trace_session"]

EVALUATORS = ("auto", "game", "ismcts", "playouts", "none")
"""``evaluator=``: ``"auto"`` (the game's ``evaluate`` when it has one, else a short ISMCTS
search for two players, else playouts), ``"game"``, ``"ismcts"``, ``"playouts"``,
``"none"``, or a function ``f(game, state) -> [chance per seat]``."""

ISMCTS_ITERATIONS = 64
"""The budget of the short ISMCTS search that estimates a position (``evaluator="ismcts"``)."""

PLAYOUT_EPSILON = 0.1
"""A playout plays the heuristic's best move, and a move at random this often (as ISMCTS
rolls out)."""

_NUMBER = re.compile(r"[#\d]")


def action_kind(text: str) -> str:
    """What an action is, for "what wins": the words of its text before the first number
    or ``#``, so "play giant 1 #62 on mine 1" is "play giant" and "draw deck" is itself.

    >>> action_kind("play giant 1 #62 on mine 1"), action_kind("draw deck"), action_kind("7")
    ('play giant', 'draw deck', '7')
    """
    words = []
    for word in str(text).split():
        if _NUMBER.search(word):
            break
        words.append(word)
    return " ".join(words) or str(text).strip()


def playout_estimate(game: CardGame, state: Any, players: int, playouts: int, rng: random.Random) -> list[float]:
    """Each seat's share of ``playouts`` games played on from ``state`` (a copy) as ISMCTS
    rolls out: the heuristic's best move, a random one :data:`PLAYOUT_EPSILON` of the time
    (always at random for a game without a heuristic); a shared win splits."""
    totals = [0.0] * players
    for _ in range(playouts):
        s = game.clone(state)
        steps = 0
        while not game.is_over(s) and steps < 10_000:
            legal = game.legal_actions(s)
            best = game.best_actions(s, legal) if rng.random() >= PLAYOUT_EPSILON else None
            pool = best or legal
            game.step(s, pool[int(rng.random() * len(pool))])
            steps += 1
        won = game.winners(s) if game.is_over(s) else []
        for seat in won:
            totals[seat] += 1.0 / len(won)
        if not won:
            for seat in range(players):
                totals[seat] += 1.0 / players
    return [t / playouts for t in totals]


Evaluator = Callable[[CardGame, Any, int, random.Random], "list[float] | None"]


def ismcts_estimate(game: CardGame, state: Any, players: int, rng: random.Random) -> list[float]:
    """The seat to act's chance of winning from ``state``, as a short ISMCTS search from the
    whole position finds it (its root's visits-weighted mean reward); the others share the
    rest. Forced moves are played first (a search needs two moves to weigh)."""
    from ..bots.ismcts import ISMCTSBot

    s = game.clone(state)
    legal: list[int] = []
    while not game.is_over(s):
        legal = game.legal_actions(s)
        if len(legal) > 1:
            break
        game.step(s, legal[0])
    if game.is_over(s):
        won = game.winners(s)
        return [1.0 / len(won) if p in won else 0.0 for p in range(players)] if won else [1.0 / players] * players
    seat = game.current_player(s)
    bot = ISMCTSBot(iterations=ISMCTS_ITERATIONS, seed=rng.getrandbits(32), trees=1, split=False)
    bot.decide(game, None, seat, legal, position=s)
    visits, means = bot.last_stats.get("visits", {}), bot.last_stats.get("means", {})
    total = sum(visits.values())
    mine = sum(visits[a] * means[a] for a in visits) / total if total else 1.0 / players
    out = [(1.0 - mine) / max(1, players - 1)] * players
    out[seat] = mine
    return out


def evaluator_of(game: CardGame, evaluator: Any, playouts: int, where: str = "report", players: int = 2) -> tuple[str, Any]:
    """``evaluator=`` checked: (the method in words, what :class:`TraceSpec` keeps: a name
    of :data:`EVALUATORS` or the user's function)."""
    if callable(evaluator) and not isinstance(evaluator, str):
        return f"{getattr(evaluator, '__name__', 'your evaluator')} (yours)", evaluator
    if not isinstance(evaluator, str) or evaluator not in EVALUATORS:
        raise GameError(f"{where}: evaluator must be one of {', '.join(map(repr, EVALUATORS))} or a function "
                        f"f(game, state) -> [chance per seat], got {shown(evaluator)}")
    if evaluator == "auto":
        evaluator = "game" if _has_evaluate(game) else "ismcts" if players <= 2 else "playouts"
    if evaluator == "game" and not _has_evaluate(game):
        raise GameError(f"{where}: evaluator='game' needs the game's evaluate, and {type(game).__name__} has none "
                        "(evaluator='playouts' estimates by playing on)")
    words = {"game": f"the game's own evaluate ({type(game).__name__}.evaluate)",
             "playouts": f"{playouts} playouts from the position, played as ISMCTS rolls out",
             "ismcts": f"a short ISMCTS search ({ISMCTS_ITERATIONS} iterations) by the seat to act, from the whole position",
             "none": "none"}
    return words[evaluator], evaluator


def _has_evaluate(game: CardGame) -> bool:
    return type(game).evaluate is not CardGame.evaluate


@dataclass(frozen=True)
class TraceSpec(Spec):
    """A run whose games keep their course (see the module): ``simulate``'s spec with the
    evaluator (a name of :data:`EVALUATORS`, resolved, or a function), how often it
    looks (every ``every`` decisions), its ``playouts``, and ``kinds`` (a function from
    an action's text to its kind, or None for :func:`action_kind`)."""

    evaluator: Any = "none"
    every: int = 1
    playouts: int = 8
    kinds: Callable[[str], Any] | None = None

    @classmethod
    def of(cls, spec: Spec, **extra: Any) -> TraceSpec:
        return cls(**{f.name: getattr(spec, f.name) for f in fields(Spec)}, **extra)

    def play(self, game: int) -> dict[str, Any]:
        gs = _derive("kum-lab/game", self.seed, game)
        g = new_session(self.game, self.players, gs)
        seated_specs = _seated(self.bots, game, self.rotate)
        seated = [_make(b, _derive("kum-lab/bot", gs, seat)) for seat, b in enumerate(seated_specs)]
        rng = random.Random(_derive("kum-lab/evaluate", gs))
        from ..bots import bot_move

        course = Course(self, rng)
        while not g.is_over:
            if self.max_actions is not None and g.move_number >= self.max_actions:
                if self.unfinished == "skip":
                    return Unfinished(game=game, seed=gs, actions=self.max_actions)
                raise _past_limit(self, game, gs)
            before = len(g.legal_action_ids())
            seat = g.current_player
            course.look(g)
            action = bot_move(g, seated[seat])
            course.decided(before, seat, g.action_text(action))
            g.apply(action)
        row = _row(g, game, seated_specs)
        row.update(course.columns(g))
        return row


class Course:
    """What a game's decisions offered and how the seats stood, collected as it is played."""

    def __init__(self, spec: TraceSpec, rng: random.Random) -> None:
        self.spec, self.rng = spec, rng
        self.legal: list[int] = []
        self.movers: list[int] = []
        self.kinds: list[str] = []
        self.texts: list[str] = []
        self.evals: list[tuple[int, tuple[float, ...]]] = []

    def look(self, g: Any) -> None:
        """Evaluate the position before decision ``len(self.legal)`` when it is sampled."""
        spec, i = self.spec, len(self.legal)
        if spec.evaluator == "none" or i % spec.every:
            return
        players = g.num_players
        if spec.evaluator == "game":
            values = g.game.evaluate(g.state)
        elif spec.evaluator == "playouts":
            values = playout_estimate(g.game, g.state, players, spec.playouts, self.rng)
        elif spec.evaluator == "ismcts":
            values = ismcts_estimate(g.game, g.state, players, self.rng)
        else:
            try:  # the user's function: its failure named as the evaluator's
                values = spec.evaluator(g.game, g.game.clone(g.state))
            except Exception as exc:
                name = getattr(spec.evaluator, "__name__", "the evaluator")
                raise GameError(f"the position evaluator {name}(game, state) raised {type(exc).__name__}: {exc}") from None
        self.evals.append((i, _chances(values, players)))

    def decided(self, legal: int, seat: int, text: str) -> None:
        self.legal.append(legal)
        self.movers.append(seat)
        self.texts.append(text)
        try:  # the user's function: its failure named as kinds'
            kind = action_kind(text) if self.spec.kinds is None else self.spec.kinds(text)
        except Exception as exc:
            raise GameError(f"traced: kinds({text!r}) raised {type(exc).__name__}: {exc}") from None
        self.kinds.append(str(kind) if kind is not None else "")

    def columns(self, g: Any) -> dict[str, Any]:
        n = g.num_players
        won = list(g.winners())
        if self.spec.evaluator != "none":
            end = tuple(1.0 / len(won) if s in won else 0.0 for s in range(n)) if won else (1.0 / n,) * n
            self.evals.append((len(self.legal), end))
        return {"trace_turns": turns_of(g, self.movers), "trace_legal": tuple(self.legal),
                "trace_movers": tuple(self.movers), "trace_kinds": tuple(self.kinds),
                "trace_actions": tuple(self.texts), "trace_evals": tuple(self.evals)}


def _chances(values: Any, players: int) -> tuple[float, ...]:
    """An evaluator's answer checked: one finite number per seat."""
    try:
        out = tuple(float(v) for v in values)
    except (TypeError, ValueError):
        raise GameError(f"the position evaluator must give one number per seat, got {shown(values)}") from None
    if len(out) != players or not all(math.isfinite(v) for v in out):
        raise GameError(f"the position evaluator must give {players} finite numbers (one per seat), got {shown(values)}")
    return out


def turns_of(g: Any, movers: Sequence[int]) -> int:
    """The turns a finished game took: the game's own count when it keeps one
    (``CardGame.turn`` at the end), else runs of one seat's decisions."""
    counted = g.game.turn(g.state)
    if counted is not None:
        return int(counted)
    runs, last = 0, None
    for seat in movers:
        if seat != last:
            runs, last = runs + 1, seat
    return runs


def trace_session(session: Any, *, evaluator: Any = "auto", every: int | None = None, playouts: int = 8,
                  kinds: Callable[[str], Any] | None = None, where: str = "class_games") -> dict[str, Any]:
    """The course of a finished game played anywhere (on a board, from a script): its
    decisions played again from its first position, measured as a traced run measures
    a bot's game. Returns the trace columns (see the module)."""
    from ..core.session import Session

    if not isinstance(session, Session) or not session.is_over:
        raise GameError(f"{where}: expected a finished game, got {'a game still going' if isinstance(session, Session) else shown(session)}")
    _, resolved = evaluator_of(session.game, evaluator, playouts, where, session.num_players)
    g = session.clone()
    history = list(g.history)
    g.undo(len(history))
    spec = TraceSpec(0, g.num_players, ("human",) * g.num_players, g.game, False, None, "raise",
                     resolved, every or (1 if resolved == "game" else 5), playouts, kinds)
    course = Course(spec, random.Random(_derive("kum-lab/evaluate", session.seed or 0)))
    for action in history:
        course.look(g)
        course.decided(len(g.legal_action_ids()), g.current_player, g.action_text(action))
        g.apply(action)
    return course.columns(g)
