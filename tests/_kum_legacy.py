"""Kings Under Mountains' old save formats, written as the game wrote them before its saves
became the core's (``kum_widget/games/kum/legacy.py`` reads them, forever): the tests of
that reader make old saves of any game with these, as the old ``to_dict`` and ``record``
did (copied from them, unchanged but for their names)."""

from __future__ import annotations

import json
from typing import Any

import kum_widget as kum
from kum_widget.core.records import _escape
from kum_widget.games.kum.rules import apply_id

__all__ = ["old_dict", "old_record"]

_DIGITS = 500
_BIG = 10**_DIGITS


def old_dict(game: kum.Game) -> dict[str, Any]:
    """``game`` as the old ``to_dict`` saved it (``"format": "kum-game"``)."""
    return {
        "format": "kum-game",
        "version": 1,
        "players": list(game.players),
        "kings": [k.value for k in game.kings],
        "first_player": game.first_player,
        "rules": game.rules.to_dict(),
        "seed": game.seed,
        "layout": None if game.seed is not None else game._initial.layout(),
        "actions": [game.action_text(a) for a in game._history],
        "redo": [game.action_text(a) for a in reversed(game._future)],
        "state": game._state.layout(),
    }


def old_record(game: kum.Game) -> str:
    """``game`` as the old ``record`` wrote it (``[Format "kum-record 1"]``)."""
    tags = [("Game", "Kings Under Mountains"), ("Format", "kum-record 1")]
    tags += [(f"Player{i}", name) for i, name in enumerate(game.players)]
    tags += [("Kings", " ".join(k.value for k in game.kings)), ("FirstPlayer", str(game.first_player))]
    rules = {k: v for k, v in game.rules.diff().items() if k != "deck"}
    if rules:
        tags.append(("Rules", " ".join(f"{k}={v}" for k, v in rules.items())))
    if game.rules.deck != kum.Deck.standard():
        tags.append(("Deck", ", ".join(str(c) for c in game.rules.deck)))
    if game.seed is not None:
        tags.append(("Seed", _decimal(game.seed)))
    else:
        tags.append(("Layout", json.dumps(game._initial.layout(), separators=(",", ":"))))
    if game.is_over:
        sc = game.scores()
        won = " and ".join(game.players[w] for w in game.winners())
        verb = "wins" if len(game.winners()) == 1 else "share the win"
        tags.append(("Result", ", ".join(f"{n} {p}" for n, p in zip(game.players, sc, strict=True)) + f"; {won} {verb}"))
    lines = [f'[{k} "{_escape(v)}"]' for k, v in tags]
    lines.append("")
    replay = game._initial.clone()
    turn_line: list[str] = []
    turn_seat, turn_no = replay.current, replay.turn
    for aid in game._history:
        if replay.turn != turn_no or replay.current != turn_seat:
            lines.append(f"{turn_no + 1}. {game.players[turn_seat]}: " + "; ".join(turn_line))
            turn_line, turn_seat, turn_no = [], replay.current, replay.turn
        turn_line.append(game.action_text(aid))
        apply_id(replay, aid)
    if turn_line:
        lines.append(f"{turn_no + 1}. {game.players[turn_seat]}: " + "; ".join(turn_line))
    return "\n".join(lines) + "\n"


def _decimal(n: int) -> str:
    """``str(n)`` of a whole number >= 0 of any size (str() refuses a few thousand digits)."""
    if n < _BIG:
        return str(n)
    half = int(n.bit_length() * 0.30103) // 2  # about half its digits
    high, low = divmod(n, 10**half)
    return _decimal(high) + _decimal(low).zfill(half)
