"""A game's result as every player at the table may know it: who played, the scores and the
winners, who moved first, how long it lasted, and a fingerprint of its public course.

A replay drawn for one seat holds only what that seat saw, so it cannot carry the game's
record (the seed deals every hidden card again); it carries this instead, which the lab
reads as a game known by its outcome alone (``kum.lab.load``). The fingerprint is a
digest of public facts only (the game, its rules, the players, the public log and the
scores), so the replays of one game saved by each of its seats, and its record, are known
as one game.

>>> from kum_widget.core.examples import Bust
>>> from kum_widget.core.session import Session
>>> game = Session(Bust(), ["Ada", "Bo"], seed=1)
>>> public_result(game)["over"]
False
>>> while not game.is_over: _ = game.apply(game.legal_actions()[-1])
>>> r = public_result(game)
>>> r["players"], r["scores"], r["winners"], r["first"], r["actions"], r["turns"]
(['Ada', 'Bo'], [1.0, 0.0], [0], 0, 10, 10)
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from typing import Any

from .errors import GameError, GameFault

__all__ = ["RESULT_FORMAT", "RESULT_VERSION", "public_result", "turns_played"]

RESULT_FORMAT, RESULT_VERSION = "kum-widget-result", 1


def turns_played(game: Any, state: Any, movers: Sequence[int], players: int) -> int:
    """The turns a game took: the game's own count when it keeps one (``CardGame.turn``),
    else runs of one seat's decisions (a solitaire's: each decision, since one seat makes
    them all)."""
    counted = game.turn(state)
    if counted is not None:
        return int(counted)
    if players == 1:
        return len(movers)
    runs, last = 0, None
    for seat in movers:
        if seat != last:
            runs, last = runs + 1, seat
    return runs


def _public_log(session: Any) -> list[str]:
    """Every action's line of the log as a spectator reads it (a line the game fails to
    write is left out: the fingerprint is then of what it could write)."""
    lines = []
    for events in session.logs:
        words = []
        for event in events:
            try:
                words.append(session.describe(event, None, spectator=True))
            except GameError:
                continue
        lines.append(" ".join(w for w in words if w))
    return lines


def public_result(session: Any) -> dict[str, Any]:
    """``session``'s result as JSON values everyone at its table may know: ``game`` (its
    name), ``options`` (its rules), ``players`` and ``over``; once over, also ``scores``,
    ``winners``, ``first`` (the seat that moved first), ``actions`` (how many were taken),
    ``turns`` (:func:`turns_played`) and ``fingerprint`` (a digest of its public course)."""
    game = session.game
    try:
        options = json.loads(json.dumps(game.options(), sort_keys=True))
    except (TypeError, ValueError) as exc:
        raise GameFault(f"{session.title}'s rule options must be JSON values ({exc})") from None
    out: dict[str, Any] = {"format": RESULT_FORMAT, "version": RESULT_VERSION, "game": game.name, "options": options,
                           "players": list(session.players), "over": bool(session.is_over)}
    if not session.is_over:
        return out
    movers = session.movers
    scores = [v if type(v) is int else float(v) for v in session.scores()]  # (finite: the session checked them)
    out.update(scores=scores, winners=[int(w) for w in session.winners()], first=int(movers[0]) if movers else 0,
               actions=session.move_number, turns=turns_played(game, session.state, movers, session.num_players))
    public = [game.name, options, out["players"], scores, _public_log(session)]
    out["fingerprint"] = hashlib.sha256(json.dumps(public, sort_keys=True, ensure_ascii=False).encode()).hexdigest()
    return out
