"""One simulated game, start to end, as a row of numbers (standard library only).

This is what a worker process runs: :func:`play_game` plays one seeded game between
bots, :func:`game_row` turns the finished game into a flat dict, :func:`run_chunk`
does both for a list of game numbers. Seeds are derived, never drawn: game ``i`` of
a run with seed ``s`` always has the seed ``game_seed(s, i)``, and its bots are
seeded with ``bot_seed(game_seed(s, i), seat)``, so any game of any run can be
replayed on its own, in any process.

>>> game = play_game(0, seed=1, bots=("random", "greedy"))
>>> game.is_over
True
>>> row = game_row(game, 0, ("random", "greedy"))
>>> row["score_0"] == row["developed_0"] - row["undeveloped_0"]
True
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from ..core.game import CardGame
from ..games.kum import Claimed, Developed, Discarded, Game, Rules, Stuck

__all__ = ["PER_SEAT", "GAME_COLUMNS", "Spec", "bot_label", "bot_seed", "columns", "game_row", "game_seed",
           "play_game", "run_chunk", "seat_bots", "session_row"]

BotSpec = str | Callable[[int], Any]
"""A bot for the lab: a name for ``make_bot`` (``"greedy"``), or a factory
``f(seed) -> bot`` (a bot class such as ``GreedyBot`` is one), so every game gets a
fresh bot seeded from the game."""

GAME_COLUMNS = (
    "game", "seed", "players", "first_player", "turns", "actions", "n_winners", "winners",
    "claims", "developments", "claims_by_other", "stuck", "discards",
)
"""Columns about the whole game, in order (see ``simulate`` for their meaning)."""

PER_SEAT = (
    "bot", "race", "score", "developed", "undeveloped", "win", "claims", "developments",
    "claims_by_other", "claims_by_other_points", "claims_for_other", "stuck", "discards",
)
"""Per-seat columns: ``score_0``, ``score_1``... one per seat, seat number last."""


def _derive(*parts: object) -> int:
    # A stable 31-bit number from the parts: the same in every process, on every
    # machine and Python (unlike hash(), which is salted per process).
    digest = hashlib.blake2b("/".join(map(str, parts)).encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big") >> 33


def game_seed(seed: int, game: int) -> int:
    """The seed of game number ``game`` of a run with seed ``seed``.

    >>> game_seed(0, 0) == game_seed(0, 0) != game_seed(0, 1)
    True
    """
    return _derive("kum-lab/game", seed, game)


def bot_seed(seed_of_game: int, seat: int) -> int:
    """The seed of the bot at ``seat`` in the game dealt with ``seed_of_game``."""
    return _derive("kum-lab/bot", seed_of_game, seat)


def seat_bots(bots: Sequence[BotSpec], game: int, rotate: bool) -> tuple[BotSpec, ...]:
    """Who sits where in game number ``game``: with ``rotate``, the list turns one
    seat per game, so ``bots[0]`` sits at seat ``game % players``.

    >>> seat_bots(("a", "b", "c"), 1, rotate=True)
    ('c', 'a', 'b')
    """
    n = len(bots)
    if not rotate:
        return tuple(bots)
    shift = game % n
    return tuple(bots[(seat - shift) % n] for seat in range(n))


def bot_label(spec: BotSpec) -> str:
    """The name a bot spec shows in results: the bot name, or the factory's name."""
    if isinstance(spec, str):
        return spec.strip().lower()
    name = getattr(spec, "label", None) or getattr(spec, "__name__", None) or type(spec).__name__
    return str(name)


def _make(spec: BotSpec, seed: int) -> Any:
    from ..bots import make_bot  # the bots load on first use

    if isinstance(spec, str):
        return make_bot(spec, seed=seed)
    return make_bot(spec(seed))


def play_game(
    game: int,
    *,
    seed: int = 0,
    players: int = 2,
    bots: Sequence[BotSpec] = ("greedy", "greedy"),
    rules: Rules | None = None,
    races: Sequence[str] | None = None,
    rotate: bool = True,
    rules_of: CardGame | None = None,
) -> Any:
    """Play game number ``game`` of a run to its end and return it (a ``kum.Game``,
    or a ``core.Session`` for another game given as ``rules_of``; history included:
    open it on a board, read its ``log`` or ``record()``).

    ``bots`` gives one bot per seat before rotation; see :func:`seat_bots`.
    """
    from ..bots import bot_move

    gs = game_seed(seed, game)
    if rules_of is not None:
        from ..core.session import Session

        g: Any = Session(rules_of, players, seed=gs)
    else:
        g = Game(players, seed=gs, rules=rules, races=list(races) if races is not None else None)
    seated = [_make(spec, bot_seed(gs, seat)) for seat, spec in enumerate(seat_bots(bots, game, rotate))]
    while not g.is_over:
        g.apply(bot_move(g, seated[g.current_player]))  # type: ignore[arg-type]
    return g


def columns(players: int) -> list[str]:
    """Every column of a results table for ``players`` seats, in order."""
    return list(GAME_COLUMNS) + [f"{name}_{seat}" for name in PER_SEAT for seat in range(players)]


def session_row(g: Any, game: int, seated: Sequence[BotSpec]) -> dict[str, Any]:
    """A finished game of any game on the core as one flat row: the lab's own columns,
    then the game's (``CardGame.summary``)."""
    n = g.num_players
    winners = tuple(g.winners())
    row: dict[str, Any] = {"game": game, "seed": g.seed, "players": n, "actions": g.move_number,
                           "n_winners": len(winners), "winners": winners}
    for name, values in (("bot", [bot_label(spec) for spec in seated]), ("score", g.scores()),
                         ("win", [seat in winners for seat in range(n)])):
        for seat in range(n):
            row[f"{name}_{seat}"] = values[seat]
    row.update(g.game.summary(g._state, g._logs))
    return row


def game_row(g: Game, game: int, seated: Sequence[BotSpec]) -> dict[str, Any]:
    """The finished game ``g`` as one flat row (``seated``: the bot spec at each seat)."""
    n = g.num_players
    deck = g.deck
    count = {name: [0] * n for name in ("claims", "developments", "by_other", "by_other_pts", "for_other", "stuck", "discards")}
    for event in g.log:
        if isinstance(event, Claimed):
            count["claims"][event.seat] += 1
            if event.seat != event.by:  # a mine won for `seat` by another player's card
                count["by_other"][event.seat] += 1
                count["by_other_pts"][event.seat] += deck[event.mine].points
                count["for_other"][event.by] += 1
        elif isinstance(event, Developed):
            count["developments"][event.seat] += 1
        elif isinstance(event, Stuck):
            count["stuck"][event.seat] += 1
        elif isinstance(event, Discarded):
            count["discards"][event.seat] += 1
    scores = g.scores()
    winners = tuple(g.winners())
    points = [g.points(seat) for seat in range(n)]
    row: dict[str, Any] = {
        "game": game,
        "seed": g.seed,
        "players": n,
        "first_player": g.first_player,
        "turns": g.turn,
        "actions": len(g.history),
        "n_winners": len(winners),
        "winners": winners,
        "claims": sum(count["claims"]),
        "developments": sum(count["developments"]),
        "claims_by_other": sum(count["by_other"]),
        "stuck": sum(count["stuck"]),
        "discards": sum(count["discards"]),
    }
    per_seat: dict[str, list[Any]] = {
        "bot": [bot_label(spec) for spec in seated],
        "race": [race.value for race in g.kings],
        "score": scores,
        "developed": [p[0] for p in points],
        "undeveloped": [p[1] for p in points],
        "win": [seat in winners for seat in range(n)],
        "claims": count["claims"],
        "developments": count["developments"],
        "claims_by_other": count["by_other"],
        "claims_by_other_points": count["by_other_pts"],
        "claims_for_other": count["for_other"],
        "stuck": count["stuck"],
        "discards": count["discards"],
    }
    for name in PER_SEAT:
        for seat in range(n):
            row[f"{name}_{seat}"] = per_seat[name][seat]
    return row


@dataclass(frozen=True)
class Spec:
    """Everything a worker needs to play any game of a run (it pickles: small)."""

    seed: int
    players: int
    bots: tuple[BotSpec, ...]
    rules: Rules | None
    races: tuple[str, ...] | None
    rotate: bool
    rules_of: CardGame | None = None  # another game than Kings Under Mountains

    def play(self, game: int) -> dict[str, Any]:
        g = play_game(game, seed=self.seed, players=self.players, bots=self.bots, rules=self.rules,
                      races=self.races, rotate=self.rotate, rules_of=self.rules_of)
        seated = seat_bots(self.bots, game, self.rotate)
        return game_row(g, game, seated) if self.rules_of is None else session_row(g, game, seated)


def run_chunk(spec: Spec, games: Sequence[int]) -> list[dict[str, Any]]:
    """Play the games numbered ``games`` (one task for an executor)."""
    return [spec.play(i) for i in games]
