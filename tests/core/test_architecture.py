"""The house rules, checked from the source: imports point one way (board and lab -> bots
-> core <- games), the core and the games use the standard library only, only the board's
widget imports anywidget, no module imports another that imports it back (no cycles; inside each
folder none even through type-only or function-level imports), no module takes another's
private names, and no generic module names a shipped game."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest
from _paths import ROOT

PACKAGE = ROOT / "kum_widget"
STDLIB = set(sys.stdlib_module_names) | {"__future__"}


def module_name(path: Path) -> str:
    rel = path.relative_to(PACKAGE.parent).with_suffix("")
    parts = list(rel.parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def imports(path: Path) -> list[tuple[str, bool]]:
    """(module, at module level?) for every import in ``path``, relative ones resolved."""
    tree = ast.parse(path.read_text())
    name = module_name(path)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    top_level = {id(node) for node in tree.body}
    type_only = set()
    for node in tree.body:  # `if TYPE_CHECKING:` blocks are not imports at run time
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            type_only |= {id(n) for n in ast.walk(node)}
    out = []
    for node in ast.walk(tree):
        if id(node) in type_only:
            continue
        if isinstance(node, ast.Import):
            out += [(alias.name, id(node) in top_level) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - node.level + 1]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            out.append((target, id(node) in top_level))
    return out


MODULES = {module_name(p): p for p in PACKAGE.rglob("*.py")}


def ours(target: str) -> str | None:
    """The module of this package an import names (the longest match), or None."""
    while target:
        if target in MODULES:
            return target
        target = target.rpartition(".")[0]
    return None


def layer(module: str) -> str:
    parts = module.split(".")
    if len(parts) > 1 and parts[1] in ("core", "games", "bots", "lab", "board", "referee"):
        return parts[1]
    return "shell"  # kum_widget/__init__


def test_the_core_and_the_games_use_the_standard_library_only() -> None:
    for module, path in MODULES.items():
        if layer(module) not in ("core", "games"):
            continue
        for target, _ in imports(path):
            top = target.split(".")[0]
            assert top in STDLIB or top == "kum_widget", f"{module} imports {target}"
            if top == "kum_widget":
                allowed = {"core"} if layer(module) == "core" else {"core", "games"}
                assert layer(ours(target) or target) in allowed, f"{module} ({layer(module)}) imports {target}"


def test_bots_know_no_game_and_nothing_above_them() -> None:
    for module, path in MODULES.items():
        if layer(module) != "bots":
            continue
        for target, _ in imports(path):
            if target.startswith("kum_widget"):
                assert layer(ours(target) or target) in ("core", "bots"), f"{module} imports {target}"


def test_the_board_knows_no_game() -> None:
    board = [m for m in MODULES if layer(m) == "board"]
    assert {"kum_widget.board.widget", "kum_widget.board.router", "kum_widget.board.seats", "kum_widget.board.replay"} <= set(board)
    for module in board:
        for target, _ in imports(MODULES[module]):
            if target.startswith("kum_widget"):
                assert layer(ours(target) or target) in ("core", "bots", "board", "referee"), f"{module} imports {target}"


def test_the_referee_knows_no_game_and_nothing_above_it() -> None:
    """The referee sits on the core and the bots (its bots' seats); the board's seat at a table
    (``kum.join``) sits on it, never the other way round."""
    referee = [m for m in MODULES if layer(m) == "referee"]
    assert {"kum_widget.referee.table", "kum_widget.referee.server", "kum_widget.referee.client"} <= set(referee)
    for module in referee:
        for target, _ in imports(MODULES[module]):
            if target.startswith("kum_widget"):
                assert layer(ours(target) or target) in ("core", "bots", "referee"), f"{module} imports {target}"
            else:
                assert target.split(".")[0] in STDLIB | {"websockets"}, f"{module} imports {target}"


def test_only_the_widget_imports_anywidget() -> None:
    """The board (its widget) and the teacher's view of a referee's tables, a column of boards."""
    for module, path in MODULES.items():
        for target, _ in imports(path):
            if target.split(".")[0] in ("anywidget", "ipywidgets", "traitlets"):
                assert module in ("kum_widget.board.widget", "kum_widget.board.tables_view"), f"{module} imports {target}"


def test_no_import_cycles() -> None:
    graph: dict[str, set[str]] = {m: set() for m in MODULES}
    for module, path in MODULES.items():
        for target, _ in imports(path):
            found = ours(target)
            if found and found != module and not module.startswith(found + "."):
                graph[module].add(found)
    # a package's __init__ re-exporting its modules is not a cycle of theirs: drop package -> child edges
    for module in graph:
        graph[module] = {t for t in graph[module] if not t.startswith(module + ".")}
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(m: str) -> None:
        state[m] = 1
        stack.append(m)
        for t in sorted(graph[m]):
            if state.get(t) == 1:
                cycle = [*stack[stack.index(t):], t]
                raise AssertionError("import cycle: " + " -> ".join(cycle))
            if t not in state:
                visit(t)
        stack.pop()
        state[m] = 2

    for m in sorted(graph):
        if m not in state:
            visit(m)


def test_the_front_end_uses_only_anywidgets_standard_api() -> None:
    """What lets the board run in every host (JupyterLab, Notebook 7, Voila, marimo, VS Code,
    Colab): ``render({model, el})`` and the model's get/on/off/send, nothing of any host;
    its modules import only each other (no package, no URL)."""
    import re

    js = PACKAGE.parent / "js"
    used: set[str] = set()
    for path in js.glob("*.js"):
        text = path.read_text()
        used |= set(re.findall(r"\bmodel\.(\w+)", text))
        for source in re.findall(r"""^\s*import\b[^'"]*['"]([^'"]+)['"]""", text, flags=re.M):
            assert source.startswith("./") and source.endswith(".js"), f"{path.name} imports {source}"
        assert not re.search(r"\b(require|define)\(|jupyterlab|@jupyter|window\.jupyterapp|IPython", text), path.name
    assert used <= {"get", "on", "off", "send"}, used
    assert "export default { render }" in (js / "widget.js").read_text()


# -- no generic module names a shipped game --------------------------------------------------
# The games are plug-ins (entry points of the group kum_widget.games, pyproject.toml): the core,
# the bots, the lab, the widget and the replay files reach a game through the registry and its
# hooks, so none of them may name a shipped game or one of its options in code. Docstrings may
# (they give examples); the games' own modules and the package's face (kum_widget/__init__.py,
# which re-exports kum.Game and kum.Court) may.

ROOT = PACKAGE.parent
# an option's name that is also generic vocabulary
GENERIC_WORDS = {
    "hand": "a zone layout of the board schema (GAMES.md)",
    "goal": "the design map's goal= (what a measure aims at); Connect Four's option is its line length",
    "workers": "the lab's worker processes; the Woodcutters' option is its workers per player",
    "turns": "a game's length in turns, which the lab reads from any game's summary that gives it",
    "table": "a referee's table (one game of a class, kum_widget.referee); the court's option is its table of ranks",
}
ALLOWED = {("kum_widget.lab.play", "first_player"): "FIRST_COLUMN: the lab's column of who moved first, a game's summary fills it"}


def shipped_games() -> dict[str, type]:
    """Every entry point name of pyproject.toml's kum_widget.games, to its class."""
    import importlib
    import tomllib

    points = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["entry-points"]["kum_widget.games"]
    out = {}
    for name, value in points.items():
        module, _, attr = value.partition(":")
        out[name] = getattr(importlib.import_module(module), attr)
    return out


LAB_OWN = {"game", "seed", "players", "actions", "n_winners", "winners", "bot", "score", "win"}  # kum_widget/lab/play.py


def game_words(games: dict[str, type]) -> set[str]:
    """What names a shipped game: its names, aliases, option names and the columns its
    ``columns`` hook lists for the lab's tables (``race`` of ``race_0``; computed, so a new
    option, column or game is covered at once), but for words that are also the core's vocabulary."""
    import re

    words: set[str] = set()
    for name, cls in games.items():
        game = cls()
        words |= {name, cls.name, *getattr(cls, "aliases", ()), *game.options()}
        listed = game.columns(game.max_players) or []
        words |= {re.sub(r"_\d+$", "", c) for c in listed} - LAB_OWN
    return words - set(GENERIC_WORDS)


def named_games(source: str, words: set[str], names: frozenset[str] = frozenset()) -> list[str]:
    """The string literals of ``source`` (docstrings aside) that name one of ``words``: equal
    to one, or holding one with a '-' or '_' in it (``kings-under-mountains``, ``first_player``)
    as a whole word, say in an error message; and the identifiers one of whose '_'-parts is a
    game's name in ``names`` (``game.kum_rules``)."""
    import re

    tree = ast.parse(source)
    found = []
    for node in ast.walk(tree):
        ident = node.attr if isinstance(node, ast.Attribute) else node.id if isinstance(node, ast.Name) else None
        if ident and names & set(ident.lower().split("_")):
            found.append(f"line {node.lineno}: {ident}")
    docs = {id(node.value) for node in ast.walk(tree) if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant)}
    distinct = [w for w in words if "-" in w or "_" in w]
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Constant) and isinstance(node.value, str)) or id(node) in docs:
            continue
        text = node.value
        hits = [text] if text in words else [w for w in distinct if re.search(rf"(?<![\w-]){re.escape(w)}(?![\w-])", text)]
        found += [f"line {node.lineno}: {hit!r}" for hit in hits]
    return found


def generic_offences(package: Path, games: dict[str, type]) -> list[str]:
    """Every literal naming a shipped game in a module of ``package`` outside kum_widget/games/,
    the package's __init__ and the games' own modules (Bust lives in core/examples.py)."""
    words = game_words(games)
    names = frozenset(n for name, cls in games.items() for n in (name, cls.name, *cls.aliases) if n.isalpha())
    own = {cls.__module__ for cls in games.values()} | {"kum_widget"}
    out = []
    for path in sorted(package.rglob("*.py")):
        rel = path.relative_to(package.parent).with_suffix("")
        module = ".".join(rel.parts[:-1] if rel.parts[-1] == "__init__" else rel.parts)
        if module in own or module.startswith("kum_widget.games"):
            continue
        allowed = {w for (m, w) in ALLOWED if m == module}
        out += [f"{module} {hit}" for hit in named_games(path.read_text(), words, names) if hit.split(": ", 1)[1].strip("'") not in allowed]
    return out


def test_no_generic_module_names_a_shipped_game_or_its_options() -> None:
    games = shipped_games()
    assert {"kings-under-mountains", "kum", "court", "bust"} <= set(games)
    assert {"races", "first_player", "full_court", "limit"} <= game_words(games)
    assert generic_offences(PACKAGE, games) == []


def test_the_game_name_check_catches_every_form() -> None:
    words = game_words(shipped_games())
    for source in ('DEFAULT = "kings-under-mountains"', 'simulate(game="court")', 'new(**{"races": r})',
                   'f(aliases={"kum": "x"})', 'raise E(f"{x}: the kings-under-mountains deck")',
                   'OPTIONS = ("players", "first_player")', 'x = f"first_player={n}"',
                   'by = "race" if "race" in long.columns else "bot"'):
        assert named_games(source, words), source
    assert named_games("deck = game.kum_rules.deck", words, frozenset({"kum"}))
    assert not named_games("deck = game.rules.deck", words, frozenset({"kum"}))
    for source in ('"""The court solitaire and kings-under-mountains, in a docstring."""', 'host = "kum-replay"',
                   'layout = "hand"', 'x = "courtyard"', 'y = f"kum.Game {n}"', 'z = "hand_sizes"'):
        assert not named_games(source, words), source


# -- every folder a line of imports: no circles, no sibling's private names ---------------------
# A circle counts type-only imports (`if TYPE_CHECKING:`) and imports inside functions too: either
# way the two modules cannot be read one without the other.

SUBPACKAGES = {
    "core": ("kum_widget.core",),
    "bots": ("kum_widget.bots",),
    "lab": ("kum_widget.lab",),
    "games/kum": ("kum_widget.games.kum",),
    "games/court": ("kum_widget.games.court",),
    "gallery": ("kum_widget.gallery",),
    "board": ("kum_widget.board",),  # with the modules at the package's top, below
}
FOLDERS = tuple(p for prefixes in SUBPACKAGES.values() for p in prefixes)


def subpackage_of(module: str) -> str:
    for key, prefixes in SUBPACKAGES.items():
        if any(module == p or module.startswith(p + ".") for p in prefixes):
            return key
    return "board" if module.count(".") <= 1 else ""  # kum_widget, kum_widget.widget, kum_widget._board_*...


def resolved(path: Path, node: ast.ImportFrom | ast.Import) -> list[tuple[str, list[str]]]:
    """(module of this package or beyond, names taken from it) for one import statement; a
    ``from pkg import mod`` of a submodule names the submodule itself."""
    if isinstance(node, ast.Import):
        return [(alias.name, []) for alias in node.names]
    name = module_name(path)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    if node.level:
        base = package.split(".")[: len(package.split(".")) - node.level + 1]
        target = ".".join(base + ([node.module] if node.module else []))
    else:
        target = node.module or ""
    out: list[tuple[str, list[str]]] = []
    names = []
    for alias in node.names:
        if f"{target}.{alias.name}" in MODULES:
            out.append((f"{target}.{alias.name}", []))
        else:
            names.append(alias.name)
    if names or not out:
        out.append((target, names))
    return out


def edges(path: Path) -> list[tuple[str, list[str], int]]:
    """(our module imported, the names taken from it, line) for every import of ``path``: at
    module level, in a function or under TYPE_CHECKING alike."""
    out = []
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import | ast.ImportFrom):
            for target, names in resolved(path, node):
                found = ours(target)
                if found:
                    out.append((found, names, node.lineno))
    return out


def import_graph() -> dict[str, set[str]]:
    """Module -> the modules of this package it imports. A package's ``__init__`` exposing its
    own modules is its face, not a dependency: an edge from a package to one of its modules
    is left out (a module importing its own package's ``__init__`` is kept)."""
    graph: dict[str, set[str]] = {m: set() for m in MODULES}
    for module, path in MODULES.items():
        for found, _, _ in edges(path):
            if found != module and not found.startswith(module + "."):
                graph[module].add(found)
    return graph


def cycles_within(graph: dict[str, set[str]], members: set[str]) -> list[list[str]]:
    """One circle through each strongly connected group of ``members`` (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    groups: list[list[str]] = []

    def visit(m: str) -> None:
        index[m] = low[m] = len(index)
        stack.append(m)
        for t in sorted(graph[m] & members):
            if t not in index:
                visit(t)
                low[m] = min(low[m], low[t])
            elif t in stack:
                low[m] = min(low[m], index[t])
        if low[m] == index[m]:
            group = []
            while True:
                t = stack.pop()
                group.append(t)
                if t == m:
                    break
            if len(group) > 1:
                groups.append(sorted(group))

    for m in sorted(members):
        if m not in index:
            visit(m)
    return groups


@pytest.mark.parametrize("folder", list(SUBPACKAGES))
def test_no_import_circle_in(folder: str) -> None:
    members = {m for m in MODULES if subpackage_of(m) == folder}
    assert members or folder == "board", folder
    assert cycles_within(import_graph(), members) == []


@pytest.mark.parametrize("folder", list(SUBPACKAGES))
def test_no_module_takes_a_private_name_of_another(folder: str) -> None:
    """``from .x import _y`` (or ``x._y`` on an imported module) reaches into a sibling: the
    shared piece is public in its package, or lives where it belongs."""
    found = []
    for module, path in sorted(MODULES.items()):
        if subpackage_of(module) != folder:
            continue
        tree = ast.parse(path.read_text())
        aliases: dict[str, str] = {}  # local name -> our module
        for node in ast.walk(tree):
            if isinstance(node, ast.Import | ast.ImportFrom):
                for target, names in resolved(path, node):
                    if ours(target) and ours(target) != module:
                        found += [f"{module} line {node.lineno}: {n} from {target}" for n in names if private(n)]
                        if not names:
                            for alias in node.names:
                                local = alias.asname or alias.name.split(".")[0]
                                if isinstance(node, ast.ImportFrom) or alias.asname:
                                    aliases[local] = target
        for node in ast.walk(tree):
            if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id in aliases and private(node.attr):
                found.append(f"{module} line {node.lineno}: {node.value.id}.{node.attr} of {aliases[node.value.id]}")
    assert found == []


def private(name: str) -> bool:
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


def test_the_circle_finder_sees_every_form() -> None:
    """The finder reads ``from . import x``, imports in functions and type-only imports."""
    graph = {"p.a": {"p.b"}, "p.b": {"p.c"}, "p.c": {"p.a"}, "p.d": {"p.a"}}
    assert cycles_within(graph, set(graph)) == [["p.a", "p.b", "p.c"]]
    assert cycles_within(graph, {"p.a", "p.b", "p.d"}) == []
    here = MODULES["kum_widget.lab.analysis"]
    source = ast.parse("from . import readings as say\ndef f():\n    from .play import _x\nif TYPE_CHECKING:\n    from .stats import wilson\n")
    found = []
    for node in ast.walk(source):
        if isinstance(node, ast.Import | ast.ImportFrom):
            found += resolved(here, node)
    assert sorted(found) == [("kum_widget.lab.play", ["_x"]), ("kum_widget.lab.readings", []), ("kum_widget.lab.stats", ["wilson"])]


def test_import_kum_widget_imports_no_game_and_the_names_at_the_top_load_on_first_use() -> None:
    """``kum.Game``, ``kum.Court``... come from their game's package when first read (found
    through the game's entry point); ``import kum_widget`` imports no game."""
    import subprocess

    code = (
        "import sys, kum_widget as kum\n"
        "before = sorted(m for m in sys.modules if m.startswith('kum_widget.games.'))\n"
        "from kum_widget.games import court, kum as seed\n"
        "ns = {}\n"
        "exec('from kum_widget import *', ns)\n"
        "same = all(getattr(kum, n) is getattr(seed if n in kum.FACES['kings-under-mountains'] else court, n)\n"
        "           for n in [*kum.FACES['kings-under-mountains'], *kum.FACES['court']])\n"
        "print(before, same, kum.court is court, set(kum.__all__) <= set(ns), set(kum.__all__) <= set(dir(kum)))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT)
    assert out.stdout.split() == ["[]", "True", "True", "True", "True"], out.stdout + out.stderr
    import kum_widget

    with pytest.raises(AttributeError, match="no attribute 'Nope'"):
        kum_widget.Nope  # noqa: B018


def _session_privates() -> set[str]:
    """The private names of ``core.Session``: its methods and the fields it sets on ``self``."""
    tree = ast.parse((PACKAGE / "core" / "session.py").read_text())
    session = next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == "Session")
    names = {n.name for n in session.body if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef) and private(n.name)}
    for node in ast.walk(session):
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "self" and private(node.attr):
            names.add(node.attr)
    return names


def test_the_session_is_final_no_module_reaches_into_it() -> None:
    """A game's own session (``kum.Game``, ``kum.Court``) neither overrides nor reads a private
    member of ``core.Session``, and no other module reads one of a session: every layer and
    every game uses the public session."""
    privates = _session_privates()
    assert {"_state", "_history", "_resolve", "_public_action", "_is_legal"} <= privates  # the scan sees them
    found = []
    for module, path in sorted(MODULES.items()):
        if module == "kum_widget.core.session":
            continue
        tree = ast.parse(path.read_text())
        subclasses = [n for n in ast.walk(tree) if isinstance(n, ast.ClassDef)
                      and any(ast.unparse(b).split(".")[-1] == "Session" for b in n.bases)]
        for cls in subclasses:
            for node in ast.walk(cls):
                if isinstance(node, ast.FunctionDef) and node.name in privates:
                    found.append(f"{module} line {node.lineno}: {cls.name} overrides Session.{node.name}")
                elif isinstance(node, ast.Attribute) and node.attr in privates:
                    found.append(f"{module} line {node.lineno}: {cls.name} reads {ast.unparse(node)}")
        for node in ast.walk(tree):  # another object's: a session's private field or method, read from outside
            if (isinstance(node, ast.Attribute) and node.attr in privates
                    and not (isinstance(node.value, ast.Name) and node.value.id in ("self", "cls"))):
                found.append(f"{module} line {node.lineno}: {ast.unparse(node)}")
    assert sorted(set(found)) == []
