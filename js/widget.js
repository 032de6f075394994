// kum_widget front-end: a thin view. It renders the synced view, marks the legal
// actions the kernel sent, and sends the chosen action with the state id.
import { applySelection, buildBoard } from "./board.js";
import { h } from "./dom.js";

const TRAITS = ["board", "legal", "log", "error", "state_id", "pass_to", "thinking", "last_move", "bot_seats", "reveal", "bot_choices"];

function read(model) {
  const m = {};
  for (const name of TRAITS) m[name] = model.get(name);
  m.bot_seats = m.bot_seats || {};
  return m;
}

function render({ model, el }) {
  const root = h("div", { class: "kum-widget" });
  el.appendChild(root);
  const ui = { selected: null, pending: false, newGame: false };
  let frame = 0;

  const on = {
    select(card) {
      ui.selected = ui.selected === card ? null : card;
      applySelection(root, read(model), ui); // local and in place: no round trip, no rebuild
    },
    act(action) {
      on.send({ kind: "act", action });
    },
    send(msg) {
      if (ui.pending) return; // one click in flight at a time
      ui.pending = true;
      ui.sentAt = performance.now();
      model.send({ ...msg, state_id: model.get("state_id") });
      // No re-render here: repainting the board now would only delay the reply's arrival.
      root.setAttribute("aria-busy", "true");
    },
    newGame() {
      ui.newGame = !ui.newGame;
      draw();
    },
  };

  function newGameForm(m) {
    if (!ui.newGame) return null;
    const seed = h("input", { type: "number", min: "0", placeholder: "random", "aria-label": "Seed (empty for random)", class: "kum-seed" });
    const bots = Object.keys(m.bot_seats).length
      ? h("select", { "aria-label": "Bot", class: "kum-bot-select" }, (m.bot_choices || []).map((b) => h("option", { value: b }, b)))
      : null;
    const start = () => {
      const value = seed.value.trim();
      ui.newGame = false;
      on.send({ kind: "new_game", seed: value === "" ? null : Number.parseInt(value, 10), ...(bots ? { bot: bots.value } : {}) });
    };
    return h("form", { class: "kum-newgame", onsubmit: (e) => { e.preventDefault(); start(); } },
      h("label", {}, "Seed ", seed), bots ? h("label", {}, " Opponent ", bots) : null,
      h("button", { type: "submit", class: "kum-primary", dataset: { control: "start" } }, "Start"));
  }

  function draw() {
    const focused = root.contains(document.activeElement) ? document.activeElement.dataset.key || document.activeElement.dataset.control : null;
    const m = read(model);
    buildBoard(root, m, ui, on);
    applySelection(root, m, ui);
    const form = newGameForm(m);
    if (form) root.insertBefore(form, root.children[1] || null);
    if (focused) {
      const again = root.querySelector(`[data-key="${CSS.escape(focused)}"], [data-control="${CSS.escape(focused)}"]`);
      if (again && !again.disabled) again.focus();
    }
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
      ui.pending = false;
      root.removeAttribute("aria-busy");
      const plays = (model.get("legal") || {}).plays || [];
      if (ui.selected !== null && !plays.some((p) => p.card === ui.selected)) ui.selected = null;
      draw();
      // Timings for bench/latency.py: when the click was sent, the update arrived, the board was rebuilt.
      const detail = { stateId: model.get("state_id"), sentAt: ui.sentAt, arrivedAt, renderedAt: performance.now() };
      root.dispatchEvent(new CustomEvent("kum-rendered", { detail }));
    });
  }

  // One delegated listener: a button with data-action performs it; a playable card selects.
  root.addEventListener("click", (event) => {
    const el = event.target.closest("button");
    if (!el || el.disabled || el.dataset.control) return;
    if (el.dataset.action) on.act(el.dataset.action);
    else if (el.dataset.playable !== undefined) on.select(Number(el.dataset.card));
  });

  for (const name of TRAITS) model.on(`change:${name}`, changed);
  draw();
  return () => {
    for (const name of TRAITS) model.off(`change:${name}`, changed);
    frame = 0;
    root.remove();
  };
}

export default { render };
