"""Every snippet of README.md and GAMES.md runs where it is shown (issue 42, item 1).

- Every ```python block runs as written, in a fresh interpreter per section (a ``## `` heading
  and its subsections: the blocks of one section share it, in order), in a temporary folder,
  with no DeprecationWarning from kum_widget or the snippet. The interpreter is the section's
  alone, as a script's: a game it registers, a board it makes end with it.
- A snippet too long for a test run is shrunk by a visible text replacement, listed in
  ``SHRINK`` (each must apply exactly once, so a stale one fails).
- Every other block (```bash, ```toml, ```text) is run by a named test (``RUN_BY``) or is
  preceded by ``<!-- not run: why -->``; the number of such marked blocks is asserted.
"""

from __future__ import annotations

import ast
import json
import os
import re
import subprocess
import sys
import tomllib
from dataclasses import dataclass
from pathlib import Path

import pytest
from _paths import ROOT

DOCS = ("README.md", "GAMES.md")
NOT_RUN = re.compile(r"^<!-- not run: (.+) -->$")

# (doc, text of a python block) -> what the test runs instead: games cut for a test run.
SHRINK: dict[tuple[str, str], str] = {
    ("README.md", 'kum.simulate(1000, bots=("greedy", "greedy")'): 'kum.simulate(20, bots=("greedy", "greedy")',
    ("README.md", '{"end": "finish_round"}, games=1000)'): '{"end": "finish_round"}, games=20)',
    ("README.md", 'kum.lab.report("kings-under-mountains", target=(60, 100))'):
        'kum.lab.report("kings-under-mountains", target=(60, 100), games=40, luck_games=10, what_wins_games=10, ladder_games=10)',
    ("README.md", 'kum.lab.what_wins("kings-under-mountains")'): 'kum.lab.what_wins("kings-under-mountains", games=10)',
    ("README.md", 'measure="first_player_edge", executor=2)'): 'measure="first_player_edge", executor=2, games=6)',
}

# Blocks that are not Python, each run by the named tests ("file::test"), by its first line.
RUN_BY: dict[tuple[str, str], tuple[str, ...]] = {
    ("README.md", "make lab    # JupyterLab on notebooks/01_play.ipynb"): (
        "tests/hosts/test_makefile.py::test_make_lab_serves_the_repository_and_opens_the_play_notebook",
        "tests/hosts/test_makefile.py::test_root_installs_chromium_then_node_before_anything_else"),  # make test
    ("README.md", "make html NB=notebooks/01_play.ipynb"): (
        "tests/hosts/test_makefile.py::test_make_html_runs_the_readmes_export_command",),
    ("README.md", "make site        # builds it into site/ (about 41 MB of static files)"): (  # what make test-site runs
        "tests/site/test_site_manifest.py::test_course_notebooks_are_generated_from_notebooks",
        "tests/site/test_site_browser.py::test_a_whole_game_against_the_greedy_bot_and_its_replay_offline"),
    ("README.md", "# the pyproject.toml of your package"): ("tests/core/test_docs.py::test_the_entry_point_tables_are_pyprojects",),
    ("GAMES.md", '[project.entry-points."kum_widget.games"]'): ("tests/core/test_docs.py::test_the_entry_point_tables_are_pyprojects",),
    ("GAMES.md", '[project.entry-points."kum_widget.tables"]'): ("tests/core/test_docs.py::test_the_entry_point_tables_are_pyprojects",),
    # "Play as a class": its class file and commands, run as written on loopback, and its ```py
    # block, a jupyterhub_config.py (JupyterHub runs it with `c` defined), read as a hub would
    ("README.md", "[[table]]"): ("tests/referee/test_referee_readme.py::test_the_class_file_is_served_by_the_serve_command",),
    ("README.md", "kum-widget serve class.toml    # or: python -m kum_widget.serve class.toml"): (
        "tests/referee/test_referee_readme.py::test_the_class_file_is_served_by_the_serve_command",),
    ("README.md", "openssl req -x509 -newkey rsa:2048 -nodes -days 30 -keyout referee.key -out referee.pem \\"): (
        "tests/referee/test_referee_readme.py::test_the_certificate_serves_wss_to_students_who_trust_it",),
    ("README.md", "# jupyterhub_config.py (JupyterHub runs it with c, its configuration)"): (
        "tests/referee/test_referee_readme.py::test_the_jupyterhub_service_is_the_serve_command_on_the_address_students_join",),
}
MARKED = 7  # blocks preceded by <!-- not run: why -->: adding one is a deliberate act


@dataclass(frozen=True)
class Block:
    doc: str
    line: int  # of the block's first line of code
    lang: str
    code: str
    section: str
    not_run: str | None

    @property
    def first(self) -> str:
        return next((x for x in self.code.splitlines() if x.strip()), "")


def blocks(doc: str) -> list[Block]:
    lines = (ROOT / doc).read_text(encoding="utf-8").split("\n")
    out, section, i = [], "(top)", 0
    while i < len(lines):
        if lines[i].startswith("## "):
            section = lines[i][3:].strip()
        fence = re.match(r"^```(\S*)\s*$", lines[i])
        if fence:
            end = next(j for j in range(i + 1, len(lines)) if lines[j].startswith("```"))
            before = next((lines[j] for j in range(i - 1, -1, -1) if lines[j].strip()), "")
            marker = NOT_RUN.match(before.strip())
            out.append(Block(doc, i + 2, fence.group(1), "\n".join(lines[i + 1:end]) + "\n", section, marker and marker.group(1)))
            i = end
        i += 1
    return out


ALL = [b for doc in DOCS for b in blocks(doc)]
PYTHON = [b for b in ALL if b.lang == "python"]
SECTIONS = list(dict.fromkeys((b.doc, b.section) for b in PYTHON))


def shrunk(block: Block) -> str:
    code = block.code
    for (doc, old), new in SHRINK.items():
        if doc == block.doc and old in code:
            code = code.replace(old, new)
    return code


# Runs one section's blocks in a fresh interpreter, as a script in a folder of its own would: a
# game a snippet registers by name, a board it makes, a file it saves stay there. Prints the
# DeprecationWarnings from kum_widget or the docs (the place a warning names: the caller's).
RUNNER = """\
import json, sys, types, warnings
blocks, docs = json.load(sys.stdin)
module = types.ModuleType("docs_snippet")  # a module, as a cell's or a script's (dataclasses look it up)
sys.modules[module.__name__] = module
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    for path, line, code in blocks:
        exec(compile("\\n" * (line - 1) + code, path, "exec"), module.__dict__)
ours = [f"{w.filename}:{w.lineno}: {w.message}" for w in caught
        if issubclass(w.category, DeprecationWarning) and (w.filename.endswith(tuple(docs)) or "kum_widget" in w.filename)]
print("KUM-DEPRECATED " + json.dumps(ours))
"""
DEPRECATED = "KUM-DEPRECATED "


def run_section(blocks: list[tuple[str, int, str]], where: Path) -> list[str]:
    """Run ``(path, line, code)`` blocks in order, in one namespace, in a fresh interpreter in
    ``where``; the DeprecationWarnings they raised from kum_widget or the docs. A failure
    fails the test with the interpreter's traceback (it names the doc's file and line)."""
    env = {**os.environ, "MPLBACKEND": "Agg"}
    out = subprocess.run([sys.executable, "-c", RUNNER], input=json.dumps([blocks, list(DOCS)]), capture_output=True,
                         text=True, timeout=600, cwd=where, env=env, check=False)
    assert out.returncode == 0 and DEPRECATED in out.stdout, out.stderr[-4000:]
    found: list[str] = json.loads(out.stdout.rsplit(DEPRECATED, 1)[1])
    return found


SLOW = {("README.md", "Design lab")}  # about 20 s even shrunk: slow (README's "quick subset"), and make soak's (test_lab*.py run its calls)


@pytest.mark.parametrize(("doc", "section"), [pytest.param(d, s, id=f"{d}: {s}", marks=[pytest.mark.slow, pytest.mark.soak] if (d, s) in SLOW else [])
                                              for d, s in SECTIONS])
def test_every_python_block_runs_where_it_is_shown(doc: str, section: str, tmp_path: Path) -> None:
    blocks = [(str(ROOT / doc), b.line, shrunk(b)) for b in PYTHON if (b.doc, b.section) == (doc, section)]
    assert run_section(blocks, tmp_path) == [], f"{doc}, {section}: DeprecationWarnings"


def test_a_failing_or_deprecated_snippet_is_caught(tmp_path: Path) -> None:
    """The runner is not vacuous: a snippet's error fails, a deprecated call is reported, and
    the blocks of a section share their names."""
    doc = str(ROOT / "README.md")
    with pytest.raises(AssertionError, match=r"README\.md\", line 3"):
        run_section([(doc, 1, "x = 1\n"), (doc, 3, "y = x + missing\n")], tmp_path)
    deprecated = "import warnings\nx = 1\nwarnings.warn('an old call: write the new one', DeprecationWarning)\n"
    (found,) = run_section([(doc, 10, deprecated)], tmp_path)
    assert found.startswith(f"{doc}:12: ") and "write the new one" in found, found


def test_the_shrinks_each_apply_to_one_block() -> None:
    for (doc, old), new in SHRINK.items():
        found = [b.line for b in PYTHON if b.doc == doc and old in b.code]
        assert len(found) == 1 and PYTHON[0].code.count(old) <= 1, f"SHRINK {old!r} of {doc} matches blocks at lines {found}"
        assert old != new


def test_every_other_block_is_run_by_a_named_test_or_marked_not_run() -> None:
    others = [b for b in ALL if b.lang != "python"]
    assert all(b.lang for b in ALL), [f"{b.doc}:{b.line}" for b in ALL if not b.lang]  # every block says its language
    assert [b for b in PYTHON if b.not_run] == [], "a python block runs: it cannot be marked not run"
    unexplained = [f"{b.doc}:{b.line} ({b.lang}) {b.first!r}" for b in others if not b.not_run and (b.doc, b.first) not in RUN_BY]
    assert unexplained == [], "blocks neither run by a test (RUN_BY) nor marked <!-- not run: why -->"
    marked = [f"{b.doc}:{b.line}: {b.not_run}" for b in others if b.not_run]
    assert len(marked) == MARKED, marked
    firsts = {(b.doc, b.first) for b in others}
    assert set(RUN_BY) <= firsts, f"RUN_BY names blocks the docs no longer have: {set(RUN_BY) - firsts}"
    for tests in RUN_BY.values():
        for test in tests:
            path, _, name = test.partition("::")
            defined = {n.name for n in ast.walk(ast.parse((ROOT / path).read_text())) if isinstance(n, ast.FunctionDef)}
            assert name in defined, f"RUN_BY names {test}, which does not exist"


def test_the_entry_point_tables_are_pyprojects() -> None:
    """The toml blocks are what a package's pyproject.toml holds: the groups the registry (games,
    named as games are) and the lab (tables, named as Python names) read, each entry point a
    module and an attribute, as kum_widget's own."""
    from kum_widget.core.registry import GROUP
    from kum_widget.lab.game_tables import GROUP as TABLES

    names = {GROUP: r"[a-z][a-z0-9-]*", TABLES: r"[a-z_][a-z0-9_]*"}
    own = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["entry-points"]
    tables = [b for b in ALL if b.lang == "toml" and "tests/core/test_docs.py::test_the_entry_point_tables_are_pyprojects" in RUN_BY.get((b.doc, b.first), ())]
    assert len(tables) == 3 and {GROUP, TABLES} <= set(own)
    for block in tables:
        for group, points in tomllib.loads(block.code)["project"]["entry-points"].items():
            assert group in names, group
            for name, value in [*points.items(), *own[group].items()]:
                assert re.fullmatch(names[group], name) and re.fullmatch(r"\w+(\.\w+)*:\w+", value), (name, value)


def test_no_snippet_edits_sys_path_or_names_a_folder_of_examples() -> None:
    """What is shown runs as shown: a game is imported from the package or found by name."""
    texts = {doc: (ROOT / doc).read_text(encoding="utf-8") for doc in DOCS}
    for nb in sorted((ROOT / "notebooks").glob("*.ipynb")):
        texts[nb.name] = "".join("".join(c["source"]) for c in json.loads(nb.read_text())["cells"])
    for name, text in texts.items():
        assert "sys.path" not in text, name
        assert not re.search(r"(?<![\w/])examples/", text), name


def test_the_gallery_is_pointed_to_by_path() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    for module in ("undercut", "connect_four", "whispers", "workers"):
        assert f"kum_widget/gallery/{module}.py" in readme, module
        assert (ROOT / "kum_widget" / "gallery" / f"{module}.py").is_file()


def test_what_a_bot_thought_prints_as_shown() -> None:
    """GAMES.md shows the first lines of the table it makes: they are what it prints."""
    block = next(b for b in PYTHON if b.section == "What a bot thought")
    shown = [line[2:] for line in block.code.splitlines() if line.startswith("# ")]
    import kum_widget as kum
    from kum_widget.bots import analyse

    printed = str(analyse(kum.Game(["Ada", "Bo"], seed=1))).splitlines()
    assert shown[-1].strip() == "..." and printed[:len(shown) - 1] == shown[:-1]


def test_the_test_run_turns_a_deprecated_call_into_an_error() -> None:
    """pyproject.toml's filterwarnings: a test (or a doc it runs) still on an old API fails,
    it does not pass with a warning nobody reads."""
    import warnings

    with pytest.raises(DeprecationWarning, match="write the new one"):
        warnings.warn("an old call: write the new one", DeprecationWarning, stacklevel=1)


def test_games_md_lists_the_optional_methods_by_group_as_the_core_reads_them() -> None:
    from kum_widget.core.capabilities import GROUPS

    text = (ROOT / "GAMES.md").read_text()
    block = text.split("<!-- not run: the optional methods by group", 1)[1].split("```text\n", 1)[1].split("```", 1)[0]
    listed = {line[:20].strip(): tuple(line[20:].split(", ")) for line in block.strip().splitlines()}
    assert listed == dict(GROUPS)
    assert text.index(block) < 3000  # on the first screen, after the required methods
