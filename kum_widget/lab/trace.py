"""Games played with their course kept: what each decision offered, who chose what, and
how each seat stood along the way (standard library only: this runs in worker processes).

A traced run is ``simulate``'s table with four more columns per game, read by the design
report (:mod:`kum_widget.lab.design`):

- ``trace_legal``: the number of legal actions at each decision, in order;
- ``trace_movers``: the seat that chose at each decision;
- ``trace_actions``: the text of the action chosen at each decision;
- ``trace_kinds``: what each decision played, as a kind ("draw deck", "column 4": the
  game's ``action_kind``, else the words of the action's text before its first number,
  or what ``kinds`` says);
- ``trace_evals``: ``(decision, (chance of seat 0, chance of seat 1, ...))`` at sampled
  decisions and once at the end (the result itself), from the position evaluator;
- ``trace_options``: at sampled decisions (the option analysis: ``option_every``),
  ``(decision, seat, values, errors, options)``: the value for the seat that chooses of
  each different position its options lead to (a chance of winning; a solitaire: a
  score), with each value's standard error (0 from the game's ``evaluate``), and how many
  different positions there were; from playouts, the values are those of the best and the
  worst option, then the same two estimated again on fresh playouts (the pair compared);
- ``trace_same``: True when every decision of the game led to one position whatever was
  chosen (or was forced): no decision of it mattered;
- ``trace_contested``: for each seat, the kinds it had to choose between at some
  decision (a legal action of that kind beside one of another kind): a restriction to
  any other kind never bit that seat in that game (the game's own kinds only);
- and ``trace_turns``: the turns played (the game's own count when it keeps one, else
  runs of one seat's decisions).

The evaluator sees the whole position, every hidden card included: it is an observer's
estimate, measured after the fact, never shown to a bot.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, fields
from typing import Any

from ..core.errors import GameError, shown
from ..core.game import CardGame, game_type
from ..core.results import turns_played
from .play import Spec, Unfinished, bot_of, finished_row, limit_error, new_session, seating, stable_number

__all__ = ["CONFIRM_PLAYOUTS", "EVALUATORS", "OPTION_EVERY", "OPTION_GAMES", "OPTION_PLAYOUTS", "ROLLOUT_STEPS", "TraceSpec", "evaluator_of",
           "ismcts_estimate", "playout_estimate", "playout_values", "trace_session"]

EVALUATORS = ("auto", "game", "ismcts", "playouts", "none")
"""``evaluator=``: ``"auto"`` (the game's ``evaluate`` when it has one, else playouts),
``"game"``, ``"ismcts"`` (a short search: better estimates, about ten times the work),
``"playouts"``, ``"none"``, or a function ``f(game, state) -> [chance per seat]``."""

ISMCTS_ITERATIONS = 64
"""The budget of the short ISMCTS search that estimates a position (``evaluator="ismcts"``)."""

PLAYOUT_EPSILON = 0.1
"""A playout plays the heuristic's best move, and a move at random this often (as ISMCTS
rolls out)."""

ROLLOUT_STEPS = 200
"""The most moves one playout (or one rollout of the ISMCTS estimate) plays: an estimate's
step budget, so it takes the same work on every executor and never runs for hours on a
game that goes on. A playout cut there counts as even (a solitaire: its score then)."""


def playout_estimate(game: CardGame, state: Any, players: int, playouts: int, rng: random.Random,
                     steps: int = ROLLOUT_STEPS) -> list[float]:
    """Each seat's share of ``playouts`` games played on from ``state`` (a copy) as ISMCTS
    rolls out: the heuristic's best move, a random one :data:`PLAYOUT_EPSILON` of the time
    (always at random for a game without a heuristic); a shared win splits, and a playout
    past ``steps`` moves counts as even. A solitaire: its mean final score."""
    return playout_values(game, state, players, playouts, rng, steps)[0]


def playout_values(game: CardGame, state: Any, players: int, playouts: int, rng: random.Random,
                   steps: int = ROLLOUT_STEPS) -> tuple[list[float], list[float]]:
    """:func:`playout_estimate` with each seat's standard error (of the mean of its
    ``playouts`` results)."""
    results: list[list[float]] = []
    for _ in range(playouts):
        s = game.clone(state)
        moves = 0
        while moves < steps and not game.is_over(s):
            legal = game.legal_actions(s)
            best = game.best_actions(s, legal) if rng.random() >= PLAYOUT_EPSILON else None
            pool = best or legal
            game.step(s, pool[int(rng.random() * len(pool))])
            moves += 1
        if players == 1:
            results.append([float(game.scores(s)[0])])
            continue
        won = game.winners(s) if game.is_over(s) else []
        results.append([1.0 / len(won) if p in won else 0.0 for p in range(players)] if won else [1.0 / players] * players)
    means = [sum(r[p] for r in results) / playouts for p in range(len(results[0]))]
    if playouts < 2:
        return means, [math.inf] * len(means)
    ses = [math.sqrt(sum((r[p] - means[p]) ** 2 for r in results) / (playouts - 1) / playouts) for p in range(len(means))]
    return means, ses


Evaluator = Callable[[CardGame, Any, int, random.Random], "list[float] | None"]


def ismcts_estimate(game: CardGame, state: Any, players: int, rng: random.Random) -> list[float]:
    """The seat to act's chance of winning from ``state``, as a short ISMCTS search from the
    whole position finds it (its root's visits-weighted mean reward; rollouts of at most
    :data:`ROLLOUT_STEPS` moves); the others share the rest. Forced moves are played first
    (a search needs two moves to weigh), :data:`ROLLOUT_STEPS` of them at most."""
    from ..bots.ismcts import ISMCTSBot

    s = game.clone(state)
    legal: list[int] = []
    for _ in range(ROLLOUT_STEPS):
        if game.is_over(s):
            break
        legal = game.legal_actions(s)
        if len(legal) > 1:
            break
        game.step(s, legal[0])
    if len(legal) < 2 and not game.is_over(s):  # forced moves without end: even
        return [1.0 / players] * players
    if game.is_over(s):
        won = game.winners(s)
        return [1.0 / len(won) if p in won else 0.0 for p in range(players)] if won else [1.0 / players] * players
    seat = game.current_player(s)
    bot = ISMCTSBot(iterations=ISMCTS_ITERATIONS, seed=rng.getrandbits(32), trees=1, split=False,
                    rollout_limit=ROLLOUT_STEPS)
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
        evaluator = "game" if _has_evaluate(game) else "playouts"
    if evaluator == "game" and not _has_evaluate(game):
        raise GameError(f"{where}: evaluator='game' needs the game's evaluate, and {type(game).__name__} has none "
                        "(evaluator='playouts' estimates by playing on)")
    words = {"game": f"the game's own evaluate ({type(game).__name__}.evaluate)",
             "playouts": f"{playouts} playouts from the position, played as ISMCTS rolls out",
             "ismcts": f"a short ISMCTS search ({ISMCTS_ITERATIONS} iterations) by the seat to act, from the whole position",
             "none": "none"}
    return words[evaluator], evaluator


def _has_evaluate(game: CardGame) -> bool:
    return game_type(game).has("evaluate")


OPTION_EVERY = 5
"""The option analysis looks at one decision in this many (chosen by the game's seed and
the decision's number, so every executor looks at the same ones)."""

OPTION_GAMES = 20
"""The option analysis looks at the first this many games of a run (its cost grows with
the options a decision has: every option is played and its position estimated)."""

OPTION_PLAYOUTS = 4
"""Playouts an option's position gets, for a game without ``evaluate``."""

CONFIRM_PLAYOUTS = 16
"""Fresh playouts for the best and the worst option of a decision, the two that are compared
(a game without ``evaluate``)."""


@dataclass(frozen=True)
class TraceSpec(Spec):
    """A run whose games keep their course (see the module): ``simulate``'s spec with the
    evaluator (a name of :data:`EVALUATORS`, resolved, or a function), how often it
    looks (every ``every`` decisions), its ``playouts``, ``kinds`` (a function from an
    action's text to its kind, or None for the game's kinds: ``core.game.action_kinds``),
    and the option analysis: in the first ``option_games`` games, one decision in
    ``option_every`` (0: none)."""

    evaluator: Any = "none"
    every: int = 1
    playouts: int = 8
    kinds: Callable[[str], Any] | None = None
    option_every: int = 0
    option_games: int = OPTION_GAMES

    @classmethod
    def of(cls, spec: Spec, **extra: Any) -> TraceSpec:
        return cls(**{f.name: getattr(spec, f.name) for f in fields(Spec)}, **extra)

    def play(self, game: int) -> dict[str, Any]:
        """Play game ``game`` with the bots, keeping what each decision offered; then, when
        it ended and there is anything to measure, play its actions again from the deal,
        measuring each position (so a game that never ends costs no estimate)."""
        gs = stable_number("kum-lab/game", self.seed, game)
        g = new_session(self.game, self.players, gs)
        seated_specs = seating(self.bots, game, self.rotate)
        seated = [bot_of(b, stable_number("kum-lab/bot", gs, seat)) for seat, b in enumerate(seated_specs)]
        from ..bots import bot_move

        analyse = self.option_every > 0 and game < self.option_games
        course = Course(self, random.Random(stable_number("kum-lab/evaluate", gs)), gs if analyse else None)
        played: list[Any] = []
        while not g.is_over:
            if self.max_actions is not None and g.move_number >= self.max_actions:
                if self.unfinished == "skip":
                    return Unfinished(game=game, seed=gs, actions=self.max_actions)
                raise limit_error(self, game, gs)
            before = len(g.legal_action_ids())
            seat = g.current_player
            course.check_same(g)
            action = bot_move(g, seated[seat])
            course.decided(before, seat, g, int(action))
            played.append(action)
            g.apply(action)
        if self.evaluator != "none" or analyse:
            game_, state = self.game, new_session(self.game, self.players, gs).state
            for action in played:
                course.look(game_, state, self.players)
                game_.step(state, int(action))
        row = finished_row(g, game, seated_specs)
        row.update(course.columns(g))
        return row


class Course:
    """What a game's decisions offered and how the seats stood, collected as it is played.
    ``seed``: the game's, when its decisions' options are analysed (else None)."""

    def __init__(self, spec: TraceSpec, rng: random.Random, seed: int | None = None) -> None:
        self.spec, self.rng, self.seed = spec, rng, seed
        self.legal: list[int] = []
        self.movers: list[int] = []
        self.kinds: list[str] = []
        self.texts: list[str] = []
        self.evals: list[tuple[int, tuple[float, ...]]] = []
        self.options: list[tuple[int, int, tuple[float, ...], tuple[float, ...], int]] = []
        self.looked = 0  # decisions looked at so far (look() is called once before each)
        self.contested: dict[int, set[str]] = {}  # by seat: the kinds it had to choose between at some decision
        self.same = True  # every decision so far led to one position whatever was chosen

    def check_same(self, g: Any) -> None:
        """While every decision so far led to one position, whatever was chosen: does this
        one too? (Once one did not, nothing is left to prove: no more work.)"""
        if not self.same:
            return
        ids = g.legal_action_ids()
        if len(ids) > 1:
            game, state = g.game, g.state
            first = game.clone(state)
            game.step(first, ids[0])
            for a in ids[1:]:
                other = game.clone(state)
                game.step(other, a)
                if not game.same(first, other):
                    self.same = False
                    return

    def look(self, game: CardGame, state: Any, players: int) -> None:
        """Measure ``state``, the position before decision ``self.looked`` (not changed):
        the evaluator when it is sampled, the options when they are."""
        spec, i = self.spec, self.looked
        self.looked += 1
        if self.seed is not None and stable_number("kum-lab/options", self.seed, i) % spec.option_every == 0:
            self._analyse(game, state, players, i)
        if spec.evaluator == "none" or i % spec.every:
            return
        if spec.evaluator == "game":
            values = game.evaluate(state)
        elif spec.evaluator == "playouts":
            values = playout_estimate(game, state, players, spec.playouts, self.rng)
        elif spec.evaluator == "ismcts":
            values = ismcts_estimate(game, state, players, self.rng)
        else:
            try:  # the user's function: its failure named as the evaluator's
                values = spec.evaluator(game, game.clone(state))
            except Exception as exc:
                name = getattr(spec.evaluator, "__name__", "the evaluator")
                raise GameError(f"the position evaluator {name}(game, state) raised {type(exc).__name__}: {exc}") from None
        self.evals.append((i, _chances(values, players)))

    def _analyse(self, game: CardGame, state: Any, n: int, i: int) -> None:
        """Decision ``i``'s options: the different positions its legal actions lead to (two
        names for one move are one option), each estimated for the seat that chooses (the
        game's ``evaluate``, else :data:`OPTION_PLAYOUTS` playouts), with its standard error."""
        ids = game.legal_actions(state)
        if len(ids) < 2:
            return
        seat = game.current_player(state)
        distinct: list[tuple[Any, dict[str, Any]]] = []
        for a in ids:
            after = game.clone(state)
            game.step(after, a)
            seen = game.view(after, None)  # different full views: different positions, with no slower same() asked
            if not any(seen == v and game.same(after, d) for d, v in distinct):
                distinct.append((after, seen))
        values, errors = [], []
        for pos, _ in distinct:
            value, error = self._estimate(game, pos, n, seat, OPTION_PLAYOUTS)
            values.append(value)
            errors.append(error)
        if len(values) > 1 and any(errors):
            # The best and the worst of several noisy estimates are further apart than their options are: they
            # were picked for it. So those two are estimated again, on fresh playouts, and only these are compared.
            best = max(range(len(values)), key=lambda k: values[k])
            worst = min(range(len(values)), key=lambda k: values[k])
            again = [self._estimate(game, distinct[k][0], n, seat, CONFIRM_PLAYOUTS) for k in (best, worst)]
            values, errors = [values[best], values[worst], again[0][0], again[1][0]], [errors[best], errors[worst],
                                                                                       again[0][1], again[1][1]]
            self.options.append((i, seat, tuple(values), tuple(errors), len(distinct)))
            return
        self.options.append((i, seat, tuple(values), tuple(errors), len(distinct)))

    def _estimate(self, game: CardGame, pos: Any, n: int, seat: int, playouts: int) -> tuple[float, float]:
        """The value of ``pos`` for ``seat`` and its standard error: the result when the game is
        over, the game's ``evaluate`` (no error), else ``playouts`` playouts (the error of a
        share with two wins and two losses added, so that a run of all wins is not certain)."""
        if game.is_over(pos):
            won = game.winners(pos)
            return (float(game.scores(pos)[0]) if n == 1 else (1.0 / len(won) if seat in won else 0.0) if won else 1.0 / n), 0.0
        if _has_evaluate(game):
            return float(_chances(game.evaluate(pos), n)[seat]), 0.0
        means, ses = playout_values(game, pos, n, playouts, self.rng)
        if n == 1:
            return means[seat], ses[seat]
        shrunk = (means[seat] * playouts + 2) / (playouts + 4)  # Agresti and Coull's plus four
        return means[seat], math.sqrt(shrunk * (1 - shrunk) / (playouts + 4))

    def decided(self, legal: int, seat: int, g: Any, action: int) -> None:
        """Keep decision ``len(self.legal)``: ``legal`` actions were open to ``seat``, which
        chose ``action`` in ``g`` (not applied yet)."""
        text = g.action_text(action)
        self.legal.append(legal)
        self.movers.append(seat)
        self.texts.append(text)
        if self.spec.kinds is None:
            kinds = g.action_kinds()
            if len(set(kinds)) > 1:  # a choice between kinds: a restriction of any of them would bite here
                self.contested.setdefault(seat, set()).update(kinds)
            self.kinds.append(kinds[g.legal_action_ids().index(action)])
            return
        try:  # the user's function: its failure named as kinds'
            kind = self.spec.kinds(text)
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
                "trace_actions": tuple(self.texts), "trace_evals": tuple(self.evals),
                "trace_options": tuple(self.options), "trace_same": self.same,
                "trace_contested": tuple(tuple(sorted(self.contested.get(p, ()))) for p in range(n))}


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
    """The turns a finished game took (``core.results.turns_played``: the game's own count
    when it keeps one, else runs of one seat's decisions), as a seat's replay reports them too."""
    return turns_played(g.game, g.state, movers, g.num_players)


def trace_session(session: Any, *, evaluator: Any = "auto", every: int | None = None, playouts: int = 8,
                  kinds: Callable[[str], Any] | None = None, where: str = "hand-in") -> dict[str, Any]:
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
                     resolved, every or (1 if resolved == "game" else 5), playouts, kinds, OPTION_EVERY)
    course = Course(spec, random.Random(stable_number("kum-lab/evaluate", session.seed or 0)), session.seed or 0)
    for action in history:
        course.check_same(g)
        course.look(g.game, g.state, g.num_players)
        course.decided(len(g.legal_action_ids()), g.current_player, g, int(action))
        g.apply(action)
    return course.columns(g)
