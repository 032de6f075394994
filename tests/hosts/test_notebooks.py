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
from _paths import ROOT
from nbclient import NotebookClient

NOTEBOOK_DIR = ROOT / "notebooks"
NOTEBOOKS = sorted(NOTEBOOK_DIR.glob("*.ipynb"))
# Every check of one notebook on one worker (pytest-xdist's loadgroup): it is run once for them all.
RUN = [pytest.param(p, marks=pytest.mark.xdist_group(f"notebook {p.name}")) for p in NOTEBOOKS]

# Per notebook: parameter values for the tests (the notebook's own ones stay in place above).
FAST: dict[str, dict[str, Any]] = {
    "01_play.ipynb": {"BOT_DELAY": 0.0},
    "02_rules_tour.ipynb": {"BOT_DELAY": 0.0},
    "03_scripting.ipynb": {"BOT_DELAY": 0.0, "TURNS": 2, "GAMES": 2},
    "04_design_lab.ipynb": {"GAMES": 40, "WORKERS": 0, "BOTS": "random"},
    "05_make_a_game.ipynb": {"GAMES": 100, "ISMCTS_GAMES": 4, "BOT_DELAY": 0.0},
    "06_court.ipynb": {"GAMES": 40, "WORKERS": 0},
    "07_design_report.ipynb": {"GAMES": 20, "MAP_GAMES": 5, "WORKERS": 0,
                               "REPORT_FILE": str(Path(tempfile.gettempdir()) / "kum_design_report_nbtest.html")},
    "08_play_as_a_class.ipynb": {"GAMES": 10, "WORKERS": 0},
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
        cell["source"] = _source(cell).rstrip("\n") + "\n# Set by the tests (FAST in tests/hosts/test_notebooks.py):\n" + lines
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
    root = NOTEBOOK_DIR.parent  # what `make lab` serves (the Makefile's root_dir): a link outside it 404s
    outside = [link for link in links if root not in (path.parent / link).resolve().parents]
    assert outside == [], f"{path.name}: links outside the repository {outside}"


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


# -- every notebook, run once in a fresh kernel, then read by the tests below ---------------------

# Run before the notebook's first cell (the notebook never shows it): after every cell, for
# each board the notebook holds (by a name or as a cell's result, as Out keeps it), what its
# viewer may not see (the game's own secrets(state, seat) of the other seats): with
# reveal=True nothing, with one human every seat but theirs, in a hot seat every seat (README:
# `print(board)` writes what the board shows); and the names that reach its game in the
# kernel: the board, its game, and any session dealt the same game (the same seed or start
# position, whatever the players are called). By execution count.
WATCH = """\
def _kum_watch():
    import json, weakref
    from IPython import get_ipython
    from kum_widget import GameWidget
    from kum_widget.core.session import Session
    shell, boards, hidden = get_ipython(), weakref.WeakValueDictionary(), {}
    def deal(session):
        return type(session.game), [x for x in session.record().splitlines() if x.startswith("[") and not x.startswith("[Player")]
    def hidden_seats(board):
        seats = range(len(board.game.players))
        humans = [s for s in seats if s not in board.bots]
        return [] if board.reveal else [s for s in seats if len(humans) > 1 or s != board.seat]
    def after(result):
        held = [*shell.user_ns.values(), *shell.user_ns.get("Out", {}).values()]
        boards.update({id(v): v for v in held if isinstance(v, GameWidget)})
        entries = []
        for board in list(boards.values()):
            session = board.game
            secrets = {json.dumps(s, sort_keys=True) for seat in hidden_seats(board) for s in session.game.secrets(session.state, seat)}
            ours = deal(session)
            names = [k for k, v in list(shell.user_ns.items()) if not k.startswith("_") and (
                v is board or v is session or (isinstance(v, Session) and deal(v) == ours))]
            entries.append({"names": names, "secrets": sorted(secrets)})
        hidden[result.execution_count] = entries
    shell.events.register("post_run_cell", after)
    return hidden
_KUM_HIDDEN = _kum_watch()
del _kum_watch"""
HIDDEN_MARK = "KUM-HIDDEN "
REPORT = f"import json as _json\nprint({HIDDEN_MARK!r} + _json.dumps(_KUM_HIDDEN))"


def _run(nb_json: dict[str, Any], where: Path) -> tuple[Any, dict[int, Any]]:
    """Run a notebook in a fresh kernel, watched (``WATCH``); its cells as they ran, and
    what was hidden from the viewers after each (execution count -> secrets, as JSON)."""
    nb = nbformat.reads(json.dumps(nb_json), as_version=4)
    nb.cells.insert(0, nbformat.v4.new_code_cell(WATCH))
    nb.cells.append(nbformat.v4.new_code_cell(REPORT))
    NotebookClient(nb, timeout=300, kernel_name="python3", resources={"metadata": {"path": str(where)}}).execute()
    report = _text(nb.cells.pop())
    nb.cells.pop(0)
    hidden = json.loads(report.split(HIDDEN_MARK, 1)[1]) if HIDDEN_MARK in report else None
    return nb, {int(k): v for k, v in (hidden or {}).items()}


_RAN: dict[str, Any] = {}


def executed(path: Path) -> tuple[Any, dict[int, Any]]:
    """The notebook with its ``FAST`` parameters, run once for all the tests below."""
    if path.name not in _RAN:
        _RAN[path.name] = _run(fast_notebook(path), path.parent)
    result: tuple[Any, dict[int, Any]] = _RAN[path.name]
    return result


def _text(cell: Any) -> str:
    return "".join(o.get("text", "") for o in cell.get("outputs", []) if o.get("output_type") == "stream")


def _shown(output: Any) -> str:
    """Everything of an output a person may read: streams, text, HTML, an error."""
    data = output.get("data", {})
    parts = [output.get("text", ""), *(str(data.get(k, "")) for k in ("text/plain", "text/html", "text/markdown", "text/latex")),
             output.get("ename", ""), output.get("evalue", ""), "\n".join(output.get("traceback", []))]
    return "\n".join(p for p in parts if p)


def _code(nb: Any) -> list[Any]:
    return [c for c in nb.cells if c.cell_type == "code"]


def secret_patterns(secret: Any) -> list[re.Pattern[str]]:
    """How a secret (``CardGame.secrets``, as its view writes it) reads in an output: a text
    as words; ``{"id": 7}`` as the card number of a card's text form (``orc 3 #7``) or as a
    printed dict; another dict as printed."""
    if isinstance(secret, str):
        return [re.compile(rf"(?<![\w-]){re.escape(secret)}(?![\w-])")]
    if isinstance(secret, dict):
        printed = [re.compile(re.escape(form)) for form in {json.dumps(secret), repr(secret)}]
        if set(secret) == {"id"} and isinstance(secret["id"], int):
            n = secret["id"]
            printed += [re.compile(rf"(?<![\w&])#{n}(?!\w)"), re.compile(rf"""['"]id['"]:\s*{n}(?![\w.])""")]
        return printed
    return []  # a bare number: a game writes none (GAMES.md, secrets)


def leaks(nb: Any, hidden: dict[int, list[dict[str, Any]]]) -> list[str]:
    """Each output that shows a secret a board hides from its viewer, in a cell that reaches
    that board's game (its source names the board, its game or a session of the same deal),
    as the secret stood at the end of the cell."""
    found = []
    for i, cell in enumerate(_code(nb)):
        text = "\n".join(_shown(o) for o in cell.get("outputs", []))
        for entry in hidden.get(cell.get("execution_count") or -1, []):
            if not any(re.search(rf"(?<![\w.]){re.escape(name)}(?!\w)", cell.source) for name in entry["names"]):
                continue
            for secret in map(json.loads, entry["secrets"]):
                if any(p.search(text) for p in secret_patterns(secret)):
                    found.append(f"code cell {i}: {secret!r} in {cell.source[:60]!r}")
    return found


def deprecations(nb: Any) -> list[str]:
    return [f"code cell {i}: {_shown(o)[:300]}" for i, cell in enumerate(_code(nb)) for o in cell.get("outputs", [])
            if "DeprecationWarning" in _shown(o)]


@pytest.mark.parametrize("path", RUN, ids=lambda p: p.name)
def test_notebook_runs(path: Path) -> None:
    nb, _ = executed(path)
    outputs = [o for c in nb.cells if c.cell_type == "code" for o in c.get("outputs", [])]
    errors = [o for o in outputs if o.get("output_type") == "error"]
    assert errors == []
    stderr = [o["text"] for o in outputs if o.get("name") == "stderr" and "Traceback" in o.get("text", "")]
    assert stderr == []


@pytest.mark.parametrize("path", RUN, ids=lambda p: p.name)
def test_notebook_warns_of_nothing_deprecated(path: Path) -> None:
    """A fresh Run All shows no DeprecationWarning: the notebooks use today's API."""
    nb, _ = executed(path)
    assert deprecations(nb) == []


@pytest.mark.parametrize("path", RUN, ids=lambda p: p.name)
def test_notebook_says_nothing_private(path: Path) -> None:
    """No output shows what a board on the page hides from its viewer (issue 42, item 2): a
    class shares the screen, and a saved notebook keeps every output."""
    nb, hidden = executed(path)
    assert hidden, "the watch recorded nothing"
    assert leaks(nb, hidden) == []


def test_the_scans_find_a_printed_hand_and_a_deprecated_call(tmp_path: Path) -> None:
    """The two scans are not vacuous: the full table printed under a board shows the bot's
    hand, and a deprecated call's warning is found."""
    cells = ["import kum_widget as kum\nboard = kum.GameWidget(bots={1: 'greedy'}, seed=42, bot_delay=0)\nboard",
             "print(board.game)",
             "import warnings\nwarnings.warn('an old call: write the new one', DeprecationWarning)"]
    nb_json = {"cells": [nbformat.v4.new_code_cell(c) for c in cells], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}
    nb, hidden = _run(nb_json, tmp_path)
    found = leaks(nb, hidden)
    assert found and all(f.startswith("code cell 1:") for f in found), found
    assert [d[:12] for d in deprecations(nb)] == ["code cell 2:"]


@pytest.mark.parametrize("path", [p for p in RUN if p.values[0].name in {"01_play.ipynb", "02_rules_tour.ipynb", "03_scripting.ipynb",
                                                                          "06_court.ipynb", "07_design_report.ipynb",
                                                                          "08_play_as_a_class.ipynb"}],
                         ids=lambda p: p.name)
def test_notebook_does_what_its_text_says(path: Path) -> None:
    nb, _ = executed(path)
    OUTPUTS[path.name](nb)


def printed(nb: Any, code: str) -> str:
    """What the one code cell holding ``code`` printed."""
    cells = [c for c in _code(nb) if code in c.source]
    assert len(cells) == 1, f"{len(cells)} code cells hold {code!r}"
    return _text(cells[0])


def _check_01(nb: Any) -> None:
    """`print(board)` writes the board as it shows you: your hand, the bot's only as mine faces."""
    board = printed(nb, "print(board)")
    hands = [line.split("Hand: ", 1)[1] for line in board.splitlines() if line.strip().startswith("Hand: ")]
    assert len(hands) == 2, board
    mine, bots = (re.split(r", (?![^()]*\))", h) for h in hands)  # a card's own commas are inside its brackets
    assert not any(card.startswith("? ") for card in mine) and all(card.startswith("? / mine") for card in bots), board


def _check_02(nb: Any) -> None:
    """The tour's sentences about what is seen and what is scored."""
    seen = next(line for line in printed(nb, "seen_by_bo = ").splitlines() if line.startswith("Bo sees Ada's hand as:"))
    assert "'giant 6'" in seen and "'?'" in seen, seen  # the Camp's card is known; the others are not
    develop = printed(nb, 'show(game, "play dwarf 6 on claimed 1")')
    assert "Score before: -3" in develop and "Score after: 3" in develop, develop
    last = printed(nb, 'for card in ["orc 6", "dwarf 6"]:')
    orc, dwarf = last.split("> play dwarf 6", 1)  # "orc 6: -7 for you, and Bo wins 3 to -7"; "dwarf 6: you win 0 to -4"
    assert "Game over: Ada -7, Bo 3. Bo wins." in orc and "(0, 7)   Bo: (3, 0)" in orc, last
    assert "Game over: Ada 0, Bo -4. Ada wins." in dwarf and "(0, 0)   Bo: (3, 7)" in dwarf, last


def _check_03(nb: Any) -> None:
    """The scripting notebook's claims, and its bot of your own plays its lowest creature."""
    assert "Unchanged original: True" in printed(nb, "trial = game.clone()")
    assert "'public': True" in printed(nb, "trial = game.clone()")
    assert "identical: True" in printed(nb, "with tempfile.TemporaryDirectory() as scratch:")
    undo = printed(nb, "after_four = g.to_dict()")
    assert "the same game again: True" in undo and "after a new action, can redo: False" in undo, undo
    chose = printed(nb, "choice = LowestFirst().choose(")
    creatures = chose.split("Ada's creatures: ", 1)[1].splitlines()[0].split(", ")
    lowest = min(int(c.split()[1]) for c in creatures)
    played = re.search(r"Lowest first plays: play (\w+ \d+) #", chose)
    assert played and int(played[1].split()[1]) == lowest, chose


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


def _check_08(nb: Any) -> None:
    """Notebook 08's class: the referee served on loopback, no code printed whole, the refusals
    and the undo rule as its text says, Bo told that Ada drew but not what, every game played to
    its end (by the script and by the referee's bots) and handed in as a record and a replay, the
    Bust games pooled, the referee stopped and its temporary folder gone."""
    everything = "\n".join(_shown(o) for c in _code(nb) for o in c.get("outputs", []))
    assert not re.search(r"(?<![0-9a-f])[0-9a-f]{32}(?![0-9a-f])", everything), "a code printed whole"
    started = printed(nb, "referee = subprocess.Popen(")
    assert re.search(r"^serving at ws://127\.0\.0\.1:\d+/", started, re.M) and "every table  teacher" in started, started
    asked = printed(nb, "for asked, call in")
    assert "The record: refused: " in asked and "The scores: refused: the scores are the referee's" in asked, asked
    undo = printed(nb, "ada.undo()\nprint(")
    assert "and took it back; she may again:" in undo and "Ada drew, then asked to take it back: refused: your last move showed you" in undo
    back = printed(nb, "game.close()")
    assert "the same position: True" in back and re.search(r"Her log: \['Ada drew an? \d+\.'\]", back), back  # what she drew
    assert printed(nb, "bo = kum.join(").strip() == "Bo's log: ['Ada drew a card.']"  # that she drew
    played = printed(nb, "cy.play_with(")
    assert "Table 1 is over: Ada " in played and "a bot plays Bo's seat: random" in played and "Table 2 is over: Cy " in played, played
    assert "table 3's game is over: true" in printed(nb, "view.add_table(").lower()
    listed = printed(nb, "bust_games = kum.lab.load(").splitlines()
    files = [line for line in listed if line.endswith((".kum.txt", ".html"))]
    stems = sorted({re.sub(r"_\d{4}-\d\d-\d\d-\d{4}\.(kum\.txt|html)$", "", f) for f in files})
    assert len(files) == 6 and stems == ["bust_table-1_Ada-Bo", "bust_table-3_Dee-Eli", "kings-under-mountains_table-2_Cy-Bot-1-Bot-2-Bot-3"], listed
    assert listed[-1].startswith("<HandIn: 2 games of Bust"), listed
    assert printed(nb, "report = kum.lab.report(").startswith("2 games played by people")
    stopped = printed(nb, "referee.terminate()")
    assert "referee stopped" in stopped and "Exit status: 0" in stopped, stopped
    folder = re.search(r"its folder (\S+)/referee,", started)
    assert folder and not Path(folder[1]).exists(), "the temporary folder is left behind"


OUTPUTS = {"01_play.ipynb": _check_01, "02_rules_tour.ipynb": _check_02, "03_scripting.ipynb": _check_03,
           "06_court.ipynb": _check_06, "07_design_report.ipynb": _check_07, "08_play_as_a_class.ipynb": _check_08}


# -- notebook 03's bot of your own: the template students copy ------------------------------------


def _template_bot() -> Any:
    nb = json.loads((NOTEBOOK_DIR / "03_scripting.ipynb").read_text())
    (source,) = [_source(c) for c in nb["cells"] if c["cell_type"] == "code" and _source(c).startswith("class LowestFirst")]
    import kum_widget as kum

    scope: dict[str, Any] = {"kum": kum}
    exec(compile(source, "03_scripting.ipynb", "exec"), scope)
    return scope["LowestFirst"]


@pytest.mark.parametrize("seed", [1, 2])
def test_the_bot_of_your_own_plays_the_card_it_chose(seed: int) -> None:
    """Notebook 03's LowestFirst does what its text says at every decision: it plays its
    lowest playable creature, and draws from the deck when it may."""
    import kum_widget as kum

    bot = _template_bot()()
    game = kum.Game([bot.name, "Greedy"], seed=seed)
    greedy, plays, draws = kum.bots.GreedyBot(seed=seed), 0, 0
    while not game.is_over:
        legal = game.legal_actions()
        if game.current_player == 1:
            game.apply(kum.bots.bot_move(game, greedy))
            continue
        chosen = kum.bots.bot_move(game, bot)
        move = getattr(chosen, "move", None)  # None: the bot gave something not from `legal`
        mine = [a for a in legal if isinstance(a.move, kum.Play)]
        if mine:
            value = {c.id: c.value for c in game.hand(0)}
            lowest = min(value[a.move.card] for a in mine)
            assert isinstance(move, kum.Play) and value[move.card] == lowest, f"chose {chosen!r}, not a play of a {lowest}"
            plays += 1
        elif any(a.move == kum.Draw() for a in legal):
            assert move == kum.Draw(), f"chose {chosen!r}, not the deck"
            draws += 1
        game.apply(chosen)
    assert plays > 3 and draws > 3
