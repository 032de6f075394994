// What helps a player read the table, beyond the parts: the tools in the top bar (the
// "?" that reopens the game's first-time panel, a hint, the switch that shows the bot's
// thinking, the bots' speed), that panel (the game's `intro`), and the game-over banner
// (the game's `outcome`). Each text comes from the board description or the traits: the
// words here are the board's own ("wins", "Hint"), never a game's.
import { h } from "./dom.js";

export const PACES = ["slow", "normal", "fast", "instant"];
const STORE = "kum-widget:intro:"; // + the board's title: dismissed once, not shown first again

/** The game's first-time panel, if its description has a usable one. */
export function introOf(board) {
  const intro = board && board.intro;
  if (!intro || typeof intro !== "object" || Array.isArray(intro)) return null;
  const paragraphs = Array.isArray(intro.paragraphs) ? intro.paragraphs.filter((p) => typeof p === "string" && p) : [];
  const title = typeof intro.title === "string" ? intro.title : "";
  return title || paragraphs.length ? { title: title || String(board.title || ""), paragraphs } : null;
}

function storage() {
  try {
    return window.localStorage || null; // a sandboxed frame may refuse even to show it
  } catch (_) {
    return null;
  }
}

/** Was this board's panel dismissed before (on this browser)? */
export function introDismissed(board) {
  try {
    return storage()?.getItem(STORE + String(board.title || "")) === "1";
  } catch (_) {
    return false;
  }
}

export function rememberIntro(board) {
  try {
    storage()?.setItem(STORE + String(board.title || ""), "1");
  } catch (_) {
    // no storage here (private mode, a sandbox): it shows again next time
  }
}

/** The tools of a live board: each only when the kernel offers what it needs. */
export function tools(m, ui) {
  const busy = Boolean(ui.pending);
  const intro = introOf(m.board);
  const items = [];
  if (intro) {
    items.push(h("button", { type: "button", class: "kum-help", dataset: { control: "intro", key: "control:intro" },
      "aria-label": `About this game: ${intro.title}`, title: "About this game", "aria-expanded": ui.introOpen ? "true" : "false" }, "?"));
  }
  if (m.analysis !== undefined) { // the kernel answers hints and sends the search's figures
    const canAct = (m.legal?.actions || []).length > 0 && !m.board.over;
    items.push(h("button", { type: "button", dataset: { control: "hint", key: "control:hint" }, disabled: busy || !canAct,
      title: "What would the search play here? (plays nothing)" }, "Hint"));
    items.push(h("label", { class: "kum-switch", dataset: { key: "thinking-switch" },
      title: "What the search weighed: for your Hint, and for a bot's last decision where its hand is shown to you" },
      h("input", { type: "checkbox", role: "switch", dataset: { control: "thinking", key: "thinking" }, checked: Boolean(ui.thinking) }),
      " Show the bot's thinking"));
  }
  if (typeof m.pace === "string") {
    const pace = h("select", { dataset: { control: "pace", key: "pace" }, "aria-label": "Bot speed", disabled: busy },
      PACES.map((p) => h("option", { value: p, selected: p === m.pace }, p)));
    items.push(h("label", { class: "kum-pace", dataset: { key: "pace-label" } }, "Speed ", pace));
  }
  return items.length ? h("span", { class: "kum-tools", role: "group", "aria-label": "Tools", dataset: { key: "tools" } }, items) : null;
}

/** The first-time panel, while it is open. */
export function introPanel(board, ui) {
  const intro = introOf(board);
  if (!intro || !ui.introOpen) return null;
  return h("section", { class: "kum-intro", role: "region", "aria-label": intro.title, dataset: { key: "intro" } },
    h("h3", { class: "kum-intro-title" }, intro.title),
    intro.paragraphs.map((p) => h("p", {}, p)),
    h("button", { type: "button", class: "kum-primary", dataset: { control: "intro-close", key: "control:intro-close" } }, "Got it"));
}

/** Game over: what decided it, in view at the top of the table (the scores' table stays below). */
export function banner(board) {
  if (!board || !board.over) return null;
  let said = typeof board.outcome === "string" ? board.outcome.trim() : "";
  if (!said) {
    const players = Array.isArray(board.players) ? board.players : [];
    const won = players.filter((p) => p.winner).map((p) => p.name);
    const scores = players.filter((p) => p.score !== undefined).map((p) => `${p.name} ${p.score}`).join(", ");
    said = [won.length ? `${won.join(" and ")} ${won.length === 1 ? "wins" : "share the win"}.` : "Game over.", scores ? `Scores: ${scores}.` : ""]
      .filter(Boolean).join(" ");
  }
  return h("div", { class: "kum-banner", role: "region", "aria-label": "Game over", dataset: { key: "banner" } },
    h("strong", { class: "kum-banner-head" }, "Game over"),
    h("span", { class: "kum-banner-text" }, said));
}
