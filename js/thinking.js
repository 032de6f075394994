// The bot's thinking (the `analysis` trait): what a search weighed at its last decision, or
// for a hint. With the switch on, each move's click target gets a small overlay (its share
// of the search's visits as a bar and a percentage, and its estimated chance of winning);
// the chosen move is highlighted; a table lists the moves for every reader (and for moves
// whose ids are not on this board). Off, nothing is drawn. Which part a move is on comes
// from the move's own ids (source, target) or its action button, as clicks do.
import { h } from "./dom.js";

const LISTED = 8;
const KINDS = ["card", "piece", "zone", "cell", "group", "place"];
const pct = (x) => `${Math.round(Math.max(0, Math.min(1, Number(x) || 0)) * 100)}%`;
// a move the search never tried has no estimate: it says so rather than "0%"
const searched = (x) => Number(x.visits) > 0 && Number.isFinite(Number(x.value)) && x.value !== null;
// What `value` measures (the analysis's `measure`): a chance of winning, a solitaire's
// expected score (shown as the score itself when sent), or the game's heuristic, scaled.
const MEASURES = {
  win: { column: "Win chance", word: "win", short: (x) => pct(x.value), long: (x) => `${pct(x.value)} estimated chance to win` },
  score: { column: "Expected score", word: "score", short: (x) => figure(x), long: (x) => `an expected score of ${figure(x)}` },
};
const OTHER = { column: "Value", word: "value", short: (x) => pct(x.value), long: (x) => `valued at ${pct(x.value)} of the best` };
const figure = (x) => (Number.isFinite(Number(x.score)) && x.score !== null ? String(Math.round(Number(x.score) * 10) / 10) : pct(x.value));
const measureOf = (a) => (typeof a.measure === "string" && Object.hasOwn(MEASURES, a.measure) ? MEASURES[a.measure] : a.measure === undefined ? MEASURES.win : OTHER);
const chance = (x, m) => (searched(x) ? (m === MEASURES.win ? pct(x.value) : figure(x)) : "not tried");

/** The analysis to draw, or null (the switch off, none sent, or not one we can read). */
export function shownAnalysis(m, ui) {
  const a = m.analysis;
  if (!ui.thinking || !a || typeof a !== "object" || !Array.isArray(a.moves)) return null;
  const moves = a.moves.filter((x) => x && typeof x === "object" && typeof x.action === "string");
  return moves.length ? { ...a, moves } : null;
}

function partsOf(root, id) {
  const q = CSS.escape(id);
  return [...root.querySelectorAll(KINDS.map((k) => `[data-${k}="${q}"]`).join(", "))].filter((el) => !el.closest("[data-transient]"));
}

function overlay(moves, chosen, m) {
  const share = moves.reduce((s, x) => s + (Number(x.visits) || 0), 0);
  const best = moves.reduce((b, x) => ((Number(x.visits) || 0) > (Number(b.visits) || 0) ? x : b), moves[0]);
  const texts = moves.map((x) => x.action).join("; ");
  const tried = searched(best);
  return h("span", {
    class: `kum-think${moves.some((x) => x.action === chosen) ? " kum-think-chosen" : ""}${tried ? "" : " kum-think-untried"}`, "aria-hidden": "true",
    title: tried ? `${texts}: ${pct(share)} of the search's visits, ${m.long(best)}` : `${texts}: not tried by the search`,
  },
  h("span", { class: "kum-think-bar", style: `--kum-share: ${pct(share)}` }),
  h("span", { class: "kum-think-share" }, pct(share)),
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
  if (!a) return;
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
    el.append(overlay(moves, a.chosen, measureOf(a)));
  }
}

/** The moves as a table, the most visited first. */
export function thinkingList(m, ui) {
  const a = shownAnalysis(m, ui);
  if (!a) { // switched on with nothing to show: say why, rather than seem to do nothing
    return ui.thinking && m.analysis !== undefined
      ? h("p", { class: "kum-thinking kum-thinking-empty", dataset: { key: "thinking" } },
        "Nothing to show yet. Hint shows what the search would play for you; a bot's own thinking shows only where its hand is shown to you.")
      : null;
  }
  const moves = a.moves.slice().sort((x, y) => (Number(y.visits) || 0) - (Number(x.visits) || 0)).slice(0, LISTED);
  const who = typeof a.name === "string" && a.name ? a.name : a.kind === "hint" ? "Hint" : "The bot";
  const runs = Number.isInteger(a.iterations) && a.iterations > 0 ? `, ${a.iterations} iterations` : "";
  return h("section", { class: "kum-thinking", role: "region", "aria-label": `${who}: what the search weighed`, dataset: { key: "thinking", kind: String(a.kind || "") } },
    h("table", {},
      h("caption", {}, `${who}${runs}`, h("span", { class: "kum-muted" }, ". The search plays its most visited move; a card's badge adds up its moves (choose the card to see each).")),
      h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "Move"), h("th", { scope: "col" }, "Visits"), h("th", { scope: "col" }, measureOf(a).column))),
      h("tbody", {}, moves.map((x) => h("tr", { class: x.action === a.chosen ? "kum-think-chosen" : "", dataset: { move: x.action } },
        h("th", { scope: "row" }, x.action, x.action === a.chosen ? h("span", { class: "kum-badge kum-c-gold" }, a.kind === "hint" ? "best" : "chosen") : null),
        h("td", {}, h("span", { class: "kum-think-bar", style: `--kum-share: ${pct(x.visits)}`, "aria-hidden": "true" }), ` ${pct(x.visits)}`),
        h("td", {}, chance(x, measureOf(a))))))));
}
