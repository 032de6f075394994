"""Every notebook runs top to bottom in a fresh kernel, and is committed without outputs.

The tests run each notebook with its "parameters" cell (the first code cell) followed by
the overrides in ``FAST``, so bot delays and game counts stay small. A notebook with no
entry in ``FAST`` runs with its own parameters. ``test_e2e_notebooks.py`` uses the same
overrides in JupyterLab.
"""

from __future__ import annotations

import json
import re
import tempfile
from pathlib import Path
from typing import Any

import nbformat
import pytest
from nbclient import NotebookClient

NOTEBOOK_DIR = Path(__file__).resolve().parent.parent / "notebooks"
NOTEBOOKS = sorted(NOTEBOOK_DIR.glob("*.ipynb"))

# Per notebook: parameter values for the tests (the notebook's own ones stay in place above).
FAST: dict[str, dict[str, Any]] = {
    "01_play.ipynb": {"BOT_DELAY": 0.0},
    "02_rules_tour.ipynb": {"BOT_DELAY": 0.0},
    "03_scripting.ipynb": {"BOT_DELAY": 0.0, "TURNS": 2, "GAMES": 2},
    "04_design_lab.ipynb": {"GAMES": 40, "WORKERS": 0, "BOTS": "random"},
    "05_make_a_game.ipynb": {"GAMES": 100, "ISMCTS_GAMES": 4, "BOT_DELAY": 0.0},
    "06_court.ipynb": {"GAMES": 40, "WORKERS": 0},
    "07_design_report.ipynb": {"GAMES": 40, "MAP_GAMES": 10, "WORKERS": 0,
                               "REPORT_FILE": str(Path(tempfile.gettempdir()) / "kum_design_report_nbtest.html"),
                               # a notebook the tests run elsewhere (JupyterLab's copy) finds the gallery here
                               "EXAMPLES": str(Path(__file__).resolve().parent.parent / "examples")},
}


def _source(cell: dict[str, Any]) -> str:
    source = cell.get("source", "")
    return "".join(source) if isinstance(source, list) else str(source)


def parameters_cell(nb: dict[str, Any]) -> dict[str, Any] | None:
    """The first code cell, if it is tagged "parameters"."""
    code = [cell for cell in nb["cells"] if cell["cell_type"] == "code"]
    if code and "parameters" in code[0].get("metadata", {}).get("tags", []):
        return code[0]
    return None


def fast_notebook(path: Path) -> dict[str, Any]:
    """The notebook as JSON, its parameters cell extended with the ``FAST`` overrides."""
    nb: dict[str, Any] = json.loads(path.read_text())
    values = FAST.get(path.name)
    if values:
        cell = parameters_cell(nb)
        if cell is None:
            raise ValueError(f"{path.name}: FAST has overrides but the first code cell is not tagged 'parameters'")
        lines = "\n".join(f"{name} = {value!r}" for name, value in values.items())
        cell["source"] = _source(cell).rstrip("\n") + "\n# Set by the tests (FAST in tests/test_notebooks.py):\n" + lines
    return nb


def test_there_are_notebooks() -> None:
    names = {nb.name for nb in NOTEBOOKS}
    assert {"01_play.ipynb", "02_rules_tour.ipynb", "03_scripting.ipynb", "06_court.ipynb"} <= names


@pytest.mark.parametrize("name", sorted(FAST))
def test_fast_overrides_name_real_parameters(name: str) -> None:
    path = NOTEBOOK_DIR / name
    assert path.exists(), f"FAST names {name}, which is not in notebooks/"
    cell = parameters_cell(json.loads(path.read_text()))
    assert cell is not None, f"{name}: the first code cell must be tagged 'parameters'"
    for param in FAST[name]:
        assert re.search(rf"^{param}\s*=", _source(cell), re.MULTILINE), f"{name}: no parameter {param} to override"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_notebook_is_stripped(path: Path) -> None:
    nb = json.loads(path.read_text())
    dirty = [i for i, c in enumerate(nb["cells"]) if c["cell_type"] == "code" and (c.get("outputs") or c.get("execution_count"))]
    assert dirty == [], f"{path.name}: cells {dirty} carry outputs or execution counts; strip them"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_notebook_opens_with_a_title_and_parameters(path: Path) -> None:
    nb = nbformat.read(path, as_version=4)
    nbformat.validate(nb)
    first = nb.cells[0]
    assert first.cell_type == "markdown" and first.source.startswith("# "), f"{path.name}: start with a '# Title' cell"
    assert parameters_cell(json.loads(path.read_text())) is not None, f"{path.name}: tag the first code cell 'parameters'"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_notebook_links_resolve(path: Path) -> None:
    nb = json.loads(path.read_text())
    links = [
        target
        for cell in nb["cells"] if cell["cell_type"] == "markdown"
        for target in re.findall(r"\]\(([^)#\s]+)", _source(cell))
        if "://" not in target
    ]
    missing = [link for link in links if not (path.parent / link).exists()]
    assert missing == [], f"{path.name}: links to missing files {missing}"


# Numbers a notebook's text may state: rule constants and definitions, never a measurement.
# Everywhere: list markers ("1."), single digits (a card's value, a count in the rules),
# rule references (D3, C10), the interval's level (95%) and years in a citation.
ALWAYS = (r"\d\.", r"\d", r"[DC]\d{1,2}", r"95%", r"(19|20)\d\d")
RULE_CONSTANTS: dict[str, set[str]] = {
    "01_play.ipynb": {"1-4"},  # players
    "02_rules_tour.ipynb": {"10", "11", "7-point", "3-point"},  # card values, mine points
    "04_design_lab.ipynb": {"50%", "10", "21"},  # an even game's share; Bust's limit
    "05_make_a_game.ipynb": {"0..17"},  # the example's card ids
    "06_court.ipynb": {"54", "10"},  # the court's cards; the copper one starts with
}


def stated_numbers(markdown: str) -> list[str]:
    """The numbers a markdown text states, outside code, code spans and link targets."""
    text = re.sub(r"```.*?```", "", markdown, flags=re.S)
    text = re.sub(r"`[^`]*`", "", text)
    text = re.sub(r"\]\([^)]*\)", "]", text)
    text = re.sub(r"\[[^\]]*\.ipynb\]", "", text)
    found = []
    marks = "+\u2212\u2013\u2605-"  # plus, minus sign, en dash, a star, hyphen: around a number, part of it
    for m in re.finditer(rf"[\w.,%\[\]{marks}]*\d[\w.,%\[\]{marks}]*", text):
        token = m.group().strip(".,;:()[]*").replace("**", "")
        found.append(token.strip(marks))
    return found


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_markdown_states_no_measured_figure(path: Path) -> None:
    """A figure in the text drifts from the data the moment the code changes: figures and
    their words ("about half") are printed by cells, from the games the cells played."""
    allowed = RULE_CONSTANTS.get(path.name, set())
    nb = json.loads(path.read_text())
    stated = [(i, n) for i, cell in enumerate(nb["cells"]) if cell["cell_type"] == "markdown"
              for n in stated_numbers(_source(cell))
              if n not in allowed and not any(re.fullmatch(a, n) for a in ALWAYS)]
    assert stated == [], f"{path.name}: markdown cells state figures (cell, figure): {stated}; print them from a cell"


def test_the_figure_scan_finds_measured_figures() -> None:
    assert stated_numbers("wins 52.4% [44, 54] of 400 games; `df[3]` and [link](../x1.md)") == [
        "52.4%", "44", "54", "400"]


def _run(path: Path) -> Any:
    nb = nbformat.reads(json.dumps(fast_notebook(path)), as_version=4)
    NotebookClient(nb, timeout=300, kernel_name="python3", resources={"metadata": {"path": str(path.parent)}}).execute()
    return nb


def _text(cell: Any) -> str:
    return "".join(o.get("text", "") for o in cell.get("outputs", []) if o.get("output_type") == "stream")


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_notebook_runs(path: Path) -> None:
    nb = _run(path)
    outputs = [o for c in nb.cells if c.cell_type == "code" for o in c.get("outputs", [])]
    errors = [o for o in outputs if o.get("output_type") == "error"]
    assert errors == []
    stderr = [o["text"] for o in outputs if o.get("name") == "stderr" and "Traceback" in o.get("text", "")]
    assert stderr == []
    if path.name in OUTPUTS:
        OUTPUTS[path.name](nb)


def _check_07(nb: Any) -> None:
    """Notebook 07's findings are the reports' own readings, printed by its cells."""
    answers = [_text(c) for c in nb.cells if c.cell_type == "code" and c.source.strip().startswith("answers(")]
    assert len(answers) == 3
    for printed in answers:
        keys = [line.split(":", 1)[0].strip() for line in printed.splitlines()]
        assert {"balance", "length", "decisions", "luck", "what_wins", "associations"} <= set(keys), printed
    kum_lines = {key.strip(): said for key, said in (line.split(": ", 1) for line in answers[0].splitlines())}
    assert kum_lines["what_wins"].strip().startswith(("Never taking", "No difference found", "There is nothing"))
    assert answers[2].count("luck: No luck: no chance") == 1  # Connect Four: chance measured, and there is none
    balance = next(_text(c) for c in nb.cells if c.cell_type == "code" and "finish the round:" in c.source)
    assert balance.count("The first player wins") == 2


def _check_06(nb: Any) -> None:
    """Notebook 06 says how often random play reaches a Troubled Reign in the lab's own words."""
    from kum_widget.lab.words import often_words

    printed = next(_text(c) for c in nb.cells if c.cell_type == "code" and "often_words" in c.source)
    line = next(x for x in printed.splitlines() if x.startswith("Random play reaches a Troubled Reign"))
    share, low, high = (float(x) / 100 for x in re.findall(r"([\d.]+)%", line))
    assert f"or better {often_words(share, low, high)}:" in line


OUTPUTS = {"07_design_report.ipynb": _check_07, "06_court.ipynb": _check_06}
