"""``Action``: what a session hands out for an action, in every game.

An action is its id (an ``int``, as the game's ``legal_actions`` gives it) carrying the
text the players read and, for a game whose session has objects of its own (Kings Under
Mountains' ``Play``, ``Draw``, ``Discard``), that object as ``move``:

>>> a = Action(3, "play 3")
>>> a == 3, a.text, str(a), a.move, a
(True, 'play 3', 'play 3', None, Action(3, 'play 3'))

It is an ``int``, so code that compares actions with ids, sorts them, keeps them in sets,
formats them (``f"{a}"`` is ``'3'``: ``str(a)`` is the text) or sends them as JSON goes
on working, and every session method that takes an action
takes one (``apply``, ``action_text``, ``action_id``...). Two actions are equal when
their ids are; the text does not take part (it is what the id reads as where it was
handed out).

An action's text and the game's own object are its fields, never the action itself:
``a.text == "pass"``, ``a.move.card``, ``isinstance(a.move, Play)``. An action compared
with a text is not equal to it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NoReturn

from .errors import InvalidOptionError, shown
from .events import render

__all__ = ["Action", "always_an_action", "named_history"]


class Action(int):
    """``Action(id, text, move=None)``: an action id with its text (and the game's own
    object for it, if it has one). Immutable; equal to its id."""

    text: str
    move: Any

    def __new__(cls, id: int, text: str, move: Any = None) -> Action:
        if isinstance(id, bool) or not isinstance(id, int):
            raise InvalidOptionError(f"an Action's id is a whole number, got {shown(id)}")
        if not isinstance(text, str):
            raise InvalidOptionError(f"an Action's text is text, got {shown(text)}")
        self = super().__new__(cls, id)
        # An int subclass cannot have fields in __slots__: the instance dict holds them,
        # written around __setattr__ (which refuses every change).
        self.__dict__.update(text=text, move=move)
        return self

    def __setattr__(self, name: str, value: Any) -> NoReturn:
        raise AttributeError(f"an Action cannot be changed (tried to set {name!r})")

    def __delattr__(self, name: str) -> NoReturn:
        raise AttributeError(f"an Action cannot be changed (tried to delete {name!r})")

    def __repr__(self) -> str:
        return f"Action({int(self)}, {self.text!r})"

    def __str__(self) -> str:
        return self.text

    def __format__(self, spec: str) -> str:
        # As the int it is: a game's code that formats ids (f"{{seat{a}}}") goes on working.
        return int.__format__(int(self), spec)

    def __reduce__(self) -> tuple[Any, ...]:
        return (Action, (int(self), self.text, self.move))


def _own_object(out: Any) -> Any:
    """The game's own object among what a session's ``_public_action`` gave: an Action's
    ``move``; None for an id or text (the Action holds those itself)."""
    if type(out) is Action:
        return out.move
    return None if isinstance(out, (int, str)) else out


def always_an_action(own: Callable[[Any, int], Any]) -> Callable[[Any, int], Action]:
    """A session subclass's ``_public_action`` that gives an :class:`Action` whatever ``own``
    gives: one written when the hook handed out the game's own objects (or text) has them
    as the Action's ``move``."""

    def _public_action(session: Any, aid: int) -> Action:
        out = own(session, aid)
        return out if type(out) is Action else Action(aid, session._text(aid), _own_object(out))

    _public_action.__doc__, _public_action.__wrapped__ = own.__doc__, own  # type: ignore[attr-defined]
    return _public_action


def named_history(session: Any) -> list[Action]:
    """A session's history as Actions named in the positions they were taken in (their
    text then, ``{player}`` the seat that took it). Kept on the session between calls while
    its history starts the same way: undo keeps the part still played."""
    history: list[int] = session._history
    kept = session.__dict__.get("_history_named")
    ids: list[int] = []
    named: list[Action] = []
    if kept is not None and kept[0] is session._initial and kept[1] == session._names:
        n = min(len(kept[2]), len(history))
        if kept[2][:n] == history[:n]:
            ids, named = kept[2][:n], kept[3][:n]
    if len(ids) < len(history):
        game, names, state = session.game, session._names, session._position_after(len(ids))
        own = getattr(type(session)._public_action, "__wrapped__", None)  # the session's own objects, if any
        for aid in history[len(ids):]:
            text = str(game.action_text(state, aid))
            if "{" in text or "}" in text:
                try:
                    seat = game.current_player(state)
                except (KeyError, IndexError, TypeError, ValueError, AttributeError):  # "any value once the game is over"
                    seat = None
                text = render(text, names, seat if type(seat) is int and 0 <= seat < len(names) else None)
            move = None
            if own is not None:  # asked now, of an action taken before: an object of the game's, or nothing
                try:
                    move = _own_object(own(session, aid))
                except (KeyError, IndexError, TypeError, ValueError, AttributeError):
                    move = None
            named.append(Action(aid, text, move))
            ids.append(aid)
            game.step(state, aid)
    session.__dict__["_history_named"] = (session._initial, session._names, ids, named)
    return named[: len(history)]
