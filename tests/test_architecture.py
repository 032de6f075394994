"""The house rules, checked from the source: imports point one way (board and lab -> bots
-> core <- games), the core and the games use the standard library only, only the board's
widget imports anywidget, and no module imports another that imports it back (no cycles)."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "kum_widget"
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
    if len(parts) > 1 and parts[1] in ("core", "games", "bots", "lab", "board"):
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
                assert layer(ours(target) or target) in ("core", "bots", "board"), f"{module} imports {target}"


def test_only_the_widget_imports_anywidget() -> None:
    for module, path in MODULES.items():
        for target, _ in imports(path):
            if target.split(".")[0] in ("anywidget", "ipywidgets", "traitlets"):
                assert module == "kum_widget.board.widget", f"{module} imports {target}"


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


def game_words(games: dict[str, type]) -> set[str]:
    """What names a shipped game: its names, aliases and option names (computed, so a new
    option or game is covered at once), but for words that are also the core's vocabulary."""
    words: set[str] = set()
    for name, cls in games.items():
        words |= {name, cls.name, *getattr(cls, "aliases", ()), *cls().options()}
    return words - set(GENERIC_WORDS)


def named_games(source: str, words: set[str]) -> list[str]:
    """The string literals of ``source`` (docstrings aside) that name one of ``words``: equal
    to one, or holding one with a '-' or '_' in it (``kings-under-mountains``, ``first_player``)
    as a whole word, say in an error message."""
    import re

    tree = ast.parse(source)
    docs = {id(node.value) for node in ast.walk(tree) if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant)}
    distinct = [w for w in words if "-" in w or "_" in w]
    found = []
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
    own = {cls.__module__ for cls in games.values()} | {"kum_widget"}
    out = []
    for path in sorted(package.rglob("*.py")):
        rel = path.relative_to(package.parent).with_suffix("")
        module = ".".join(rel.parts[:-1] if rel.parts[-1] == "__init__" else rel.parts)
        if module in own or module.startswith("kum_widget.games"):
            continue
        allowed = {w for (m, w) in ALLOWED if m == module}
        out += [f"{module} {hit}" for hit in named_games(path.read_text(), words) if hit.split(": ", 1)[1].strip("'") not in allowed]
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
                   'OPTIONS = ("players", "first_player")', 'x = f"first_player={n}"'):
        assert named_games(source, words), source
    for source in ('"""The court solitaire and kings-under-mountains, in a docstring."""', 'host = "kum-replay"',
                   'layout = "hand"', 'x = "courtyard"', 'y = f"kum.Game {n}"', 'z = "hand_sizes"'):
        assert not named_games(source, words), source


STRICT_FOLDERS = ("kum_widget.core", "kum_widget.games.kum")  # no cycle at all inside, no sibling's private name


def folder_imports(path: Path) -> list[tuple[str, str]]:
    """(module, name) for every ``from X import name`` in ``path``, type-only and local imports
    included, ``from . import records`` read as the module ``records``."""
    tree = ast.parse(path.read_text())
    name = module_name(path)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            base = package.split(".")[: len(package.split(".")) - node.level + 1] if node.level else []
            target = ".".join(base + ([node.module] if node.module else []))
            for alias in node.names:
                full = f"{target}.{alias.name}"
                out.append((full, "") if full in MODULES else (target, alias.name))
        elif isinstance(node, ast.Import):
            out += [(alias.name, "") for alias in node.names]
    return out


def strict_graph(folder: str) -> tuple[dict[str, set[str]], list[str]]:
    """The imports between the modules of ``folder`` (its __init__ left out: it re-exports),
    and each import of a sibling's private name."""
    members = {m for m in MODULES if m.rpartition(".")[0] == folder}
    graph: dict[str, set[str]] = {m: set() for m in members}
    private = []
    for module in members:
        for target, name in folder_imports(MODULES[module]):
            if target in members and target != module:
                graph[module].add(target)
                if name.startswith("_"):
                    private.append(f"{module} imports {target}.{name}")
    return graph, private


def a_cycle(graph: dict[str, set[str]]) -> list[str]:
    """One import cycle of ``graph`` (its modules in order, the first again at the end), or []."""
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(m: str) -> list[str]:
        state[m] = 1
        stack.append(m)
        for t in sorted(graph[m]):
            if state.get(t) == 1:
                return [*stack[stack.index(t):], t]
            if t not in state and (found := visit(t)):
                return found
        stack.pop()
        state[m] = 2
        return []

    for m in sorted(graph):
        if m not in state and (found := visit(m)):
            return found
    return []


def test_the_strict_folders_have_no_cycle_even_for_types_and_share_no_private_name() -> None:
    for folder in STRICT_FOLDERS:
        graph, private = strict_graph(folder)
        assert len(graph) > 10 and private == [], private
        assert a_cycle(graph) == [], "import cycle: " + " -> ".join(a_cycle(graph))
    assert a_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": set()}) == ["a", "b", "c", "a"]
