// The bot's thinking (the `analysis` trait): what a bot weighed at its last decision, or a
// hint, in the kernel's plain words (`said`) and figures. With the switch on, each move's
// click target gets a small badge (a bar for its share of the search where there is one,
// and its figure); the chosen move is highlighted; a table lists the moves for every reader
// (and for moves whose ids are not on this board). Off, nothing is drawn. Which part a move
// is on comes from the move's own ids (source, target) or its action button, as clicks do.
// The words are the kernel's: here only what a figure is called ("Chance to win", "Rule of
// thumb"), never a game's words.
import { h } from "./dom.js";

const LISTED = 8;
const KINDS = ["card", "piece", "zone", "cell", "group", "place"];
const pct = (x) => `${Math.round(Math.max(0, Math.min(1, Number(x) || 0)) * 100)}%`;
const num = (x) => x !== null && x !== undefined && x !== "" && Number.isFinite(Number(x));
// a move the search never tried has no estimate: it says so rather than "0%"
const searched = (x) => (x.share === null || x.share === undefined || Number(x.share) > 0) && num(x.value);
const figure = (x) => (num(x.score) ? String(Math.round(Number(x.score) * 10) / 10) : pct(x.value));
const range = (x) => (num(x.low) && num(x.high) ? ` (${pct(x.low)} to ${pct(x.high)})` : "");
// What `value` measures (the analysis's `measure`): a search's chance of winning, a solitaire
// search's expected score, or the game's rule of thumb (the greedy bot's: never a chance).
const MEASURES = {
  win: { column: "Chance to win", word: "win", short: (x) => pct(x.value), long: (x) => `chance to win about ${pct(x.value)}${range(x)}` },
  score: { column: "Expected score", word: "score", short: (x) => figure(x), long: (x) => `expected final score about ${figure(x)}` },
  heuristic: { column: "Rule-of-thumb score", word: "rule", short: (x) => String(Math.round(Number(x.value) * 100)),
    long: (x) => `rule-of-thumb score ${Math.round(Number(x.value) * 100)} of 100` },
};
const OTHER = { column: "Value", word: "value", short: (x) => pct(x.value), long: (x) => `valued at ${pct(x.value)} of the best` };
const measureOf = (a) => (typeof a.measure === "string" && Object.hasOwn(MEASURES, a.measure) ? MEASURES[a.measure] : a.measure === undefined ? MEASURES.win : OTHER);
const cell = (x, m) => (searched(x) ? (m === MEASURES.win ? `about ${pct(x.value)}` : m.short(x)) : "not tried");
const saidOf = (a) => (Array.isArray(a.said) ? a.said.filter((s) => typeof s === "string" && s) : []);
const equalOf = (a) => new Set(Array.isArray(a.equal) ? a.equal.filter((s) => typeof s === "string") : []);

/** Is the bot's thinking offered here: does a bot hold a seat at this board? (A hint is
 * offered at any board; its answer shows whether or not.) */
export function offersThinking(m) {
  const bots = m.bot_seats;
  return Boolean(bots && typeof bots === "object" && Object.keys(bots).length);
}

/** The analysis to draw, or null (the switch off, none sent, or not one we can read). */
export function shownAnalysis(m, ui) {
  const a = m.analysis;
  if (!ui.thinking || !a || typeof a !== "object" || !Array.isArray(a.moves)) return null;
  const moves = a.moves.filter((x) => x && typeof x === "object" && typeof x.action === "string");
  return moves.length || saidOf(a).length ? { ...a, moves } : null;
}

function partsOf(root, id) {
  const q = CSS.escape(id);
  return [...root.querySelectorAll(KINDS.map((k) => `[data-${k}="${q}"]`).join(", "))].filter((el) => !el.closest("[data-transient]"));
}

function overlay(moves, a, m) {
  const shares = moves.filter((x) => num(x.share));
  const share = shares.reduce((s, x) => s + Number(x.share), 0);
  const best = moves.reduce((b, x) => (searched(x) && (!searched(b) || Number(x.value) > Number(b.value)) ? x : b), moves[0]);
  const texts = moves.map((x) => x.action).join("; ");
  const tried = searched(best);
  const chosen = moves.some((x) => x.action === a.chosen);
  const equal = !chosen && moves.some((x) => equalOf(a).has(x.action));
  return h("span", {
    class: `kum-think${chosen ? " kum-think-chosen" : ""}${equal ? " kum-think-equal" : ""}${tried ? "" : " kum-think-untried"}`, "aria-hidden": "true",
    title: tried ? `${texts}: ${m.long(best)}${shares.length ? `; ${pct(share)} of the search's effort` : ""}` : `${texts}: not tried by the search`,
  },
  shares.length ? h("span", { class: "kum-think-bar", style: `--kum-share: ${pct(share)}` }) : null,
  // (its word is left out on a card, where the badge must stay one short line: the title says it)
  h("span", { class: "kum-think-value" }, tried ? [h("span", { class: "kum-think-word" }, `${m.word} `), m.short(best)] : "not tried"));
}

/** Put the overlays on `root` (the fresh board, or the page's in place after a selection):
 * a move from a source to a target is shown on its source, or, while that source is
 * selected or when it is no longer on the board, on its target; a move on a target alone on
 * the target; a button's on the button. `clean`: take off the overlays already there. */
export function decorateThinking(root, m, ui, clean = true) {
  const a = shownAnalysis(m, ui);
  if (clean) { // (a fresh board has none to take off)
    for (const el of root.querySelectorAll(".kum-think")) el.remove();
    for (const el of root.querySelectorAll("[data-think]")) delete el.dataset.think;
  }
  if (!a || a.measure === "none") return; // a bot that weighs nothing has no figures to lay on the parts
  const at = new Map(); // element -> its moves
  const put = (els, move) => {
    for (const el of els) (at.get(el) || at.set(el, []).get(el)).push(move);
  };
  for (const move of a.moves) {
    const source = typeof move.source === "string" ? move.source : null;
    const target = typeof move.target === "string" ? move.target : null;
    // (a bot's played card has left its place: its move shows on where it went)
    if (source && target) put((ui.selected !== source && partsOf(root, source).length ? partsOf(root, source) : partsOf(root, target)).slice(0, 1), move);
    else if (target) put(partsOf(root, target).slice(0, 1), move);
    else put(root.querySelectorAll(`[data-key="action:${CSS.escape(move.action)}"]`), move);
  }
  for (const [el, moves] of at) {
    el.dataset.think = moves.some((x) => x.action === a.chosen) ? "chosen" : "";
    el.append(overlay(moves, a, measureOf(a)));
  }
}

/** The panel: the kernel's words, then the moves as a table, the one rated best first. */
export function thinkingList(m, ui) {
  const a = shownAnalysis(m, ui);
  if (!a) { // switched on with nothing to show (no bot has moved yet): say so, rather than seem to do nothing
    return ui.thinking && offersThinking(m) && (m.analysis === null || m.analysis === undefined)
      ? h("p", { class: "kum-thinking kum-thinking-empty", dataset: { key: "thinking" } },
        "Nothing to show yet: after the bot's first move, it says here what it weighed and why. Hint shows what the search would play for you.")
      : null;
  }
  const m2 = measureOf(a);
  const shares = a.moves.some((x) => num(x.share));
  const order = (x) => (num(x.share) ? Number(x.share) : 0) * 2 + (num(x.value) ? Number(x.value) : -1) / 1000;
  const moves = a.moves.slice().sort((x, y) => (shares ? order(y) - order(x) : (Number(y.value) || 0) - (Number(x.value) || 0))).slice(0, LISTED);
  const who = typeof a.name === "string" && a.name ? a.name : a.kind === "hint" ? "Hint" : "The bot";
  const equal = equalOf(a);
  const mark = (x) => (x.action === a.chosen ? h("span", { class: "kum-badge kum-c-gold" }, a.kind === "hint" ? "best" : "chosen")
    : equal.has(x.action) ? h("span", { class: "kum-badge" }, "about equal") : null);
  const table = moves.length && a.measure !== "none" ? h("table", {},
    h("caption", {}, `${who}: the moves weighed`, h("span", { class: "kum-muted" }, ". A card's badge sums up its moves: choose the card to see each.")),
    h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "Move"), shares ? h("th", { scope: "col" }, "Share of the search") : null, h("th", { scope: "col" }, m2.column))),
    h("tbody", {}, moves.map((x) => h("tr", { class: x.action === a.chosen ? "kum-think-chosen" : "", dataset: { move: x.action } },
      h("th", { scope: "row" }, x.action, mark(x)),
      shares ? h("td", {}, h("span", { class: "kum-think-bar", style: `--kum-share: ${pct(x.share)}`, "aria-hidden": "true" }), ` ${pct(x.share)}`) : null,
      h("td", {}, cell(x, m2)))))) : null;
  return h("section", { class: "kum-thinking", role: "region", "aria-label": `${who}: what it weighed, and why`, dataset: { key: "thinking", kind: String(a.kind || "") } },
    h("h3", { class: "kum-thinking-title" }, a.kind === "hint" ? who.charAt(0).toUpperCase() + who.slice(1) : `The bot's thinking: ${who}`),
    saidOf(a).map((s) => h("p", { class: "kum-thinking-said" }, s)),
    table);
}
