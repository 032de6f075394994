// kum_widget front-end: a thin view. It renders the synced view, marks the legal
// actions the kernel sent, and sends the chosen action's id with the state id. It never
// writes a trait: the kernel answers every message ({kind: "answer", id}), so a
// click is released even when nothing changes (a refusal, an undo with nothing to undo).
//
// Private parts: the traits are what a saved notebook keeps, so the kernel may send part
// of what the board shows in a message instead ({kind: "private", id, traits}), named by
// the trait private_id. The view keeps it in its own memory, never on the model (a save
// writes the model), lays it over the traits while its id is the one they name, and asks
// for it ({kind: "view"}) when it has not got it (a new view, a reloaded page).
//
// Each update is laid over the board on the page (keyed.js): what the reader typed, the
// focus, the log's open state and the live regions stay. Then what moved flies to its new
// place, and what changed since the viewer last acted stays marked (motion.js).
import { applySelection, card, freshBoard, indexLegal, menuActions } from "./board.js";
import { h } from "./dom.js";
import { introDismissed, introOf, outcomeText, rememberIntro } from "./guide.js";
import { morphChildren } from "./keyed.js";
import { createMenu } from "./menu.js";
import { fly, marksAfter, measure, plan, snapshot } from "./motion.js";
import { createPanel, findZone } from "./panel.js";
import { decorateThinking } from "./thinking.js";
import { createTips } from "./tips.js";
import { listen } from "./events.js";

const TRAITS = ["board", "legal", "log_lines", "error", "state_id", "pass_to", "thinking", "last_move", "bot_seats", "reveal", "bot_choices", "step", "max_step", "private_id",
  "why_not", "analysis", "pace", "controls"];
const ANSWER_TIMEOUT_MS = 30_000; // past this, say the kernel is not answering, and let go
const PRIVATE_WAIT_MS = 2_000; // traits whose private part has not come by then are drawn without it
const ACTS = new Set(["act", "undo", "redo", "new_game", "ready"]); // the viewer acting: the changed-since marks go
let views = 0; // tokens unique across the views on a page

/** The traits, with the private part laid over them when it is the one they name;
 * `waiting`: they name one this view has not got. */
function read(model, priv) {
  const m = {};
  for (const name of TRAITS) m[name] = model.get(name);
  const want = m.private_id || 0;
  m.waiting = want !== 0 && !(priv && priv.id === want);
  if (want !== 0 && !m.waiting) {
    for (const [name, value] of Object.entries(priv.traits)) if (TRAITS.includes(name) && name !== "private_id") m[name] = value;
  }
  m.bot_seats = m.bot_seats || {};
  return m;
}

/** The log lines that are new since `old` (the board shows a window of the last ones). */
function newLines(old, now) {
  if (!Array.isArray(old) || !Array.isArray(now)) return [];
  for (let k = Math.min(old.length, now.length); k > 0; k--) {
    if (old.slice(old.length - k).every((line, i) => line === now[i])) return now.slice(k);
  }
  return old.length ? [] : now; // no overlap: an undo or a new game, nothing to say line by line
}

const CLICKS = "[data-action], [data-menu], [data-playable]";
const usable = (e, root) => e && e !== root && e.isConnected && !e.disabled && e.getAttribute("aria-disabled") !== "true" && !e.closest("[inert]")
  && (["BUTTON", "INPUT", "SELECT", "SUMMARY"].includes(e.tagName) || e.getAttribute("tabindex") === "0");

/** The Hint's answer to say, once per hint: {key, text}, or null (none, or a bot's thinking).
 * Its verdict in the hint's own words (the last of `said`: the best move, or which are about
 * equal), else the move it chose. */
function hintOf(m) {
  const a = m.analysis;
  if (!a || typeof a !== "object" || a.kind !== "hint") return null;
  const said = Array.isArray(a.said) ? a.said.filter((x) => typeof x === "string" && x) : [];
  const verdict = said.length ? said[said.length - 1] : typeof a.chosen === "string" && a.chosen ? `${a.chosen}.` : "";
  return verdict ? { key: `${m.state_id}:${verdict}`, text: `Hint: ${verdict}` } : null;
}

function render({ model, el }) {
  // focusable: keyboard focus stays in the board; a named region; and Lumino (JupyterLab,
  // Notebook 7) runs no shortcut for a key pressed inside an element marked
  // data-lm-suppress-shortcuts (@lumino/commands, CommandRegistry): `d d` on a card deletes no cell
  const root = h("div", { class: "kum-widget", tabindex: "-1", role: "region", "aria-label": "Game board", "data-lm-suppress-shortcuts": "true" });
  el.appendChild(root);
  const view = `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}-${++views}`;
  const ui = { selected: null, pending: null, newGame: false, sent: 0, notice: "", replay: true, saved: "", thinking: false,
    introOpen: false, introFor: null, marks: new Set(), announce: "", log: null, hoverGroup: null, viewer: null, step: -1, hintSaid: null };
  let frame = 0;
  let timer = 0;
  let priv = null; // this view's private part: {id, traits}; only ever here, never on the model
  let waitTimer = 0;
  let drawn = false;
  const menu = createMenu(root);
  const panel = createPanel(root, (c) => card(c, { legal: indexLegal(null), busy: false, last: "" }));
  // The same words again are news too (two draws from the deck in a row), but a live region
  // speaks only a change: a repeat gets a no-break space, taken off again by the next repeat.
  const renewed = (text) => (text === ui.announce ? `${text}\u00a0` : text);
  const say = (text) => {
    ui.announce = text;
    const region = root.querySelector('[data-key="announce"]');
    if (region) region.textContent = text;
  };
  const tips = createTips(root, say);
  const activeElement = () => root.getRootNode().activeElement || document.activeElement; // inside a shadow root too (marimo)

  // Ask the kernel for the private part the traits name (not a click: nothing waits on
  // its answer, and a page with no kernel behind it just draws the traits).
  function ask() {
    try {
      model.send({ kind: "view", id: `${view}:view` });
    } catch (_) {
      // no kernel to ask (a static page): the public traits are the board
    }
  }

  function release() {
    ui.pending = null;
    clearTimeout(timer);
    root.removeAttribute("aria-busy");
  }

  function unmark() {
    ui.marks = new Set();
    for (const e of root.querySelectorAll(".kum-changed")) {
      e.classList.remove("kum-changed");
      delete e.dataset.changed;
    }
  }

  const on = {
    select(id, byKeyboard) {
      menu.close(false);
      ui.selected = ui.selected === id ? null : id;
      const m = read(model, priv);
      applySelectionHere(m);
      // by keyboard, the focus goes to the first place the card can go: Tab goes on through the others
      if (byKeyboard && ui.selected !== null) root.querySelector(".kum-lit[tabindex='0'], button.kum-lit:not([disabled])")?.focus({ preventScroll: true });
    },
    act(actionId) {
      if (ui.pending) return;
      menu.close(true); // a menu's entry: focus goes back to what opened it
      on.send({ kind: "act", action_id: Number(actionId) }); // the id the kernel offered (data-action-id), never the text
    },
    menu(el) {
      if (menu.isOpenOn(el)) return menu.close(true); // its own click again: a toggle
      const actions = menuActions(read(model, priv), ui, el);
      if (actions.length) menu.show(el, actions);
    },
    send(msg) {
      if (ui.pending) return; // one click in flight at a time
      const id = `${view}:${++ui.sent}`;
      ui.pending = id;
      ui.notice = "";
      ui.sentAt = performance.now();
      ui.drawnSince = false;
      ui.pendingKind = msg.kind;
      if (ACTS.has(msg.kind)) unmark();
      model.send({ ...msg, state_id: model.get("state_id"), id });
      // No re-render here: repainting the board now would only delay the reply's arrival.
      root.setAttribute("aria-busy", "true");
      timer = setTimeout(() => {
        if (ui.pending !== id) return;
        release();
        ui.notice = "The kernel has not answered for 30 seconds: is it busy or stopped? The board is usable again.";
        draw();
      }, ANSWER_TIMEOUT_MS);
    },
  };

  // Selection is drawn in place (no rebuild, no round trip): the targets light within a frame.
  function applySelectionHere(m) {
    applySelection(root, m, ui);
    decorateThinking(root, m, ui); // a selected source shows its targets' figures
  }

  const controls = {
    undo: () => on.send({ kind: "undo" }),
    redo: () => on.send({ kind: "redo" }),
    "new-game": () => {
      ui.newGame = !ui.newGame;
      draw();
    },
    "play-again": () => on.send({ kind: "new_game" }), // at once: a new deal, the same seats
    "save-replay": () => on.send({ kind: "replay" }), // the kernel writes the file (only it knows the record); the answer carries it
    "save-for-lab": () => on.send({ kind: "save_for_lab" }), // the kernel names and writes the file; the answer says where
    ready: () => on.send({ kind: "ready" }),
    hint: () => {
      ui.thinking = true; // asked for: shown
      const box = root.querySelector('[data-control="thinking"]');
      if (box) box.checked = true;
      on.send({ kind: "hint" });
    },
    intro: () => {
      ui.introOpen = !ui.introOpen;
      draw();
      if (ui.introOpen) root.querySelector('[data-control="intro-close"]')?.focus({ preventScroll: true });
    },
    "intro-close": () => {
      ui.introOpen = false;
      const board = read(model, priv).board || {};
      if (introOf(board)) rememberIntro(board); // (the keys alone are no first-time panel to remember)
      draw();
      root.querySelector('[data-control="intro"]')?.focus({ preventScroll: true });
    },
    pile: (opener) => {
      if (panel.isOpenOn(opener)) return panel.close(true);
      const z = findZone(read(model, priv).board, opener.dataset.pile);
      if (z) panel.show(opener, z);
    },
  };

  // The replay file arrives as text in the answer: saved through a link to a Blob, as any download.
  function save(text, name) {
    const url = URL.createObjectURL(new Blob([text], { type: "text/html" }));
    const link = h("a", { href: url, download: typeof name === "string" && name ? name : "replay.html", hidden: true, dataset: { transient: "" } });
    root.append(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(url), 60_000);
  }

  /** The first-time panel (a game's intro) opens once per game title, unless dismissed before on
   * this browser, on a board someone plays here (a board that only watches, whose kernel answers
   * no control, opens it by "?" alone: a teacher watching ten tables wants the tables). */
  function introState(board, m) {
    const title = String(board.title || "");
    if (introOf(board) && ui.introFor !== title) { // a game with no intro opens nothing by itself ("?" shows its keys)
      ui.introFor = title;
      ui.introOpen = !introDismissed(board) && !(Array.isArray(m.controls) && m.controls.length === 0);
    }
  }

  function applyMarks(fresh) {
    if (!ui.marks.size) return;
    for (const e of fresh.querySelectorAll("[data-key]")) {
      if (!ui.marks.has(e.dataset.key)) continue;
      e.classList.add("kum-changed");
      e.dataset.changed = "";
    }
  }

  /** Draw the traits over the page's board. `mark`: what this update changed is marked
   * (it is not the answer to the viewer's own move). */
  function draw(mark = false) {
    const active = activeElement();
    const inside = root.contains(active) && active !== root;
    const kept = menu.remember(); // an open menu stays open if its click offers the same actions after the update
    const focused = inside ? active.dataset.key || active.dataset.control : null;
    const wasClick = inside && active.matches(CLICKS);
    const m = read(model, priv);
    ui.drawnSince = true;
    // who looks: the board shown to someone else (a pass screen, "I am Bo") says nothing of what
    // the last viewer was told (a hint names their cards), only the public status
    const viewer = JSON.stringify([m.board?.shown_seat, m.board?.spectator, m.pass_to, m.reveal]);
    const looker = ui.viewer !== null && viewer !== ui.viewer;
    if (!m.board?.over) ui.saved = ""; // said of the game that ended: a new deal (or an undo) forgets it
    if (m.board && m.board.players) {
      introState(m.board, m);
      const lines = newLines(ui.log, m.log_lines);
      // what happened, then who is to act, or the result: one text, said once
      const then = m.board.over ? `Game over. ${outcomeText(m.board)}` : String(m.board.status || "");
      if (looker) ui.announce = renewed(then);
      else if (ui.log !== null && lines.length) ui.announce = renewed([...lines.slice(-3), then].filter(Boolean).join(" "));
      ui.log = Array.isArray(m.log_lines) ? m.log_lines.slice() : [];
      root.setAttribute("aria-label", String(m.board.title || "Game board"));
    }
    const hint = hintOf(m);
    if (hint && drawn && hint.key !== ui.hintSaid) ui.announce = renewed(hint.text); // a hint newly answered
    ui.hintSaid = hint ? hint.key : ui.hintSaid;
    // Not a change to mark: the board shown to someone else, or taken back (an undo, a new
    // game): what differs is who looks, or what was, not what happened.
    if (viewer !== ui.viewer || (Number.isInteger(m.step) && m.step < ui.step)) mark = false;
    ui.viewer = viewer;
    ui.step = Number.isInteger(m.step) ? m.step : ui.step;
    const before = drawn ? snapshot(root) : null;
    const fresh = freshBoard(m, ui);
    const moves = before ? plan(before, fresh) : null;
    if (moves) measure(root, before, moves); // the old places of what moves, before the page changes
    if (moves) ui.marks = marksAfter(ui.marks, moves, mark);
    applyMarks(fresh);
    if (m.board && m.board.players) root.dataset.stateId = String(m.state_id);
    morphChildren(root, [...fresh.childNodes]);
    drawn = true;
    // form fields the reader owns, where the board decides their value
    const box = root.querySelector('[data-control="thinking"]');
    if (box) box.checked = ui.thinking;
    const pace = root.querySelector('[data-control="pace"]');
    if (pace && typeof m.pace === "string") pace.value = m.pace;
    if (ui.hoverGroup) for (const e of root.querySelectorAll(`[data-group="${CSS.escape(ui.hoverGroup)}"]`)) e.classList.add("kum-hover");
    panel.refresh(m.board);
    tips.refresh();
    const opener = kept ? root.querySelector(`[data-key="${CSS.escape(kept.key)}"][data-menu]`) : null;
    const actions = opener ? menuActions(m, ui, opener) : [];
    if (opener && !ui.pending && actions.map((a) => a.text).join("\n") === kept.texts.join("\n")) {
      menu.show(opener, actions, { index: kept.index, focus: kept.focused });
    } else if (kept?.focused) restoreFocus(kept.key);
    else if (inside && wasClick && !active.matches(CLICKS)) restoreFocus(null); // a move made from it: on to the next thing to do
    else if (inside && !usable(active, root)) restoreFocus(focused);
    else if (active === root && canAct(m)) restoreFocus(null); // parked on the board while others played: the player's turn takes it on
    if (moves) requestAnimationFrame(() => fly(root, before, moves)); // before the paint: no frame shows the new place unmoved
  }

  // Keyboard players keep their place: the same control if it is still usable, else
  // the first thing there is to do, else the board itself (never the page).
  function restoreFocus(key) {
    let next = key ? root.querySelector(`[data-key="${CSS.escape(key)}"], [data-control="${CSS.escape(key)}"]`) : null;
    if (!usable(next, root)) next = firstToDo();
    (usable(next, root) ? next : root).focus({ preventScroll: true });
  }

  // The first thing to do: the pass screen's button, else the player's own hand (a card
  // to play, a move on it), else any move on the board.
  function firstToDo() {
    const todo = ":is([data-action], [data-menu], [data-playable]):not([disabled]):not([aria-disabled='true']):not(.kum-lit)";
    return root.querySelector(".kum-pass button") || [...root.querySelectorAll(`.kum-own ${todo}`), ...root.querySelectorAll(todo)]
      .find((e) => usable(e, root) && !e.closest("[data-transient]")) || null;
  }

  const canAct = (m) => !ui.pending && !m.board?.over && ((m.legal?.actions || []).length > 0 || Boolean(m.pass_to));

  function onPrivate(msg) {
    const traits = msg.traits && typeof msg.traits === "object" && !Array.isArray(msg.traits) ? msg.traits : null;
    const next = Number.isInteger(msg.id) && msg.id > 0 && traits ? { id: msg.id, traits } : null;
    if (priv && next && priv.id === next.id) return; // already here (another view asked again)
    priv = next;
    if (next && next.id === model.get("private_id")) changed(); // the traits waited for it
  }

  function onMessage(msg) {
    if (msg && msg.kind === "private") onPrivate(msg);
    else onAnswer(msg);
  }

  function onAnswer(msg) {
    if (!msg || msg.kind !== "answer" || msg.id !== ui.pending) return;
    const drawnSince = ui.drawnSince;
    release();
    if (typeof msg.replay === "string") save(msg.replay, msg.filename);
    if (typeof msg.saved === "string" && msg.saved) {
      ui.saved = msg.saved;
      ui.announce = renewed(`Saved for the lab: ${msg.saved}`);
      draw();
    } else if (!drawnSince) draw(); // nothing changed (a refusal repeated, say): show the board live again
  }

  function changed() {
    // One kernel update sets several traits in one synchronous burst: render once,
    // in a microtask right after it (no frame of delay).
    if (frame) return;
    frame = 1;
    const arrivedAt = performance.now();
    queueMicrotask(() => {
      if (!frame) return; // cleaned up meanwhile
      frame = 0;
      const m = read(model, priv);
      if (m.waiting) {
        // These traits go with a private part sent right after them: draw both at once,
        // not the public table for a moment. If it does not come, ask, then draw without it.
        if (!waitTimer) waitTimer = setTimeout(() => { waitTimer = 0; ask(); release(); draw(true); }, PRIVATE_WAIT_MS);
        return;
      }
      clearTimeout(waitTimer);
      waitTimer = 0;
      // The answer to the viewer's own click shows what they did, unmarked; anything else
      // (a bot's move, even one made in the answer to their move, a cell's) is marked until they act.
      const mark = !ui.pending || (ui.pendingKind === "act" && Boolean(m.last_move && m.last_move.bot));
      release(); // the kernel has spoken; its answer to the click may follow
      if (ui.selected !== null && !indexLegal(m.legal).bySource.has(ui.selected)) ui.selected = null;
      draw(mark);
      // Timings for bench/latency.py: when the click was sent, the update arrived, the board was rebuilt.
      const detail = { stateId: model.get("state_id"), sentAt: ui.sentAt, arrivedAt, renderedAt: performance.now() };
      root.dispatchEvent(new CustomEvent("kum-rendered", { detail }));
    });
  }

  // H: to the hand (the first thing to do); Escape with nothing to take back: out of the board
  // to the nearest focusable part of the page around it (the notebook's cell), no keyboard trap
  const keys = {
    hand: () => (firstToDo() || root).focus({ preventScroll: true }),
    leave: () => {
      let up = root.parentNode;
      for (; up; up = up.parentNode || up.host) { // through a shadow root (marimo) to its host
        if (up.nodeType === 1 && up.hasAttribute("tabindex")) break;
      }
      if (up && up.nodeType === 1) up.focus({ preventScroll: true });
      else activeElement()?.blur?.();
    },
  };

  listen(root, { ui, on, controls, menu, panel, tips, keys, pace: () => read(model, priv).pace, draw });

  for (const name of TRAITS) model.on(`change:${name}`, changed);
  model.on("msg:custom", onMessage);
  draw(); // at once, from the traits: a page with no kernel behind it shows them
  if (read(model, priv).waiting) ask(); // this new view has not got the private part they name
  return () => {
    for (const name of TRAITS) model.off(`change:${name}`, changed);
    model.off("msg:custom", onMessage);
    clearTimeout(timer);
    clearTimeout(waitTimer);
    menu.close(false);
    panel.close(false);
    tips.hide();
    frame = 0;
    priv = null;
    root.remove();
  };
}

export default { render };
