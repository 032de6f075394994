"""The board's layout (issue 35, "One screen"), in a real JupyterLab and Chromium: a game of
Kings Under Mountains for 2, 3 and 4 players in mid-game (claimed mines, creatures stacked
on the mines) and the court solitaire fit a 1280 x 800 window whole with JupyterLab's file
browser folded away, and so do they and the court with it open (a board 848 px wide):
every seat, the shared zones, the hand, the buttons and the tools in view at once, the page
itself not scrolled; a stacked pile shows its top card whole and its count; at 700 px wide
nothing overflows sideways; under forced colours (a high-contrast theme, which drops
box-shadows) each cue keeps an outline or a border of its own.

Issue 42 ("One screen, first move to game over"): whole games of 2, 3 and 4 players, the
bots played by the kernel and the human's moves clicked, stay within the notebook's visible
height less the cell's input at every state, game over included, with the first-time panel
over the board (not pushing it down), a title bar of one height and the other seats' values
apart and 11 px or more.

Screenshots go to test-artifacts/ (layout_*.png), the whole games' to /tmp/shots42/ (with
each game's figures, layout_<n>p[_files].json).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from _chromium import open_board, wait_still, wait_until
from labserver import LabRoom, click_once, notebook_of

# The games are played on at random from a cell to mid-game before the board is shown: the
# tallest tables are in mid-game (claimed mines with their stacks, piles that have grown).
ADVANCE = '''import random
import kum_widget as kum

def advance(game, ready, seed):
    rng = random.Random(seed)
    while not ready(game):
        game.apply(rng.choice(game.legal_actions()))
    return game'''

NAMES = ["Ada", "Bo", "Cy", "Di"]


def kum_cell(players: int) -> str:
    bots = {s: "greedy" for s in range(1, players)}
    return (f"game = advance(kum.Game({NAMES[:players]!r}, seed=5), lambda g: len(g.history) >= {12 * players}"
            " and g.current_player == 0 and g.phase == 'play', 1)\n"
            f"board = kum.GameWidget(game, bots={bots!r}, bot_delay=0)\nboard")


COURT = ("game = advance(kum.Court(seed=3), lambda g: len(g.captured) >= 3 and len(g.defeated) >= 2 and g.phase == 'buy', 0)\n"
         "board = kum.GameWidget(game)\nboard")


NOTEBOOKS = {**{f"kum{n}.ipynb": notebook_of(ADVANCE, kum_cell(n)) for n in (2, 3, 4)}, "court.ipynb": notebook_of(ADVANCE, COURT)}

# What must be in view at once: the title bar and its controls, every seat, the shared
# zones, the hand of the seat at the screen, and the action buttons (when there are any).
PARTS = ".kum-top, .kum-controls, .kum-tools, .kum-seat, .kum-table, .kum-table > .kum-zone, .kum-own .kum-layout-hand, .kum-actions"

MEASURE = """root => {
  const box = e => { const r = e.getBoundingClientRect(); return {top: r.top, bottom: r.bottom, left: r.left, right: r.right}; };
  const scroller = root.closest('.jp-WindowedPanel-outer, .jp-Notebook') || document.scrollingElement;
  const parts = [...root.querySelectorAll(arguments_parts)].map(e => ({what: e.className.split(' ').slice(0, 2).join(' ')
    + (e.dataset.seat ? ' seat ' + e.dataset.seat : '') + (e.dataset.zone ? ' ' + e.dataset.zone : ''), ...box(e)}));
  return {widget: box(root), view: box(scroller), height: window.innerHeight, width: window.innerWidth, parts,
          scrollWidth: root.scrollWidth, clientWidth: root.clientWidth};
}""".replace("arguments_parts", repr(PARTS))

# Everything in the board whose right edge passes the board's (a part cut off or sticking out).
OVERFLOW = """root => {
  const edge = root.getBoundingClientRect().right + 1;
  return [...root.querySelectorAll('*')].filter(e => e.getClientRects().length && e.getBoundingClientRect().right > edge)
    .slice(0, 8).map(e => e.className || e.tagName);
}"""


@pytest.fixture
def lab(lab_room):  # type: ignore[no-untyped-def]
    return lab_room(NOTEBOOKS)


def opened(browser: Any, lab: LabRoom, name: str, width: int = 1280, files: bool = False) -> tuple[Any, Any, list[str]]:
    """The notebook run in a 1280 x 800 window, then the window made ``width`` wide (JupyterLab
    hides its toolbar's kernel status below about 760 px); the file browser closed unless
    ``files``; the board scrolled to the top of the notebook's view, the human to act."""
    page, board, errors = open_board(browser, lab, name, height=800)
    board.locator("[data-playable]:not([disabled]), [data-action]:not([disabled])").first.wait_for()
    close = board.locator("[data-control='intro-close']")  # the first-time panel, read and put away
    if close.count():
        close.click()
    if not files:  # its tab again folds the side panel away
        page.locator(".jp-SideBar.lm-TabBar.jp-mod-left .lm-TabBar-tab.lm-mod-current").click()
        wait_until(page, "() => !document.querySelector('#jp-left-stack') || document.querySelector('#jp-left-stack').offsetWidth === 0",
                   what="the file browser folded away")
    page.set_viewport_size({"width": width, "height": 800})
    # JupyterLab lays its panels out again for the new width, and the board follows
    wait_until(page, "el => el.closest('.jp-NotebookPanel').getBoundingClientRect().right <= innerWidth", board.element_handle(),
               what=f"the notebook laid out {width} px wide")
    wait_still(page, board, f"the board laid out {width} px wide")
    board.evaluate("e => e.scrollIntoView({block: 'start'})")  # the board at the top of the notebook's view
    wait_still(page, board, "the board scrolled to the top of the notebook")
    return page, board, errors


def outside(m: dict[str, Any]) -> list[str]:
    """The parts not wholly in the notebook's visible area (under JupyterLab's bars or below them)."""
    top, bottom = max(0.0, m["view"]["top"]), min(float(m["height"]), m["view"]["bottom"])
    return [f"{p['what']}: {p['top']:.0f}-{p['bottom']:.0f} not within {top:.0f}-{bottom:.0f}"
            for p in m["parts"] if p["top"] < top - 1 or p["bottom"] > bottom + 1]


@pytest.mark.parametrize(("players", "files"), [(2, False), pytest.param(3, False, marks=pytest.mark.soak), (4, False),
                                               pytest.param(2, True, marks=pytest.mark.soak),
                                               pytest.param(3, True, marks=pytest.mark.soak), (4, True)])  # the middle sizes: make soak
def test_a_kum_table_fits_one_screen(lab, browser, artifacts: Path, players: int, files: bool) -> None:  # type: ignore[no-untyped-def]
    page, board, errors = opened(browser, lab, f"kum{players}.ipynb", files=files)
    page.screenshot(path=str(artifacts / f"layout_kum{players}_1280{'_files' if files else ''}.png"))
    m = board.evaluate(MEASURE)
    seats = [p for p in m["parts"] if "kum-seat" in p["what"]]
    assert len(seats) == players and any("kum-table" in p["what"] for p in m["parts"])
    assert any("kum-layout-hand" in p["what"] for p in m["parts"]), "the hand of the seat at the screen"
    assert outside(m) == [], m  # every seat, the table, the hand and the buttons in view at once
    assert page.evaluate("() => document.scrollingElement.scrollHeight <= innerHeight")  # the page itself never scrolls
    assert board.evaluate(OVERFLOW) == []
    assert errors == []


# A stacked pile: how wide it lies, how wide its top card is, and whether that card is the one
# seen at its centre and at its corner (where its value is): a pile, not a fan of slivers.
PILES = """b => [...b.querySelectorAll('.kum-layout-stack > .kum-zone-body')].map(z => {
  const cards = z.querySelectorAll(':scope > .kum-card');
  if (cards.length < 2) return null;
  const top = cards[cards.length - 1], r = top.getBoundingClientRect();
  const seen = (x, y) => top.contains(document.elementFromPoint(x, y));
  const rs = [...cards].map(c => c.getBoundingClientRect());
  const lies = Math.max(...rs.map(x => x.right)) - Math.min(...rs.map(x => x.left));
  return {zone: z.parentElement.dataset.zone, count: cards.length, width: r.width, lies,
          whole: seen(r.left + r.width / 2, r.top + r.height / 2) && seen(r.left + 8, r.top + 14),
          said: z.parentElement.innerText.includes(String(cards.length))};
}).filter(Boolean)"""


@pytest.mark.parametrize("files", [False, pytest.param(True, marks=pytest.mark.soak)])  # the file browser open: make soak
def test_the_court_fits_one_screen_and_its_piles_read(lab, browser, artifacts: Path, files: bool) -> None:  # type: ignore[no-untyped-def]
    page, board, errors = opened(browser, lab, "court.ipynb", files=files)
    page.screenshot(path=str(artifacts / f"layout_court_1280{'_files' if files else ''}.png"))
    assert outside(board.evaluate(MEASURE)) == []
    piles = board.evaluate(PILES)
    assert {p["zone"] for p in piles} >= {"defeated", "captured"}, piles  # several cards in each
    for p in piles:  # the top card whole and legible, the pile one card wide (its edges), its count said
        assert p["whole"] and p["said"] and p["width"] >= 50 and p["lies"] <= p["width"] + 10, p
    assert errors == []


@pytest.mark.parametrize("name", [pytest.param("kum2", marks=pytest.mark.soak), "kum4", "court"])  # the smaller table: make soak
def test_nothing_overflows_at_700_px(lab, browser, artifacts: Path, name: str) -> None:  # type: ignore[no-untyped-def]
    page, board, errors = opened(browser, lab, f"{name}.ipynb", 700)
    if name == "kum2":
        page.screenshot(path=str(artifacts / "layout_kum2_700.png"))
    m = board.evaluate(MEASURE)
    assert m["widget"]["right"] - m["widget"]["left"] < 700
    assert m["scrollWidth"] <= m["clientWidth"] + 1, m
    assert board.evaluate(OVERFLOW) == []
    output = board.evaluate("e => { const o = e.closest('.jp-OutputArea-output') || e.parentElement; return [o.scrollWidth, o.clientWidth]; }")
    assert output[0] <= output[1] + 1, output
    assert errors == []


# A cue as forced colours leave it: the outline and the four borders (box-shadows are dropped).
CUE = """e => { const s = getComputedStyle(e);
  return [s.outlineStyle === 'none' ? 'none' : s.outlineStyle + ' ' + s.outlineWidth,
          ['Top', 'Right', 'Bottom', 'Left'].map(k => s['border' + k + 'Style'] + ' ' + s['border' + k + 'Width']).join(',')]; }"""


def test_cues_keep_an_outline_or_border_in_forced_colours(lab, browser, artifacts: Path) -> None:  # type: ignore[no-untyped-def]
    page, board, errors = opened(browser, lab, "kum3.ipynb")
    page.emulate_media(forced_colors="active")
    assert page.evaluate("() => matchMedia('(forced-colors: active)').matches")

    def cue(selector: str) -> list[str]:
        return list(board.locator(selector).first.evaluate(CUE))

    plain = cue(".kum-card:not([data-playable]):not(.kum-target):not(.kum-changed)")
    playable = cue(".kum-card[data-playable]")
    assert playable != plain, "a playable card"
    assert cue(".kum-seat.kum-current") != cue(".kum-seat:not(.kum-current)"), "the seat to act"
    assert cue(".kum-zone.kum-last") != cue(".kum-zone:not(.kum-last):not(.kum-target):not(.kum-changed)"), "the last move's zone"
    board.locator(".kum-card[data-playable]").first.click()
    board.locator(".kum-lit").first.wait_for()
    selected = cue(".kum-card.kum-selected")
    assert selected not in (plain, playable), "the chosen card"
    assert cue(".kum-zone.kum-lit")[0] != "none", "a lit target"
    page.screenshot(path=str(artifacts / "layout_forced.png"))
    assert errors == []


# -- issue 42, item 4: one screen from the first move to game over -----------------------------
# A whole game of 2, 3 and 4 players at 1280 x 800, the file browser open or folded: the bot
# seats played by the kernel, the human's moves clicked. After every state id the board shows,
# it must fit the notebook's visible height less its cell's input (the cell scrolled to the top
# shows its code and the whole board), its title bar keep one height (no jump between turns),
# and, at rest, the values on the other seats' strips stay apart and at least 11 px.

SHOTS = Path("/tmp/shots42")


def game_cell(players: int) -> str:
    bots = {s: "greedy" for s in range(1, players)}
    return (f"import kum_widget as kum\nboard = kum.GameWidget(kum.Game({NAMES[:players]!r}, seed={players}), bots={bots!r}, bot_delay=0)\n"
            "board")


NOTEBOOKS.update({f"game{n}.ipynb": notebook_of(game_cell(n)) for n in (2, 3, 4)})

# The board's height against the room it has: the notebook's visible height less its cell's
# input (and the cell's own padding above the output); the title bar's height. Recorded in
# the page for every state id the board shows (a bot's moves included), as it is drawn.
WATCH = """root => {
  const scroller = root.closest('.jp-WindowedPanel-outer') || root.closest('.jp-Notebook');
  const cell = root.closest('.jp-Cell');
  const measure = () => {
    const output = cell.querySelector('.jp-Cell-outputWrapper').getBoundingClientRect();
    const input = output.top - cell.getBoundingClientRect().top;  // the input and the gaps above the output
    const board = root.getBoundingClientRect();
    return {sid: root.dataset.stateId, over: !!root.querySelector('.kum-over'), height: board.height,
            room: scroller.clientHeight - input - (board.top - output.top), view: scroller.clientHeight,
            top: root.querySelector('.kum-top').getBoundingClientRect().height,
            status: (s => s.title === s.textContent && s.scrollHeight <= s.clientHeight + 1)(root.querySelector('.kum-status')),
            intro: !!root.querySelector('.kum-intro')};
  };
  const seen = root.__kumSeen = [measure()];
  new MutationObserver(() => { if (root.dataset.stateId !== seen[seen.length - 1].sid) seen.push(measure()); })
    .observe(root, {attributes: true, attributeFilter: ['data-state-id']});
}"""

# The values on the other seats' strips, at rest: each one's size in px as drawn (zoom
# included), the pairs whose boxes overlap, and those not seen at their centre (covered by
# another card). A card under another in a pile is not read (the pile shows its top card
# and its count).
STRIPS = """root => {
  const values = [...root.querySelectorAll('.kum-seat:not(.kum-own) .kum-card .kum-value')].filter(v => {
    const card = v.closest('.kum-card');
    return v.getClientRects().length && !(card.parentElement.closest('.kum-layout-stack') && card.nextElementSibling);
  });
  const boxes = values.map(v => v.getBoundingClientRect());
  const say = i => `${values[i].textContent} (seat ${values[i].closest('.kum-seat').dataset.seat})`;
  const overlaps = [];
  boxes.forEach((a, i) => boxes.forEach((b, j) => {
    if (j > i && Math.min(a.right, b.right) - Math.max(a.left, b.left) > 0.5 && Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top) > 0.5)
      overlaps.push(`${say(i)} over ${say(j)}`);
  }));
  const small = values.map((v, i) => [say(i), parseFloat(getComputedStyle(v).fontSize) * (v.currentCSSZoom || 1)]).filter(([, px]) => px < 11);
  const covered = values.filter((v, i) => {
    const b = boxes[i], x = (b.left + b.right) / 2, y = (b.top + b.bottom) / 2;
    if (y < 0 || y > innerHeight) return false;  // not in the window: not to be judged here
    return !v.closest('.kum-card').contains(document.elementFromPoint(x, y));
  }).map(v => say(values.indexOf(v)));
  return {count: values.length, overlaps, small, covered,
          least: Math.min(...values.map(v => parseFloat(getComputedStyle(v).fontSize) * (v.currentCSSZoom || 1)))};
}"""

# Where the game's end is shown: the banner, the scores' table and "Play again".
ENDING = """root => {
  const view = (root.closest('.jp-WindowedPanel-outer') || root.closest('.jp-Notebook')).getBoundingClientRect();
  return ['.kum-banner', '.kum-over table', "[data-control='play-again']"].map(s => {
    const e = root.querySelector(s); if (!e) return `${s}: missing`;
    const b = e.getBoundingClientRect();
    return b.top >= view.top - 1 && b.bottom <= view.bottom + 1 ? null : `${s}: ${b.top.toFixed(0)}-${b.bottom.toFixed(0)} not within ${view.top.toFixed(0)}-${view.bottom.toFixed(0)}`;
  }).filter(Boolean);
}"""


def fold_files(page: Any) -> None:
    """Fold JupyterLab's file browser away (its tab, clicked again)."""
    page.locator(".jp-SideBar.lm-TabBar.jp-mod-left .lm-TabBar-tab.lm-mod-current").click()
    wait_until(page, "() => !document.querySelector('#jp-left-stack') || document.querySelector('#jp-left-stack').offsetWidth === 0",
               what="the file browser folded away")


def cell_to_top(page: Any, board: Any) -> None:
    """The board's cell scrolled to the top of the notebook's view: its code, then the board."""
    board.evaluate("e => e.closest('.jp-Cell').scrollIntoView({block: 'start'})")
    wait_still(page, board, "the board's cell scrolled to the top of the notebook")


# Every table size, the file browser folded or open: the one with the least room (four seats,
# the file browser open) in the quick run, the other five in the soak (`make soak`).
WHOLE_GAMES = [pytest.param(players, files, id=f"{players}-{'files' if files else 'folded'}",
                            marks=[] if (players, files) == (4, True) else [pytest.mark.soak])
               for files in (False, True) for players in (2, 3, 4)]


@pytest.mark.soak  # whole games (about 35 s each): the tables above check each size mid-game and at the end in make test
@pytest.mark.parametrize(("players", "files"), WHOLE_GAMES)
def test_a_whole_game_stays_one_screen(lab, browser, artifacts: Path, players: int, files: bool) -> None:  # type: ignore[no-untyped-def]
    page, board, errors = open_board(browser, lab, f"game{players}.ipynb", height=800)
    if not files:
        fold_files(page)
    # the first-time panel, open by itself on a fresh page: over the board, which it does not push down
    board.locator(".kum-intro").wait_for()
    cell_to_top(page, board)
    own = "e => e.querySelector('.kum-seat.kum-own').getBoundingClientRect().top"
    with_intro, height_with = board.evaluate(own), board.evaluate("e => e.getBoundingClientRect().height")
    assert board.evaluate("""e => { const b = e.getBoundingClientRect(), i = e.querySelector('.kum-intro').getBoundingClientRect();
      return i.top > e.querySelector('.kum-top').getBoundingClientRect().bottom && i.bottom <= b.bottom + 1; }"""), \
        "the first-time panel lies over the board, below its title bar"
    SHOTS.mkdir(exist_ok=True)
    page.screenshot(path=str(SHOTS / f"layout_{players}p_intro{'_files' if files else ''}.png"))
    board.locator("[data-control='intro-close']").click()
    board.locator(".kum-intro").wait_for(state="detached")
    assert (board.evaluate(own), board.evaluate("e => e.getBoundingClientRect().height")) == (with_intro, height_with), \
        "closing the first-time panel moved the board: it took room of its own"
    board.evaluate(WATCH)
    least, seen_values, moves, tallest_at_rest = 99.0, 0, 0, 0.0
    while True:
        cell_to_top(page, board)  # (a click scrolls what it clicks into view)
        strips = board.evaluate(STRIPS)
        assert strips["overlaps"] == [] and strips["small"] == [] and strips["covered"] == [], (moves, strips)
        least, seen_values = min(least, strips["least"]), max(seen_values, strips["count"])
        height = board.evaluate("e => e.getBoundingClientRect().height")
        if height > tallest_at_rest:  # the tallest board yet, kept to be looked at
            tallest_at_rest = height
            page.screenshot(path=str(SHOTS / f"layout_{players}p_tallest{'_files' if files else ''}.png"))
        if not click_once(page, board):
            break
        moves += 1
        assert moves < 400, "the game did not end"
    seen: list[dict[str, Any]] = board.evaluate("e => e.__kumSeen")
    assert seen[-1]["over"] and len(seen) > moves
    tallest = max(seen, key=lambda s: s["height"])
    tops = {round(s["top"], 1) for s in seen}
    record = {"players": players, "files": files, "states": len(seen), "moves": moves, "tallest": round(tallest["height"]),
              "room": round(min(s["room"] for s in seen)), "view": round(seen[0]["view"]), "over": round(seen[-1]["height"]),
              "toolbar": sorted(tops), "least value px": least, "strip values": seen_values}
    (SHOTS / f"layout_{players}p{'_files' if files else ''}.json").write_text(json.dumps(record))
    cell_to_top(page, board)
    page.screenshot(path=str(SHOTS / f"layout_{players}p_over{'_files' if files else ''}.png"))
    too_tall = [s for s in seen if s["height"] > s["room"] + 1]
    assert too_tall == [], f"{len(too_tall)} of {len(seen)} states taller than the room: {record}, first {too_tall[0]}"
    assert len(tops) == 1, f"the title bar's height changed between turns: {record}"
    assert all(s["status"] for s in seen), "the status: one line, its whole text in its title"
    assert board.evaluate(ENDING) == [], "the result, the scores and Play again in view"
    assert errors == []
