"""Action kinds: what kind of play an action is ("draw deck", "column 4"), for the lab's
"what wins" experiments and a bot told never to take a kind (standard library only).

A game declares its kinds with :meth:`CardGame.action_kind` and the groups of kinds that
are mirror images of one another with :attr:`CardGame.mirror_kinds` (Connect Four's
columns 1 and 7); ``core.game.action_kinds`` reads them. A game that declares none has its
actions grouped by :func:`text_kind` (the words of their text before the first number): a
rule, not a guess at what the game means, and the lab says when it used it.

>>> text_kind("play giant 1 #62 on mine 1"), text_kind("draw deck"), text_kind("7")
('play giant', 'draw deck', '7')
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Protocol

from .errors import InvalidOptionError, cut, shown

__all__ = ["kind_groups", "text_kind", "mirror_groups", "Mirrored", "MAX_KIND"]

MAX_KIND = 80
"""The longest kind's name: a kind is a few words."""

_NUMBER = re.compile(r"[#\d{]")  # a digit, a card id, or a seat placeholder ({seat1}) ends the kind


def text_kind(text: str) -> str:
    """The kind of an action read from its text: the words before the first number, ``#``
    or placeholder; the whole text when it starts with one."""
    words = []
    for word in str(text).split():
        if _NUMBER.search(word):
            break
        words.append(word)
    return " ".join(words).rstrip(":,;") or " ".join(str(text).split())


class Mirrored(Protocol):
    """What :func:`kind_groups` reads of a game (a ``CardGame``): its mirror kinds."""

    @property
    def mirror_kinds(self) -> Sequence[Sequence[str]]: ...


def kind_groups(game: Mirrored, kinds: Sequence[str]) -> list[tuple[str, ...]]:
    """``kinds`` gathered into the questions the lab asks: each group of
    :attr:`~CardGame.mirror_kinds` that has a member among ``kinds`` is one question (its
    members among ``kinds``, in the declared order), every other kind one of its own; in
    the order of ``kinds``' first appearance."""
    groups: list[tuple[str, ...]] = []
    seen: set[str] = set()
    mirrors = [tuple(g) for g in game.mirror_kinds]
    for kind in kinds:
        if kind in seen:
            continue
        group = next((tuple(k for k in g if k in kinds) for g in mirrors if kind in g), (kind,))
        seen.update(group)
        groups.append(group)
    return groups


def mirror_groups(value: object, where: str) -> tuple[tuple[str, ...], ...]:
    """A class's :attr:`~CardGame.mirror_kinds` checked when it is defined (``where`` names
    it): groups of two or more distinct kinds (short texts), no kind in two groups; as a
    tuple of tuples."""
    if isinstance(value, (str, bytes)) or not isinstance(value, Sequence):
        raise InvalidOptionError(f"{where} must list groups of action kinds, such as (('column 1', 'column 7'),), got {shown(value)}")
    groups: list[tuple[str, ...]] = []
    seen: set[str] = set()
    for group in value:
        if isinstance(group, (str, bytes)) or not isinstance(group, Sequence) or len(group) < 2:
            raise InvalidOptionError(f"{where}: each group lists two or more kinds, got {shown(group)}")
        for kind in group:
            if not isinstance(kind, str) or not kind.strip() or len(kind) > MAX_KIND:
                raise InvalidOptionError(f"{where}: a kind is a short text, got {shown(kind)}")
            if kind in seen:
                raise InvalidOptionError(f"{where}: the kind {cut(kind, 40)!r} is in two groups (or twice in one)")
            seen.add(kind)
        groups.append(tuple(group))
    return tuple(groups)
