"""The checker's look at a simultaneous step (``CardGame.simultaneous``): no seat can tell
what an earlier chooser of the same step picked."""

from __future__ import annotations

from typing import Any

from .checker_faults import first_difference
from .errors import shown
from .game import CardGame, same_views

__all__ = ["simultaneous_problem"]

TRIED = 4  # picks of the current chooser compared (the first few legal ones)


def simultaneous_problem(game: CardGame, state: Any, players: int, legal: list[int], text: Any) -> str | None:
    """What gives away a pick in this step, in words (None: nothing): after each of a few
    picks of the current chooser, the next chooser, every other seat's view, the public
    view and the next chooser's legal actions must be the same. ``text(action)`` names an
    action."""
    seats = list(game.to_act(state))
    me = game.current_player(state)
    if me not in seats:
        return f"current_player() is seat {shown(me)}, which to_act() does not list ({shown(seats)})"
    if seats.index(me) == len(seats) - 1 or len(legal) < 2:  # the step's last chooser: its pick reveals the step
        return None
    seen: list[tuple[int, Any]] = []
    for action in legal[:TRIED]:
        after = game.clone(state)
        game.apply(after, action)
        if game.is_over(after):
            return None
        nxt = game.current_player(after)
        if nxt == me or nxt not in seats:
            return (f"after seat {me} picked {text(action)}, seat {shown(nxt)} is to act: not a later chooser of "
                    f"to_act() {shown(seats)}")
        looks: dict[str, Any] = {f"seat {q}'s view": game.view(after, q) for q in range(players) if q != me}
        try:  # (whatever the game declares: the full table of a game with sealed picks is no public view)
            looks["the public view"] = game.public_view(after)
        except NotImplementedError:
            pass
        looks[f"seat {nxt}'s legal actions"] = game.legal_actions(after)
        looks["the next chooser"] = nxt
        seen.append((action, looks))
    (first, base), *others = seen
    for action, looks in others:
        for name, value in looks.items():
            if not same_views(value, base[name]):
                where = first_difference(base[name], value, f"after {text(first)}", f"after {text(action)}")
                return f"{name} tells seat {me}'s pick: {where}"
    return None

