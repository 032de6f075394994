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

from typing import Any, NoReturn

from .errors import InvalidOptionError, shown

__all__ = ["Action"]


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
