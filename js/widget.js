// kum_widget front-end: a thin view. It renders the synced view, marks the legal
// actions the kernel sent, and sends the chosen action with the state id.
import { buildBoard } from "./board.js";
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
      draw(); // local: targets light up with no kernel round trip
    },
    act(action) {
      on.send({ kind: "act", action });
    },
    send(msg) {
      ui.pending = true;
      ui.sentAt = performance.now();
      model.send({ ...msg, state_id: model.get("state_id") });
      draw();
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
    const form = newGameForm(m);
    if (form) root.insertBefore(form, root.children[1] || null);
    if (focused) {
      const again = root.querySelector(`[data-key="${CSS.escape(focused)}"], [data-control="${CSS.escape(focused)}"]`);
      if (again && !again.disabled) again.focus();
    }
  }

  function changed() {
    // Coalesce a burst of trait changes (one kernel update) into one render.
    if (frame) return;
    frame = requestAnimationFrame(() => {
      frame = 0;
      ui.pending = false;
      const legal = model.get("legal") || [];
      if (ui.selected !== null && !legal.some((a) => a.card === ui.selected)) ui.selected = null;
      draw();
      root.dispatchEvent(new CustomEvent("kum-rendered", { detail: { stateId: model.get("state_id") } }));
    });
  }

  for (const name of TRAITS) model.on(`change:${name}`, changed);
  draw();
  return () => {
    for (const name of TRAITS) model.off(`change:${name}`, changed);
    if (frame) cancelAnimationFrame(frame);
    root.remove();
  };
}

export default { render };
