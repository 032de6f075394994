// kum_widget front-end: a thin view. It renders the synced view, marks the legal
// actions the kernel sent, and sends the chosen action with the state id. It never
// writes a trait: the kernel answers every message ({kind: "answer", id}), so a
// click is released even when nothing changes (a refusal, an undo with nothing to undo).
//
// Private parts: the traits are what a saved notebook keeps, so the kernel may send part
// of what the board shows in a message instead ({kind: "private", id, traits}), named by
// the trait private_id. The view keeps it in its own memory, never on the model (a save
// writes the model), lays it over the traits while its id is the one they name, and asks
// for it ({kind: "view"}) when it has not got it (a new view, a reloaded page).
import { applySelection, buildBoard, indexLegal, menuActions, sourceId } from "./board.js";
import { h } from "./dom.js";
import { createMenu } from "./menu.js";

const TRAITS = ["board", "legal", "log_lines", "error", "state_id", "pass_to", "thinking", "last_move", "bot_seats", "reveal", "bot_choices", "step", "max_step", "private_id"];
const ANSWER_TIMEOUT_MS = 30_000; // past this, say the kernel is not answering, and let go
const PRIVATE_WAIT_MS = 2_000; // traits whose private part has not come by then are drawn without it
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

function render({ model, el }) {
  const root = h("div", { class: "kum-widget", tabindex: "-1" }); // focusable: keyboard focus stays in the board
  el.appendChild(root);
  const view = `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}-${++views}`;
  const ui = { selected: null, pending: null, newGame: false, sent: 0, notice: "" };
  let frame = 0;
  let timer = 0;
  let priv = null; // this view's private part: {id, traits}; only ever here, never on the model
  let waitTimer = 0;
  const menu = createMenu(root);

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

  const on = {
    select(id) {
      menu.close(false);
      ui.selected = ui.selected === id ? null : id;
      applySelection(root, read(model, priv), ui); // local and in place: no round trip, no rebuild
    },
    act(action) {
      if (ui.pending) return;
      menu.close(true); // a menu's entry: focus goes back to what opened it
      on.send({ kind: "act", action });
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
    newGame() {
      ui.newGame = !ui.newGame;
      draw();
    },
    replay() {
      on.send({ kind: "replay" }); // the kernel writes the file (only it knows the record); the answer carries it
    },
  };

  // The replay file arrives as text in the answer: saved through a link to a Blob, as any download.
  function save(text, name) {
    const url = URL.createObjectURL(new Blob([text], { type: "text/html" }));
    const link = h("a", { href: url, download: typeof name === "string" && name ? name : "replay.html", hidden: true });
    root.append(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(url), 60_000);
  }

  function newGameForm(m) {
    if (!ui.newGame) return null;
    const seed = h("input", { type: "number", min: "0", placeholder: "random", "aria-label": "Seed (empty for random)", class: "kum-seed" });
    const seats = Object.values(m.bot_seats);
    // The opponent the board has now comes first and is chosen: a new game keeps it unless changed.
    const current = seats.length ? seats[0].kind : null;
    const options = seats.length
      ? [current === null ? h("option", { value: "" , selected: true }, `keep ${seats[0].name}`) : null,
         ...(m.bot_choices || []).map((b) => h("option", { value: b, selected: b === current }, b))]
      : [];
    const bots = seats.length ? h("select", { "aria-label": "Opponent", class: "kum-bot-select" }, options) : null;
    const start = () => {
      const value = seed.value.trim();
      ui.newGame = false;
      const bot = bots && bots.value ? { bot: bots.value } : {};
      on.send({ kind: "new_game", seed: value === "" ? null : Number.parseInt(value, 10), ...bot });
    };
    return h("form", { class: "kum-newgame", onsubmit: (e) => { e.preventDefault(); start(); } },
      h("label", {}, "Seed ", seed), bots ? h("label", {}, " Opponent ", bots) : null,
      h("button", { type: "submit", class: "kum-primary", dataset: { control: "start" } }, "Start"));
  }

  function draw() {
    const active = document.activeElement;
    const inside = root.contains(active);
    const kept = menu.remember(); // an open menu stays open if its click offers the same actions after the rebuild
    const focused = inside && active !== root ? active.dataset.key || active.dataset.control : null;
    const m = read(model, priv);
    ui.drawnSince = true;
    buildBoard(root, m, ui, on);
    applySelection(root, m, ui);
    const form = newGameForm(m);
    if (form) root.insertBefore(form, root.children[1] || null);
    const opener = kept ? root.querySelector(`[data-key="${CSS.escape(kept.key)}"][data-menu]`) : null;
    const actions = opener ? menuActions(m, ui, opener) : [];
    if (opener && !ui.pending && actions.map((a) => a.text).join("\n") === kept.texts.join("\n")) {
      menu.show(opener, actions, { index: kept.index, focus: kept.focused });
    } else if (inside) restoreFocus(kept?.focused ? kept.key : focused);
  }

  // Keyboard players keep their place: the same control if it is still usable, else
  // the first thing there is to do, else the board itself (never the page).
  function restoreFocus(key) {
    const usable = (e) => e && !e.disabled && e.getAttribute("aria-disabled") !== "true"
      && (["BUTTON", "INPUT", "SELECT"].includes(e.tagName) || (e.hasAttribute("tabindex") && e !== root));
    let next = key ? root.querySelector(`[data-key="${CSS.escape(key)}"], [data-control="${CSS.escape(key)}"]`) : null;
    if (!usable(next)) next = root.querySelector(".kum-pass button, [data-action]:not([disabled]):not([aria-disabled]), [data-menu]:not([disabled]):not([aria-disabled]), [data-playable]:not([disabled])");
    (usable(next) ? next : root).focus({ preventScroll: true });
  }

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
    const drawn = ui.drawnSince;
    release();
    if (typeof msg.replay === "string") save(msg.replay, msg.filename);
    if (!drawn) draw(); // nothing changed (a refusal repeated, say): show the board live again
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
      if (read(model, priv).waiting) {
        // These traits go with a private part sent right after them: draw both at once,
        // not the public table for a moment. If it does not come, ask, then draw without it.
        if (!waitTimer) waitTimer = setTimeout(() => { waitTimer = 0; ask(); release(); draw(); }, PRIVATE_WAIT_MS);
        return;
      }
      clearTimeout(waitTimer);
      waitTimer = 0;
      release(); // the kernel has spoken; its answer to the click may follow
      if (ui.selected !== null && !indexLegal(read(model, priv).legal).bySource.has(ui.selected)) ui.selected = null;
      draw();
      // Timings for bench/latency.py: when the click was sent, the update arrived, the board was rebuilt.
      const detail = { stateId: model.get("state_id"), sentAt: ui.sentAt, arrivedAt, renderedAt: performance.now() };
      root.dispatchEvent(new CustomEvent("kum-rendered", { detail }));
    });
  }

  // One delegated listener: an element with data-action performs it; a playable card
  // selects itself as the source. Zones that are targets are role="button": Enter and
  // Space click them, as for a real button.
  function activate(el) {
    if (!el || el.disabled || el.getAttribute("aria-disabled") === "true" || el.dataset.control) return;
    if (el.dataset.menu !== undefined) on.menu(el);
    else if (el.dataset.action) on.act(el.dataset.action);
    else if (el.dataset.playable !== undefined) on.select(sourceId(el));
  }
  root.addEventListener("click", (event) => {
    const el = event.target.closest("[data-action], [data-menu], [data-playable], button");
    if (el && root.contains(el)) activate(el);
  });
  root.addEventListener("keydown", (event) => {
    if (menu.key(event)) {
      event.stopPropagation(); // the notebook's own shortcuts (arrows, Enter, Escape) must not act on it too
      return;
    }
    if (event.key !== "Enter" && event.key !== " ") return;
    const el = event.target;
    if (el.getAttribute && el.getAttribute("role") === "button" && (el.dataset.action || el.dataset.menu !== undefined)) {
      event.preventDefault();
      activate(el);
    }
  });
  // A group of cells is one target: pointing at one of its cells lights them all (a column).
  const hover = (event) => {
    const el = event.target.closest ? event.target.closest("[data-group]") : null;
    const group = el && (el.dataset.action || el.dataset.menu !== undefined) ? el.dataset.group : null;
    for (const other of root.querySelectorAll(".kum-hover")) if (other.dataset.group !== group) other.classList.remove("kum-hover");
    if (group) for (const other of root.querySelectorAll(`[data-group="${CSS.escape(group)}"]`)) other.classList.add("kum-hover");
  };
  root.addEventListener("pointerover", hover);
  root.addEventListener("focusin", hover);
  root.addEventListener("pointerleave", () => { for (const el of root.querySelectorAll(".kum-hover")) el.classList.remove("kum-hover"); });

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
    frame = 0;
    priv = null;
    root.remove();
  };
}

export default { render };
