"""The live board (issue 35), continued: piles opened in a panel, the game-over banner, the
first-time panel, keyboard focus on lit targets, and the cues in forced colours; in headless
Chromium with test_frontend's stand-in model (no change event for an equal value), its
traits from a real ``GameWidget`` in this process, the board keys ``intro`` and ``outcome``
set as a game would give them.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from _board_helpers import Recorded, zone
from _contrast import BADGES, DARK
from _live_helpers import feed_back, mount, sent, traits, update
from _returning import new_player

import kum_widget as kum

INTRO = {"title": "How to play", "paragraphs": ["First, claim.", "Then develop: <b>undeveloped</b> counts against you."]}


def with_keys(w: kum.GameWidget, **keys: Any) -> dict[str, Any]:
    """The board's description with `keys` set (None: left out)."""
    board = {**json.loads(json.dumps(w.board)), **keys}
    return {k: v for k, v in board.items() if v is not None}


def focused(page) -> dict[str, Any]:  # type: ignore[no-untyped-def]
    return dict(page.evaluate("() => ({...document.activeElement.dataset, tag: document.activeElement.tagName})"))


# -- piles ---------------------------------------------------------------------------------


def test_a_stack_shows_its_count_and_opens_its_cards_in_a_panel(page, artifacts: Path) -> None:  # type: ignore[no-untyped-def]
    w = Recorded(bots={1: "greedy"}, seed=3, bot_delay=0)
    mount(page, w)
    cards = [c["id"] for c in zone(w.board, "camp orc")["cards"]]
    assert len(cards) == 2
    opener = page.locator('[data-zone="camp orc"] [data-control="pile"]')
    assert opener.text_content() == "2 ▾" and opener.get_attribute("aria-haspopup") == "dialog"
    opener.click()
    panel = page.locator('.kum-panel[role="dialog"]')
    assert panel.is_visible() and [e.get_attribute("data-panel-card") for e in panel.locator("[data-panel-card]").all()] == cards
    assert panel.locator("[data-card], [data-action], [data-playable]").count() == 0  # pictures, nothing to click
    assert focused(page)["panel"] == "close"  # the focus went into it
    page.screenshot(path=str(artifacts / "live-pile-open.png"), full_page=True)
    page.keyboard.press("Escape")
    assert panel.count() == 0 and focused(page).get("control") == "pile" and sent(page) == []
    page.keyboard.press("Enter")  # the focused count opens it again
    assert page.locator(".kum-panel").count() == 1
    page.locator(".kum-panel-close").click()
    assert page.locator(".kum-panel").count() == 0
    body = page.locator('[data-zone="camp orc"] .kum-zone-body')
    why = page.locator('[data-zone="camp orc"]').get_attribute("data-why")
    if why:  # the stack has a reason (not now): a click on it says so; its count still opens it
        body.click(position={"x": 3, "y": 3})
        assert page.locator(".kum-tip").text_content() == why and page.locator(".kum-panel").count() == 0
        update(page, why_not={})
    body.click(position={"x": 3, "y": 3})  # the stack itself, not a click now
    assert page.locator(".kum-panel").count() == 1 and sent(page) == []
    page.locator(".kum-top .kum-title").click()  # a click elsewhere closes it
    assert page.locator(".kum-panel").count() == 0


def test_an_open_pile_follows_the_board_and_closes_when_it_is_gone(page) -> None:  # type: ignore[no-untyped-def]
    w = Recorded(bots={1: "greedy"}, seed=3, bot_delay=0)
    mount(page, w)
    page.locator('[data-zone="camp orc"] [data-control="pile"]').click()
    board = json.loads(json.dumps(w.board))
    camp = zone(board, "camp orc")
    camp["cards"] = camp["cards"] + [dict(camp["cards"][0], id="camp orc 2")]
    update(page, board=board)
    assert page.locator(".kum-panel [data-panel-card]").count() == 3
    camp["cards"] = camp["cards"][:1]
    update(page, board=board, state_id=w.state_id + 1)
    assert page.locator(".kum-panel").count() == 0


# -- game over and the first-time panel ---------------------------------------------------------


def test_game_over_is_a_banner_in_view_with_what_decided_it(page, artifacts: Path) -> None:  # type: ignore[no-untyped-def]
    w = Recorded(bots={1: "greedy"}, seed=9, bot_delay=0)
    while not w.game.is_over:
        w.act(w.game.legal_actions()[0])
    mount(page, w, board=with_keys(w, outcome=None))  # a game that says nothing of its own: who won, and the scores
    banner = page.locator(".kum-banner")
    won = [w.game.players[s] for s in w.game.winners()]
    assert all(name in (banner.text_content() or "") for name in won)
    assert all(f"{p} {s}" in (banner.text_content() or "") for p, s in zip(w.game.players, w.game.scores(), strict=True))
    assert page.locator(".kum-over table").count() == 1  # the scores' table stays
    update(page, board=with_keys(w, outcome="Bo wins on the last mine: 12 to 9."))
    assert banner.locator(".kum-banner-text").text_content() == "Bo wins on the last mine: 12 to 9."
    page.evaluate("() => window.scrollTo(0, document.body.scrollHeight)")
    box = banner.bounding_box()
    assert box is not None and 0 <= box["y"] < 1100  # in view wherever the page is scrolled
    page.screenshot(path=str(artifacts / "live-game-over.png"))


def test_play_again_deals_at_once_with_the_same_seats(page) -> None:  # type: ignore[no-untyped-def]
    w = Recorded(bots={1: "greedy"}, seed=9, bot_delay=0)
    while not w.game.is_over:
        w.act(w.game.legal_actions()[0])
    mount(page, w)
    page.locator('[data-control="play-again"]').click()
    assert sent(page) == [{"kind": "new_game", "state_id": w.state_id}]  # no form on the way
    feed_back(page, w)
    assert not w.game.is_over and w.game.move_number == 0 and w.bots.keys() == {1}
    assert page.locator(".kum-over, .kum-banner").count() == 0


def test_save_for_lab_is_offered_at_game_over_and_says_where_the_kernel_wrote(  # type: ignore[no-untyped-def]
        page, artifacts: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Not offered while the game goes on; at game over a button like the others (reached and
    pressed by keyboard): the page only asks, the kernel writes the record into its working
    folder under its own name, and the board says where (once to a screen reader too)."""
    monkeypatch.chdir(tmp_path)  # the notebook's working folder
    w = Recorded(bots={1: "greedy"}, seed=9, bot_delay=0)
    mount(page, w, controls=w.controls)
    assert page.locator('[data-control="save-for-lab"]').count() == 0
    while not w.game.is_over:
        w.act(w.game.legal_actions()[0])
    update(page, **traits(w))
    button = page.get_by_role("button", name="Save for the lab")
    assert button.count() == 1 and page.locator('.kum-over [data-control="save-for-lab"]').count() == 1
    button.focus()
    page.keyboard.press("Enter")
    assert sent(page) == [{"kind": "save_for_lab", "state_id": w.state_id}]
    feed_back(page, w)
    (written,) = tmp_path.iterdir()
    assert written.read_text() == w.game.record()
    assert page.locator(".kum-saved").text_content() == f"Saved for the lab: {written}"
    assert page.locator(".kum-announce").text_content() == f"Saved for the lab: {written}"
    page.screenshot(path=str(artifacts / "live-save-for-lab.png"))


def test_the_first_time_panel_is_dismissed_once_and_reopened_by_its_button(page) -> None:  # type: ignore[no-untyped-def]
    w = Recorded(bots={1: "greedy"}, seed=3, bot_delay=0)
    new_player(page)
    mount(page, w, board=with_keys(w, intro=None))  # a game without one: no panel by itself, but a "?" with the board's keys
    assert page.locator(".kum-intro").count() == 0
    page.locator('[data-control="intro"]').click()
    assert page.locator(".kum-intro kbd").first.text_content() == "Tab, Shift+Tab" and page.locator(".kum-intro p").count() == 0
    page.locator('[data-control="intro-close"]').click()
    assert page.locator(".kum-intro").count() == 0
    update(page, board=with_keys(w, intro=INTRO))
    intro = page.locator(".kum-intro")
    assert intro.locator("h3").text_content() == "How to play"
    assert intro.locator("p").all_text_contents() == INTRO["paragraphs"] and page.locator(".kum-widget b").count() == 0  # text as text
    page.locator('[data-control="intro-close"]').click()
    assert intro.count() == 0 and focused(page).get("control") == "intro"
    page.evaluate("() => window.remount()")  # the page again: dismissed on this browser
    assert page.locator(".kum-intro").count() == 0
    page.locator('[data-control="intro"]').click()
    assert page.locator(".kum-intro").count() == 1 and sent(page) == []


def test_a_small_boards_help_panel_is_read_whole_with_its_rules_open(page, artifacts: Path) -> None:  # type: ignore[no-untyped-def]
    from kum_widget.gallery import Undercut

    new_player(page)
    mount(page, Recorded(Undercut(), bots={1: "random"}, bot_delay=0))  # a board two rows high
    page.locator(".kum-intro summary").first.click()  # the rules, unfolded
    box = page.evaluate("""() => { const i = document.querySelector('.kum-intro');
        const got = i.querySelector('[data-control="intro-close"]').getBoundingClientRect(), b = i.getBoundingClientRect();
        return {scrolls: i.scrollHeight > i.clientHeight + 1, inside: got.bottom <= b.bottom && got.top >= b.top}; }""")
    page.screenshot(path=str(artifacts / "help-small-board.png"))
    assert box == {"scrolls": False, "inside": True}, box  # the board makes room while it is open


# -- keyboard focus on lit targets ------------------------------------------------------------


def test_tab_reaches_every_lit_target_and_focus_is_seen_on_each(page) -> None:  # type: ignore[no-untyped-def]
    w = Recorded(bots={1: "greedy"}, seed=3, bot_delay=0)
    mount(page, w)
    card = page.locator('[data-zone="hand 0"] [data-playable]').first
    card_id = card.get_attribute("data-card")
    card.focus()
    page.keyboard.press("Enter")
    lit = page.evaluate("() => [...document.querySelectorAll('.kum-lit[data-action]')].map(e => e.dataset.zone)")
    assert len(lit) >= 2
    reached = []
    for _ in range(len(lit)):
        now = focused(page)
        reached.append(now.get("zone"))
        style = page.evaluate("() => [getComputedStyle(document.activeElement).outlineStyle, getComputedStyle(document.activeElement).outlineWidth]")
        assert style[0] == "solid" and float(style[1][:-2]) >= 3, style  # the focus ring, not the dashed target ring
        page.keyboard.press("Tab")
    assert reached == lit
    unfocused = page.locator(f'[data-zone="{lit[0]}"]').evaluate("el => getComputedStyle(el).outlineStyle")
    assert unfocused == "dashed"
    page.locator(f'[data-zone="{lit[0]}"]').focus()
    page.keyboard.press("Escape")  # back to the card, unchosen
    assert focused(page).get("card") == card_id and page.locator(".kum-lit").count() == 0


# -- forced colours ------------------------------------------------------------------------------


def cue(page, selector: str) -> list[str]:  # type: ignore[no-untyped-def]
    return list(page.locator(selector).first.evaluate(
        "el => { const s = getComputedStyle(el); return [s.outlineStyle, s.outlineWidth, s.borderLeftStyle, s.borderLeftWidth, s.borderTopStyle]; }"))


def test_every_cue_has_an_outline_or_a_border_in_forced_colours(page, artifacts: Path) -> None:  # type: ignore[no-untyped-def]
    page.emulate_media(forced_colors="active")
    w = Recorded(bots={1: "greedy"}, seed=3, bot_delay=0)
    mount(page, w)
    page.locator('[data-zone="hand 0"] [data-playable]').first.click()
    page.locator(".kum-lit[data-action]").first.click()
    feed_back(page, w)
    page.locator('[data-action="draw deck"]').click()
    feed_back(page, w)  # the bot replied: its move marked, its last target lit
    page.locator('[data-zone="hand 0"] [data-playable]').nth(1).click()
    styles = {
        "playable": cue(page, '[data-zone="hand 0"] [data-playable]:not(.kum-selected):not(.kum-changed)'),
        "selected": cue(page, ".kum-selected"),
        "target": cue(page, ".kum-lit[data-action]"),
        "changed": cue(page, ".kum-card.kum-changed:not([data-playable])"),
        "last": cue(page, ".kum-last"),
        "current": cue(page, ".kum-seat.kum-current"),
    }
    outlines = {k: s[0] for k, s in styles.items() if k not in ("last", "current")}
    assert outlines == {"playable": "solid", "selected": "double", "target": "dashed", "changed": "dotted"}, styles
    assert all(float(s[1][:-2]) >= 2 for k, s in styles.items() if k in outlines)
    assert styles["last"][4] == "double" and styles["current"][2] == "solid" and float(styles["current"][3][:-2]) >= 8, styles
    page.screenshot(path=str(artifacts / "live-forced-colors.png"), full_page=True)


# -- the bot's thinking: offered where a bot sits, in words, its badges legible (issue 42, item 5) -----


def fresh(page) -> None:  # type: ignore[no-untyped-def]
    """The stand-in page again, with no board on it (a model keeps the traits it was given)."""
    page.reload()
    page.wait_for_function("() => window.ready === true")


def test_the_thinking_switch_is_offered_where_a_bot_holds_a_seat_and_the_hint_everywhere(page) -> None:  # type: ignore[no-untyped-def]
    for w, offered in [(Recorded(bots={1: "greedy"}, seed=3, bot_delay=0), True), (Recorded(kum.Court(seed=3), bot_delay=0), False),
                       (Recorded(kum.Court(seed=3), bots={0: "greedy"}, bot_delay=0), True)]:
        fresh(page)
        mount(page, w)
        assert page.locator('[data-control="thinking"]').count() == int(offered), w.bot_seats
        assert page.locator('[data-control="hint"]').count() == 1  # the solitaire keeps its Hint
    fresh(page)
    w = Recorded(kum.Court(seed=3), bot_delay=0)
    w.hint()
    mount(page, w, analysis=None)
    page.locator('[data-control="hint"]').click()  # no bot: the Hint's answer shows without a switch
    update(page, analysis=w.analysis)
    assert page.locator(".kum-thinking-said").count() >= 2
    update(page, analysis=None)  # the hint's position is gone: nothing to show, and no "nothing to show" either
    assert page.locator(".kum-thinking").count() == 0


def test_after_a_greedy_move_the_panel_says_in_words_what_it_weighed(page, artifacts: Path) -> None:  # type: ignore[no-untyped-def]
    w = Recorded(bots={1: "greedy"}, seed=3, bot_delay=0)
    mount(page, w)
    page.locator('[data-control="thinking"]').check()
    assert "Nothing to show yet" in (page.locator(".kum-thinking-empty").text_content() or "")  # before any bot move
    w.act(w.offered[0])
    w.act("draw deck")  # Bo (greedy) plays and draws
    update(page, **{k: json.loads(json.dumps(getattr(w, k))) for k in ("board", "legal", "log_lines", "analysis", "state_id")})
    said = [p.text_content() or "" for p in page.locator(".kum-thinking-said").all()]
    assert page.locator(".kum-thinking-empty").count() == 0 and len(said) == 2
    assert said[0].startswith("Greedy bot's last move: Greedy bot ") and "rule of thumb" in said[1] and "chance" not in " ".join(said)
    text = (page.locator(".kum-widget").text_content() or "").lower()
    assert "visit" not in text and "iteration" not in text
    page.screenshot(path=str(artifacts / "live-thinking-greedy-words.png"), full_page=True)


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_the_thinking_badges_are_11px_at_4_5_to_1_in_both_themes_and_cover_no_value(page, artifacts: Path, theme: str) -> None:  # type: ignore[no-untyped-def]
    if theme == "dark":
        page.evaluate("vars => { for (const [k, v] of Object.entries(vars)) document.documentElement.style.setProperty(k, v); }", DARK)
    w = Recorded(bots={1: "greedy"}, seed=3, bot_delay=0)
    actions = w.legal["actions"]
    moves = [{"action": a["text"], "source": a.get("source"), "target": a.get("target"), "share": 0.5 / (i + 1), "value": max(0.1, 0.7 - 0.05 * i),
              "low": 0.5, "high": 0.8} for i, a in enumerate(actions)]
    moves[-1].update(share=0, value=None)  # one the search never tried
    mount(page, w, analysis={"kind": "hint", "seat": 0, "name": "hint for Ada", "measure": "win", "chosen": actions[0]["text"],
                             "equal": [actions[1]["text"]], "said": ["The hint weighed your moves."], "moves": moves})
    page.locator('[data-control="thinking"]').check()
    page.locator('[data-zone="hand 0"] [data-playable]').first.click()  # its targets (the mines) show theirs too
    badges = page.locator(".kum-widget").evaluate(BADGES)
    kinds = page.evaluate("() => [...document.querySelectorAll('.kum-think')].map(b => b.className)")
    assert len(badges) >= 4 and any("chosen" in k for k in kinds)
    for b in badges:
        assert b["font"] >= 11 and b["ratio"] >= 4.5 and not b["covers"], b
    page.screenshot(path=str(artifacts / f"live-thinking-badges-{theme}.png"), full_page=True)
