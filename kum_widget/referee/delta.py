"""A frame sent as what changed since the one before it on the same connection.

A seat's frame of Kings Under Mountains is about 25 KB of JSON, and one move changes a few
hundred bytes of it: a card leaves a hand, a counter goes up, a log line comes. The referee
sends each connection its first frame whole, then only the changes (``changes``), which the
connection applies to the frame it holds (``patched``) to have the new frame, equal to the one
the referee drew. Encoding, compressing and decoding a few hundred bytes instead of 25 KB is
most of what a referee and its clients spend an act on.

A change is a list:

- ``["=", path, value]``: the value at ``path`` is ``value`` (``path`` empty: the whole frame);
- ``["-", path]``: the key at the end of ``path`` is gone;
- ``["~", path, start, end, items]``: the list at ``path`` has ``items`` where ``[start:end]`` was.

A path is a list of an object's keys (text, as JSON writes them) and a list's indexes.

>>> old = {"status": "Ada to play", "hand": ["a", "b", "c"], "seen": {"x": 1}}
>>> new = {"status": "Bo to play", "hand": ["a", "c"], "seen": {}}
>>> changes(old, new)
[['=', ['status'], 'Bo to play'], ['~', ['hand'], 1, 2, []], ['-', ['seen', 'x']]]
>>> patched(old, changes(old, new)) == new
True
>>> old["hand"]  # the frame patched is left as it was (a board may still be drawing it)
['a', 'b', 'c']
"""

from __future__ import annotations

import json
from typing import Any

__all__ = ["DeltaError", "changes", "patched"]


class DeltaError(ValueError):
    """A change that does not fit the frame it was applied to (the client asks for the whole frame)."""


def changes(old: Any, new: Any) -> list[list[Any]]:
    """What turns ``old`` into ``new`` (JSON values: dicts, lists or tuples, and scalars)."""
    out: list[list[Any]] = []
    _changes(old, new, [], out)
    return out


def _key(key: Any) -> str:
    return key if type(key) is str else json.dumps(key)  # as json.dumps writes an object's key


_NESTED = (dict, list, tuple)


def _changes(old: Any, new: Any, path: list[Any], out: list[list[Any]]) -> None:
    if type(old) is dict and type(new) is dict:
        for key, value in new.items():
            if key not in old:
                out.append(["=", [*path, _key(key)], value])
            elif old[key] is not value and old[key] != value:
                _changed(old[key], value, [*path, _key(key)], out)
        out.extend(["-", [*path, _key(key)]] for key in old if key not in new)
    elif type(old) in (list, tuple) and type(new) in (list, tuple):
        n, m = len(old), len(new)
        start, same = 0, min(n, m)
        while start < same and old[start] == new[start]:
            start += 1
        tail = 0
        while tail < same - start and old[n - 1 - tail] == new[m - 1 - tail]:
            tail += 1
        if n == m:  # the same length: each item that differs, changed where it differs
            for i in range(start, n - tail):
                if old[i] != new[i]:
                    _changed(old[i], new[i], [*path, i], out)
        else:
            out.append(["~", path, start, n - tail, list(new[start:m - tail])])
    else:
        out.append(["=", path, new])


def _changed(was: Any, value: Any, path: list[Any], out: list[list[Any]]) -> None:
    """``was`` (at ``path``) became ``value``: a container changed within, anything else written whole."""
    if type(was) in _NESTED and type(value) in _NESTED:
        _changes(was, value, path, out)
    else:
        out.append(["=", path, value])


def patched(frame: Any, delta: Any) -> Any:
    """``frame`` with the changes ``delta`` made, as a new value: ``frame`` and everything in
    it are left as they were. A change that does not fit is a :class:`DeltaError`."""
    if not isinstance(delta, list):
        raise DeltaError(f"changes come as a list, not {type(delta).__name__}")
    root = [frame]  # the frame as item 0 of a list: a path walks from it like any other
    copied: set[int] = set()
    for change in delta:
        try:
            _apply(root, change, copied)
        except (LookupError, TypeError, ValueError) as exc:
            raise DeltaError(f"a change does not fit this frame: {type(exc).__name__}: {str(exc)[:80]}") from None
    return root[0]


def _apply(root: list[Any], change: Any, copied: set[int]) -> None:
    if not isinstance(change, list) or len(change) < 2 or not isinstance(change[1], list):
        raise ValueError("not a change")
    tag, path = change[0], [0, *change[1]]  # (keys and indexes, checked as each is used)
    leaf: Any = path[-1] if tag != "~" else None
    container: Any = root
    step: Any
    for step in path[:-1] if tag != "~" else path:
        child = _at(container, step)
        if id(child) not in copied:  # copied once on its way down, so the old frame stays whole
            child = dict(child) if type(child) is dict else list(child) if type(child) in (list, tuple) else child
            copied.add(id(child))
            container[step] = child
        container = child
    if tag == "=" and len(change) == 3:
        if _holds(container, leaf):
            container[leaf] = change[2]
            return
    elif tag == "-" and len(change) == 2 and type(container) is dict and type(leaf) is str:
        del container[leaf]
        return
    elif tag == "~" and len(change) == 5 and type(container) is list and isinstance(change[4], list):
        start, end = change[2], change[3]
        if type(start) is int and type(end) is int and 0 <= start <= end <= len(container):
            container[start:end] = change[4]
            return
    raise ValueError(f"{str(tag)[:4]!r} at {str(change[1])[:60]}")


def _at(container: Any, step: Any) -> Any:
    if _holds(container, step) and (type(container) is list or step in container):
        return container[step]
    raise KeyError(str(step)[:40])


def _holds(container: Any, step: Any) -> bool:
    """``step`` can be a place in ``container``: a key of an object, an index within a list."""
    if type(container) is dict:
        return type(step) is str
    return type(container) is list and type(step) is int and 0 <= step < len(container)
