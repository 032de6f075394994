// The parts of a board beyond cards: pieces (discs, chips, cubes, meeples, pawns), grids of
// cells and places that hold pieces, and what makes any part a click. Like the rest of the
// board they know no game: shapes, colours and texts come from the board description, and
// what is clickable from the legal actions (GAMES.md, "The board").
import { h } from "./dom.js";

const COLORS = new Set(["red", "orange", "gold", "green", "teal", "blue", "purple", "pink", "gray", "black"]);
const SHAPES = new Set(["disc", "chip", "cube", "meeple", "pawn"]);
const HEX = /^#[0-9a-fA-F]{6}$/;
const objects = (x) => (Array.isArray(x) ? x.filter((o) => o && typeof o === "object") : []); // a kernel's list, read warily

export function colorClass(color) {
  return typeof color === "string" && COLORS.has(color) ? ` kum-c-${color}` : "";
}

export function colorStyle(color) {
  return typeof color === "string" && HEX.test(color) ? `--kum-card-color: ${color}` : null;
}

/** A zone's, cell's or place's own colour (a board's frame, a square, a tile), apart from its cards' colour. */
export function tint(color) {
  if (typeof color !== "string") return null;
  if (COLORS.has(color)) return `--kum-zone-color: var(--kum-${color})`;
  return HEX.test(color) ? `--kum-zone-color: ${color}` : null;
}

export function badge(b, extra = "") {
  return h("span", { class: `kum-badge${colorClass(b.color)}${extra}`, title: b.title || null, style: colorStyle(b.color) }, String(b.text));
}

/** The actions of one click: several (or one with a menu entry of its own among others) open a menu.
 * One action: its text (what the player reads) and its id (what a click sends). */
export function clickOf(actions) {
  if (!actions || !actions.length) return null;
  return actions.length === 1 ? { action: actions[0].text, id: actions[0].id } : { menu: actions };
}

/** The data attributes of an element that performs `click`'s one action: data-action (its
 * text, the tests' hook) and data-action-id (the id the page sends). */
export function actionData(click) {
  return click?.action ? { action: click.action, actionId: click.id } : {};
}

export function menuLabel(actions) {
  return `Click to choose: ${actions.map((a) => a.choice || a.text).join(", ")}`;
}

/** A named part that is no click (a zone, a cell, a place): a group, so that a screen reader
 * says its name before what it holds (a name on a plain div is dropped). data-role keeps the
 * role to restore when a selection lights the part as a button and then lets it go. */
export function groupAttrs(label) {
  return label ? { role: "group", "aria-label": label, dataset: { role: "group" } } : {};
}

/** The attributes that make a part which is not a button (a zone, a cell, a place) a click on
 * `target`. `holds`: it holds a control of its own (a pile's opener): it is then a focusable
 * group, not a button (a button's content is flat: a control inside one cannot be reached). */
export function targetAttrs(click, target, label, ctx, focusable = true, holds = false) {
  if (!click) return groupAttrs(label);
  const attrs = { role: holds ? "group" : "button", tabindex: ctx.busy || !focusable ? "-1" : "0", "aria-disabled": ctx.busy ? "true" : null };
  if (click.action) return { ...attrs, "aria-label": `${label}. Click to ${click.action}`, dataset: actionData(click) };
  return { ...attrs, "aria-label": `${label}. ${menuLabel(click.menu)}`, "aria-haspopup": "menu", "aria-expanded": "false", dataset: { menu: target } };
}

export function pieceLabel(p) {
  const words = [COLORS.has(p.color) ? p.color : "", SHAPES.has(p.shape) ? p.shape : "disc"];
  if (p.text !== undefined && p.text !== null && p.text !== "") words.push(String(p.text));
  return (p.title ? String(p.title) : words.filter(Boolean).join(" ")) + (p.marked ? " (marked)" : "");
}

/** A piece: a shape in a colour with its text on it; a button when it is a click. */
export function piece(p, ctx) {
  const shape = SHAPES.has(p.shape) ? p.shape : "disc";
  const cls = `kum-piece kum-shape-${shape}${colorClass(p.color)}${p.marked ? " kum-marked" : ""}`;
  const label = pieceLabel(p);
  const inner = [
    h("span", { class: "kum-piece-shape", "aria-hidden": "true" }, h("span", { class: "kum-piece-body" })),
    p.text !== undefined && p.text !== null && p.text !== "" ? h("span", { class: "kum-piece-text", "aria-hidden": "true" }, String(p.text)) : null,
  ];
  const click = clickOf(ctx.legal.direct.get(p.id));
  const source = ctx.legal.bySource.has(p.id);
  // its identity across updates (key) and what the viewer reads on it (sig: see motion.js)
  const hooks = { piece: p.id, key: `piece:${p.id}`, label, sig: [shape, p.color, p.text].filter((x) => x !== undefined && x !== null && x !== "").join(" ") };
  if (!click && !source) {
    return h("span", { class: cls, role: "img", dataset: hooks, "aria-label": label, title: label, style: colorStyle(p.color) }, inner);
  }
  return h("button", {
    type: "button",
    class: `${cls}${click ? " kum-target" : ""}`,
    dataset: { ...hooks, ...actionData(click), ...(click?.menu ? { menu: p.id } : {}), ...(source ? { playable: "" } : {}) },
    "aria-label": click?.action ? `${label}. Click to ${click.action}` : click ? `${label}. ${menuLabel(click.menu)}` : `${label}. Click to choose where it goes`,
    "aria-pressed": source ? "false" : null,
    "aria-haspopup": click?.menu ? "menu" : null,
    "aria-expanded": click?.menu ? "false" : null,
    title: label,
    style: colorStyle(p.color),
    disabled: ctx.busy,
  }, inner);
}

function pieces(list, ctx) {
  return objects(list).map((p) => piece(p, ctx));
}

function partLabel(what, pcs) {
  const held = objects(pcs).map(pieceLabel);
  return held.length ? `${what}: ${held.join(", ")}` : `${what}: empty`;
}

/** The body of a "cells" zone: a rows x columns grid of squares (or round holes in a frame).
 * A cell is a click on its own id, or else on its group's (one target of several cells:
 * a column to drop a disc in); a group takes one stop in the tab order, its first cell. */
export function cellsBody(z, ctx) {
  const rows = Math.max(1, Math.min(26, Number(z.rows) || 1));
  const columns = Math.max(1, Math.min(26, Number(z.columns) || 1));
  const cells = objects(z.cells).filter((c) => Number.isInteger(c.row) && Number.isInteger(c.col))
    .slice().sort((a, b) => a.row - b.row || a.col - b.col); // reading order: the tab order too
  const stops = new Set();
  const parts = cells.map((c) => {
    const own = ctx.legal.direct.get(c.id);
    const target = own ? c.id : c.group;
    const click = clickOf(own || (c.group ? ctx.legal.direct.get(c.group) : null));
    const first = !click || own || !stops.has(c.group);
    if (click && !own) stops.add(c.group);
    const where = c.label || c.title || `row ${c.row + 1}, column ${c.col + 1}`;
    const label = partLabel(where, c.pieces);
    const attrs = targetAttrs(click, target, label, ctx, first);
    return h("div", {
      ...attrs,
      class: `kum-cell${click ? " kum-target" : ""}${c.marked ? " kum-marked" : ""}${c.color ? " kum-tinted" : ""}${ctx.last === c.id ? " kum-last" : ""}`,
      dataset: { cell: c.id, key: `cell:${c.id}`, label, ...(c.group ? { group: c.group } : {}), ...(attrs.dataset || {}) },
      title: c.title || null,
      style: [`grid-row: ${c.row + 1}`, `grid-column: ${c.col + 1}`, tint(c.color)].filter(Boolean).join("; "),
    },
    c.label ? h("span", { class: "kum-cell-label", "aria-hidden": "true" }, c.label) : null,
    h("span", { class: "kum-cell-pieces" }, pieces(c.pieces, ctx)));
  });
  return h("div", { class: "kum-cells", style: `--kum-rows: ${rows}; --kum-cols: ${columns}` }, parts);
}

/** The body of a "places" zone: tiles (worker placement's action spaces), each with its
 * label, its text, and a slot per unit of capacity, filled by the pieces on it. */
export function placesBody(z, ctx) {
  return h("div", { class: "kum-places", style: z.columns ? `--kum-columns: ${Number(z.columns)}` : null }, objects(z.places).map((p) => {
    const held = objects(p.pieces);
    const cap = Number.isInteger(p.capacity) ? p.capacity : null;
    const full = cap !== null && held.length >= cap;
    const room = cap === null ? "" : `, ${held.length} of ${cap}${full ? ", full" : ""}`;
    const label = partLabel(`${p.label || p.id}${p.text ? ` (${p.text})` : ""}${room}`, held);
    const click = clickOf(ctx.legal.direct.get(p.id));
    const attrs = targetAttrs(click, p.id, label, ctx);
    const slots = cap === null ? pieces(held, ctx)
      : [...pieces(held, ctx), ...Array.from({ length: Math.max(0, cap - held.length) }, () => h("span", { class: "kum-slot", "aria-hidden": "true" }))];
    return h("div", {
      ...attrs,
      class: `kum-place${click ? " kum-target" : ""}${full ? " kum-full" : ""}${p.marked ? " kum-marked" : ""}${p.color ? " kum-tinted" : ""}${ctx.last === p.id ? " kum-last" : ""}`,
      dataset: { place: p.id, key: `place:${p.id}`, label, ...(attrs.dataset || {}) },
      title: p.title || null,
      style: tint(p.color),
    },
    h("div", { class: "kum-place-head" },
      p.glyph ? h("span", { class: "kum-glyph", "aria-hidden": "true" }, p.glyph) : null,
      h("span", { class: "kum-place-label" }, p.label || p.id),
      cap !== null ? h("span", { class: "kum-place-room", "aria-hidden": "true" }, `${held.length}/${cap}`) : null),
    p.text ? h("div", { class: "kum-place-text" }, p.text) : null,
    h("div", { class: "kum-slots" }, slots));
  }));
}

export { pieces };
