// What helps a player read the table, beyond the parts: the tools in the top bar (the
// "?" that opens the help, a hint, the switch that shows the bot's thinking, the bots'
// speed), the help panel (the game's `intro`, opened by itself the first time, its `rules`
// folded below, and the board's keys), and the game-over banner (the game's `outcome`).
// Each text comes from the board description or the traits: the words here are the
// board's own ("wins", "Hint", the keys), never a game's.
import { h } from "./dom.js";
import { offersThinking } from "./thinking.js";

export const PACES = ["slow", "normal", "fast", "instant"];
const STORE = "kum-widget:intro:"; // + the board's title: dismissed once, not shown first again

/** A text of the board description's (`intro`, `rules`): {title, paragraphs}, if usable. */
function textOf(board, key, fallback) {
  const text = board && board[key];
  if (!text || typeof text !== "object" || Array.isArray(text)) return null;
  const paragraphs = Array.isArray(text.paragraphs) ? text.paragraphs.filter((p) => typeof p === "string" && p) : [];
  const title = typeof text.title === "string" ? text.title : "";
  return title || paragraphs.length ? { title: title || fallback, paragraphs } : null;
}

/** The game's first-time panel (its intro), if its description has a usable one. */
export function introOf(board) {
  return textOf(board, "intro", String((board && board.title) || ""));
}

/** The board's own keys, for every game (the help panel lists them). */
export const KEYS = [
  ["Tab, Shift+Tab", "from part to part, in the order they are drawn (the other players, the table, your hand)"],
  ["Enter or Space", "choose a card or a piece, then where it goes (the places it may go light up); a lit place or a button plays at once"],
  ["Escape", "take a choice back; with nothing to take back, leave the board for the notebook"],
  ["H", "to your hand: the first card or move you may play now"],
  ["Arrows, Home, End", "through a menu's choices"],
];

/** The words a screen reader hears for the keys (the live region, the "?" button). */
export const KEYS_HINT = "Press H for your hand, Escape to take a choice back.";

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

/** Whether the kernel answers the board's control `name` (its `controls` trait; a kernel
 * that sends none answers them all). */
export function offers(m, name) {
  return !Array.isArray(m.controls) || m.controls.includes(name);
}

/** The tools of a live board: each only when the kernel offers what it needs. */
export function tools(m, ui) {
  const busy = Boolean(ui.pending);
  const items = [h("button", { type: "button", class: "kum-help", dataset: { control: "intro", key: "control:intro" },
    "aria-label": "Help: how to play, and the board's keys", title: "How to play, and the board's keys",
    "aria-expanded": ui.introOpen ? "true" : "false" }, "?")]; // every game: the keys at least
  // Every live board's kernel answers hints. (Its `analysis` is null until a search has
  // something to show; Pyodide's kernel sends that null as undefined.)
  const canAct = (m.legal?.actions || []).length > 0 && !m.board.over;
  if (offers(m, "hint")) {
    items.push(h("button", { type: "button", dataset: { control: "hint", key: "control:hint" }, disabled: busy || !canAct,
      title: "What would the search play here? (plays nothing)" }, "Hint"));
  }
  if (offersThinking(m)) { // only where a bot holds a seat (a Hint's answer shows without it)
    items.push(h("label", { class: "kum-switch", dataset: { key: "thinking-switch" },
      title: "What the bot weighed at its last move, and why, in words; and your Hint's figures" },
      h("input", { type: "checkbox", role: "switch", dataset: { control: "thinking", key: "thinking" }, checked: Boolean(ui.thinking) }),
      " Show the bot's thinking"));
  }
  if (typeof m.pace === "string" && offers(m, "pace")) {
    const pace = h("select", { dataset: { control: "pace", key: "pace" }, "aria-label": "Bot speed", disabled: busy },
      PACES.map((p) => h("option", { value: p, selected: p === m.pace }, p)));
    items.push(h("label", { class: "kum-pace", dataset: { key: "pace-label" } }, "Speed ", pace));
  }
  return items.length ? h("span", { class: "kum-tools", role: "group", "aria-label": "Tools", dataset: { key: "tools" } }, items) : null;
}

/** The help panel, while it is open: the game's intro (its first-time panel), its rules
 * folded below, and the board's keys (folded under a game's own words, open without them). */
export function helpPanel(board, ui) {
  if (!ui.introOpen) return null;
  const intro = introOf(board);
  const rules = textOf(board, "rules", "The rules");
  const title = intro ? intro.title : `${String((board && board.title) || "The board")}: the keys`;
  const keys = h("ul", { class: "kum-keys" }, KEYS.map(([key, what]) => h("li", {}, h("kbd", {}, key), `: ${what}.`)));
  return h("section", { class: "kum-intro", role: "region", "aria-label": title, dataset: { key: "intro" } },
    h("h3", { class: "kum-intro-title" }, title),
    intro ? intro.paragraphs.map((p) => h("p", {}, p)) : null,
    rules ? h("details", { class: "kum-rules", dataset: { key: "rules" } }, h("summary", {}, rules.title), rules.paragraphs.map((p) => h("p", {}, p))) : null,
    intro || rules ? h("details", { class: "kum-keys-box", dataset: { key: "keys" } }, h("summary", {}, "The board's keys"), keys) : keys,
    h("button", { type: "button", class: "kum-primary", dataset: { control: "intro-close", key: "control:intro-close" } }, "Got it"));
}

/** What decided a finished game, in words: the game's own, else who won and the scores. */
export function outcomeText(board) {
  let said = typeof board.outcome === "string" ? board.outcome.trim() : "";
  if (!said) {
    const players = Array.isArray(board.players) ? board.players : [];
    const won = players.filter((p) => p.winner).map((p) => p.name);
    const scores = players.filter((p) => p.score !== undefined).map((p) => `${p.name} ${p.score}`).join(", ");
    said = [won.length ? `${won.join(" and ")} ${won.length === 1 ? "wins" : "share the win"}.` : "Game over.", scores ? `Scores: ${scores}.` : ""]
      .filter(Boolean).join(" ");
  }
  return said;
}

/** Game over: what decided it, in view at the top of the table (the scores' table stays below). */
export function banner(board) {
  if (!board || !board.over) return null;
  const said = outcomeText(board);
  return h("div", { class: "kum-banner", role: "region", "aria-label": "Game over", dataset: { key: "banner" } },
    h("strong", { class: "kum-banner-head" }, "Game over"),
    h("span", { class: "kum-banner-text" }, said));
}
