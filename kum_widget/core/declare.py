"""A game's rule options: how a :class:`~kum_widget.core.CardGame` subclass declares them
(``CardGame`` reads the declaration once, when the class is defined).

A game declares its rule options in one place and everything reads that place: the
constructor (``MyGame(limit=7)``, each value checked), ``options()`` and ``with_options``
(records, the lab) and ``inspect.signature(MyGame)`` (help, completion):

- ``defaults = {"limit": 21}``: options whose type is all there is to check;
- ``options_class = MyOptions``: a frozen dataclass subclassing :class:`RuleOptions`, a
  field per option with its default, ``Literal`` for a choice, and :meth:`RuleOptions.check`
  for the rest (a range).

>>> from dataclasses import dataclass
>>> from typing import Literal
>>> @dataclass(frozen=True, kw_only=True)
... class Options(RuleOptions):
...     limit: int = 21
...     pile: Literal["open", "closed"] = "open"
>>> Options(limit=30).options()
{'limit': 30, 'pile': 'open'}
>>> Options(pile="shut")
Traceback (most recent call last):
...
kum_widget.core.errors.InvalidOptionError: option 'pile' must be one of 'open', 'closed', got 'shut'
"""

from __future__ import annotations

import dataclasses
import inspect
import sys
import typing
import weakref
from collections.abc import Mapping
from typing import Any, Literal, Self

from .errors import InvalidOptionError, shown

__all__ = ["RuleOptions", "check_type", "option_signature"]

_KINDS = {bool: "True or False", int: "a whole number", float: "a number", str: "text"}


class RuleOptions:
    """The base of a game's rule options written as a frozen dataclass
    (``@dataclass(frozen=True, kw_only=True)``), named on the game as ``options_class``.

    Every field is an option and has a default. A field annotated ``bool``, ``int``,
    ``float`` or ``str`` takes values of that type only (a float field takes whole numbers
    too); one annotated ``Literal[...]`` takes one of its values. Anything else, and any
    further rule (a range), is :meth:`check`'s. A bad value or an unknown name is an
    :class:`InvalidOptionError` naming the option. The game's ``options()`` (what records
    keep) are :meth:`options`; a game whose options are not plain JSON values (a table
    of cards) overrides it and :meth:`from_options`.
    """

    __slots__ = ()

    def __new__(cls, *args: Any, **options: Any) -> Self:
        # Before the dataclass's __init__, which would raise a TypeError for these.
        if not dataclasses.is_dataclass(cls):
            raise InvalidOptionError(f"{cls.__name__} must be a dataclass: write @dataclass(frozen=True, kw_only=True) above it")
        if args:
            raise InvalidOptionError(f"{cls.__name__}: options are given by name (limit=21), got {shown(args[0])}")
        names = [f.name for f in dataclasses.fields(cls)]
        unknown = [k for k in options if k not in names]
        if unknown:
            raise InvalidOptionError(f"{cls.__name__}: unknown rule option {shown(unknown[0], 44)} (options: {', '.join(names) or 'none'})")
        return super().__new__(cls)

    def __post_init__(self) -> None:
        hints = _hints(type(self))
        for f in dataclasses.fields(self):  # type: ignore[arg-type]  # (a dataclass: __new__ checked it)
            check_type(f.name, getattr(self, f.name), hints.get(f.name), f.default)
        self.check()

    def check(self) -> None:
        """Check what the fields' types do not say (a range, one option against another)
        and raise :class:`InvalidOptionError` naming the option. The default checks nothing.
        A value to convert (a list into a tuple) is set with ``object.__setattr__``."""

    def options(self) -> dict[str, Any]:
        """The options as the game keeps them (``game.rules``) and records save them:
        JSON values. The default: each field's value."""
        return {f.name: getattr(self, f.name) for f in dataclasses.fields(self)}  # type: ignore[arg-type]

    @classmethod
    def from_options(cls, options: Mapping[str, Any]) -> Self:
        """Inverse of :meth:`options`: what ``MyGame(**options)`` builds. The default:
        ``cls(**options)``."""
        return cls(**options)


def _hints(cls: type) -> dict[str, Any]:
    """The fields' annotations as types, text annotations resolved (``from __future__ import
    annotations``); a field whose annotation does not resolve is left out (unchecked)."""
    found = _HINTS.get(cls)
    if found is None:
        try:
            found = typing.get_type_hints(cls)
        except Exception:  # a name some annotation uses is not in its module (a class made by exec): one by one
            module = sys.modules.get(cls.__module__)
            names = {**vars(typing), **(vars(module) if module else {})}
            found = {}
            for f in dataclasses.fields(cls):
                try:
                    found[f.name] = eval(f.type, names) if isinstance(f.type, str) else f.type  # (as get_type_hints does)
                except Exception:
                    pass
        _HINTS[cls] = found
    return found


_HINTS: weakref.WeakKeyDictionary[type, dict[str, Any]] = weakref.WeakKeyDictionary()  # (a class made in a loop is freed)


def check_type(key: str, value: Any, kind: Any, default: Any) -> None:
    """Refuse ``value`` for option ``key`` unless it is of ``kind`` (bool, int, float, str
    or a ``Literal``); any other kind checks nothing. The message shows ``default``."""
    if typing.get_origin(kind) is Literal:
        choices = typing.get_args(kind)
        if not any(type(value) is type(c) and value == c for c in choices):
            raise InvalidOptionError(f"option {key!r} must be one of {', '.join(map(repr, choices))}, got {shown(value)}")
    elif kind in _KINDS and type(value) is not kind and not (kind is float and type(value) is int):
        like = "" if default is dataclasses.MISSING else f" like {default!r}"
        raise InvalidOptionError(f"option {key!r} must be {_KINDS[kind]}{like}, got {shown(value)}")


def option_signature(defaults: Mapping[str, Any]) -> inspect.Signature | None:
    """``(*, limit=21, hand=3)``: the options as keyword-only parameters (None when a name
    cannot be a parameter's)."""
    try:
        return inspect.Signature([inspect.Parameter(k, inspect.Parameter.KEYWORD_ONLY, default=v) for k, v in defaults.items()])
    except (ValueError, TypeError):  # a name that is no identifier ("max-cards"): no signature to show
        return None
