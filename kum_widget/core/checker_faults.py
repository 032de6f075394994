"""``check_game``'s words for what went wrong: a crash in the game's code (its method, the
file and line where it raised), where two views differ, what in a view is not JSON, and
clicks the board's menus could not tell apart."""

from __future__ import annotations

import math
import os
import traceback
from types import FrameType, TracebackType
from typing import Any

from .checker_report import CheckReport
from .errors import GameError, cut, shown

__all__ = ["Guard", "crash", "explain", "first_difference", "key_path", "not_json", "Nodes", "click_collisions"]

_CORE = os.path.dirname(os.path.realpath(__file__))
_PACKAGE = os.path.dirname(_CORE)
_GAMES_IN_CORE = {os.path.join(_CORE, "examples.py")}  # Bust is a game, though it ships in the core
_library: tuple[str, ...] | None = None


def _kind(filename: str) -> str:
    """``"core"`` (the session, the checker: not the game's), ``"library"`` (Python's own
    modules and installed packages) or ``"game"`` (the rest: the game's source)."""
    global _library
    if filename.startswith("<"):  # exec'd or generated code: the game's, as far as we can tell
        return "game"
    path = os.path.realpath(filename)
    if path.startswith(_CORE + os.sep):
        return "game" if path in _GAMES_IN_CORE else "core"
    if path.startswith(_PACKAGE + os.sep):  # the shipped games, installed or not
        return "game"
    if _library is None:
        import sysconfig

        paths = sysconfig.get_paths()
        _library = tuple(os.path.realpath(paths[k]) + os.sep for k in ("stdlib", "platstdlib", "purelib", "platlib") if k in paths)
    return "library" if path.startswith(_library) else "game"


def _shown_path(filename: str) -> str:
    """A file as a reader finds it: relative to the working folder when it is inside it."""
    try:
        path, here = os.path.realpath(filename), os.path.realpath(os.getcwd())
    except OSError:
        return filename
    return os.path.relpath(path, here) if path.startswith(here + os.sep) else filename


def _frames(exc: BaseException) -> list[tuple[FrameType, int]]:
    return list(traceback.walk_tb(exc.__traceback__))


def _original(exc: BaseException) -> BaseException:
    """The exception the game's code raised: the session wraps a crash in ``apply()`` in a
    GameFault (and a crash in ``action_text()`` in an IllegalMoveError), raised from it. The
    first of the chain that went through the game's code; ``exc`` itself if none did."""
    inner: BaseException | None = exc
    for _ in range(10):  # (a chain can loop)
        if inner is None:
            break
        if any(_kind(f.f_code.co_filename) == "game" for f, _ in _frames(inner)):
            return inner
        inner = inner.__cause__ or inner.__context__
    return exc


def _message(exc: BaseException) -> str:
    try:
        if isinstance(exc, KeyError) and len(exc.args) == 1:
            text = shown(exc.args[0])  # str() of a KeyError is the repr of its key, however large
        else:
            text = cut(str(exc), 160)
    except Exception:
        return "(its message cannot be shown)"
    return " ".join(text.split())


def crash(exc: BaseException, game: object, method: str = "") -> str:
    """A crash in words: ``"apply() raised KeyError: 7, at my_game.py:31"``: the game's method
    the core called, what it raised, and the innermost line of the game's own source (the
    line in a helper it called: ``", at my_game.py:12 (in card())"``). ``method`` names the
    hook when the traceback does not."""
    exc = _original(exc)
    frames = _frames(exc)
    kinds = [_kind(f.f_code.co_filename) for f, _ in frames]
    hooks = [f.f_code.co_name for f, _ in frames if f.f_locals.get("self") is game]  # the game's methods, outermost first
    own = [f.f_code.co_name for (f, _), kind in zip(frames, kinds, strict=True) if kind == "game" and f.f_locals.get("self") is game]
    games = [(f, line) for (f, line), kind in zip(frames, kinds, strict=True) if kind == "game"]
    names = own or hooks or [f.f_code.co_name for f, _ in games] or ([method.removesuffix("()")] if method else [])
    name = names[0] if names else ""
    words = f"{name}() raised {type(exc).__name__}" if name else f"the game's code raised {type(exc).__name__}"
    text = _message(exc)
    if text:
        words += f": {text}"
    where = games[-1] if games else next(((f, line) for (f, line), kind in reversed(list(zip(frames, kinds, strict=True)))
                                          if kind == "library"), None)
    if where is not None:
        frame, line = where
        words += f", at {_shown_path(frame.f_code.co_filename)}:{line}"
        if frame.f_code.co_name != name:
            words += f" (in {frame.f_code.co_name}())"
    return words


def explain(exc: BaseException, game: object) -> str:
    """A GameError in words: its message, or for one the session raised over a crash in the
    game's code (a GameFault from ``apply()``), the crash (:func:`crash`)."""
    return crash(exc, game) if not isinstance(_original(exc), GameError) else cut(" ".join(str(exc).split()), 200)


class Guard:
    """``with Guard(report, game, check, where):`` a crash in the game's code inside is that
    check's failure, in words (:func:`crash`), and the checks after it still run; a block
    that ends normally marks the check as run."""

    def __init__(self, report: CheckReport, game: object, check: str, where: object, doing: str = "") -> None:
        self.report, self.game, self.check, self.where, self.doing = report, game, check, where, doing
        self.crashed = False

    def __enter__(self) -> Guard:
        return self

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None) -> bool:
        if exc is None:
            self.report.ran.add(self.check)
            return False
        if not isinstance(exc, Exception):  # Ctrl-C stops the checker
            return False
        self.crashed = True
        if not self.report.failed(self.check):
            self.report.fail(self.check, f"{self.doing}{crash(exc, self.game)} {self.where}")
        return True


_MISSING = object()


def key_path(path: str, key: Any) -> str:
    """The path of ``key`` inside the value at ``path``, as a message names it (``hands[1].id``)."""
    if isinstance(key, str) and key.isidentifier():
        return f"{path}.{key}" if path else key
    return f"{path}[{shown(key, 30)}]"


def _difference(a: Any, b: Any, path: str) -> tuple[str, Any, Any] | None:
    from .game import same_views

    if same_views(a, b):
        return None
    if isinstance(a, dict) and isinstance(b, dict):
        for k, v in a.items():
            if k not in b:
                return key_path(path, k), v, _MISSING
            found = _difference(v, b[k], key_path(path, k))
            if found:
                return found
        k = next(k for k in b if k not in a)
        return key_path(path, k), _MISSING, b[k]
    if isinstance(a, (list, tuple)) and type(a) is type(b):
        for i, (x, y) in enumerate(zip(a, b, strict=False)):
            found = _difference(x, y, f"{path}[{i}]")
            if found:
                return found
        i = min(len(a), len(b))
        return f"{path}[{i}]", a[i] if i < len(a) else _MISSING, b[i] if i < len(b) else _MISSING
    return path, a, b


def first_difference(a: Any, b: Any, first: str, second: str) -> str:
    """Where two views first differ, in words: ``"at hands[1][2], the view has {'id': 3}
    and the dealt position's view has {'id': 5}"`` (``first`` and ``second`` name them)."""
    try:
        found = _difference(a, b, "")
    except RecursionError:
        return "(nested too deeply to say where)"
    if found is None:
        return ""
    path, x, y = found

    def value(v: Any) -> str:
        return "nothing there" if v is _MISSING else shown(v, 50)

    return f"at {path or 'the top'}, {first} has {value(x)} and {second} has {value(y)}"


def not_json(tree: Any, path: str) -> str | None:
    """Where ``tree`` (named ``path``) holds a number JSON cannot carry (NaN, an infinity),
    as a value or a key, in words: ``"NaN is not JSON (at view['odds'][1])"``; None when it
    holds none."""
    def bad(x: Any) -> str | None:
        return None if not isinstance(x, float) or math.isfinite(x) else ("NaN" if x != x else repr(x))

    if bad(tree):
        return f"{bad(tree)} is not JSON (at {path})"
    if isinstance(tree, dict):
        for key in tree:
            if bad(key):
                return f"{bad(key)} is not JSON (a key of {path})"
        items: Any = tree.items()
    elif isinstance(tree, (list, tuple)):
        items = enumerate(tree)
    else:
        return None
    for key, value in items:
        found = not_json(value, f"{path}[{key!r}]")
        if found:
            return found
    return None


class Nodes:
    """Every node of a JSON tree, read once, to be asked of many secrets (``holds``): a
    seat's view against each card another seat keeps, at every step of every checked game."""

    def __init__(self, tree: Any) -> None:
        self.tree = tree
        self.leaves: set[Any] = set()  # the hashable nodes: strings, numbers, None
        self.dicts_with: dict[tuple[Any, Any], list[dict[Any, Any]]] = {}  # (key, value) -> the dicts that have it
        self.dicts = 0
        stack = [tree]  # (a loop, not recursion: a deep view is no RecursionError)
        while stack:
            node = stack.pop()
            if isinstance(node, dict):
                self.dicts += 1
                for pair in node.items():
                    if _hashable(pair[1]):
                        self.dicts_with.setdefault(pair, []).append(node)
                stack.extend(node.values())
            elif isinstance(node, list):
                stack.extend(node)
            elif _hashable(node):
                self.leaves.add(node)

    def holds(self, secret: Any) -> bool:
        """Does the tree hold ``secret``: equal to a node, or (a dict) inside one?"""
        if isinstance(secret, dict):
            if not secret:
                return self.dicts > 0
            pair = next((p for p in secret.items() if _hashable(p[1])), None)
            if pair is None:
                return _contains(self.tree, secret)
            return any(all(k in d and d[k] == v for k, v in secret.items()) for d in self.dicts_with.get(pair, ()))
        if _hashable(secret):
            return secret in self.leaves
        return _contains(self.tree, secret)


def _hashable(value: Any) -> bool:
    try:
        hash(value)
    except TypeError:  # a list, a dict, a tuple holding one
        return False
    return True


def _contains(tree: Any, secret: Any) -> bool:
    """``Nodes.holds`` by walking the tree: for a secret that is a list, or a dict of lists."""
    stack = [tree]
    while stack:
        node = stack.pop()
        if node == secret:
            return True
        if isinstance(secret, dict) and isinstance(node, dict) and all(k in node and node[k] == v for k, v in secret.items()):
            return True
        if isinstance(node, dict):
            stack.extend(node.values())
        elif isinstance(node, list):
            stack.extend(node)
    return False


def _texts(texts: list[str], most: int = 4) -> str:
    names = [shown(t, 40) for t in texts[:most]] + ([f"{len(texts) - most} more"] if len(texts) > most else [])
    return ", ".join(names[:-1]) + " and " + names[-1]


def click_collisions(clicks: list[tuple[str, Any]]) -> str | None:
    """What the board's menus could not tell apart among one position's legal actions, given
    as (text, click): actions that share a click (the same source and target; a target alone
    counts) where one has no ``choice``, or two the same ``choice``. A click with no target
    (a button) never collides. None when there is nothing."""
    groups: dict[tuple[Any, Any], list[tuple[str, Any]]] = {}
    for text, click in clicks:
        if isinstance(click, dict) and "target" in click:
            key = (click.get("source"), click["target"])
            if all(k is None or isinstance(k, str) for k in key):  # anything else is the board check's to name
                groups.setdefault(key, []).append((text, click.get("choice")))
    for (source, target), members in groups.items():
        if len(members) < 2:
            continue
        spot = f"on {shown(target, 40)}" if source is None else f"from {shown(source, 40)} to {shown(target, 40)}"
        missing = [t for t, c in members if c is None]
        if missing:
            return (f"{_texts([t for t, _ in members])} share one click ({spot}), and {shown(missing[0], 40)} has no 'choice': "
                    "actions that share a click each need a 'choice', their entry in the board's menu")
        seen: dict[str, str] = {}
        for t, c in members:
            if isinstance(c, str) and c in seen:
                return (f"{shown(seen[c], 40)} and {shown(t, 40)} share one click ({spot}) and the same choice {shown(c, 40)}: "
                        "the board's menu could not tell them apart")
            if isinstance(c, str):
                seen[c] = t
    return None
