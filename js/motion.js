// Moves that happen: between two drawings of the board, which card or piece went where,
// what appeared, what changed face, which counter changed. Generic: a part is known by its
// id (data-key) and by what the viewer reads on it (data-sig, its faces' titles, "?" for a
// face the viewer cannot see), never by a game's words. Games whose ids are places ("hand 1
// 3", "zone 1 stack 0") still show their moves: a part that left one place and a part that
// reads the same (or could be it: a hidden face matches any) arriving elsewhere are one part.
//
// plan() compares the board on the page (snapshot(), taken before the update) with the
// fresh one; fly() animates the plan once the page holds the fresh board (FLIP with the Web
// Animations API, under 300 ms; nothing under prefers-reduced-motion).

const PARTS = "[data-card][data-key], [data-piece][data-key]";
const COUNTS = ".kum-counter[data-key], .kum-count[data-key]";
const FLY_MS = 260;
const MAX_FLYING = 24; // more than this moving at once (a new game, a long undo): no flight, just the board
const MAX_GHOSTS = 8;

function home(el) {
  const at = el.parentElement && el.parentElement.closest("[data-zone], [data-cell], [data-place]");
  if (!at) return "";
  return at.dataset.cell !== undefined ? `cell:${at.dataset.cell}` : at.dataset.place !== undefined ? `place:${at.dataset.place}` : `zone:${at.dataset.zone}`;
}

const inside = (el) => !el.closest("[data-transient]");

/** What is on the page now: each part's key, place and reading; each counter's text. (The
 * boxes of those that move are read by measure(), once the plan says which.) */
export function snapshot(root) {
  const parts = new Map();
  for (const el of root.querySelectorAll(PARTS)) {
    if (!inside(el) || parts.has(el.dataset.key)) continue;
    parts.set(el.dataset.key, { key: el.dataset.key, home: home(el), sig: el.dataset.sig || "", rect: null, el });
  }
  const counts = new Map();
  for (const el of root.querySelectorAll(COUNTS)) if (inside(el)) counts.set(el.dataset.key, el.textContent);
  return { parts, counts, box: null };
}

/** Read the boxes the flights start from (before the page is updated): only the parts that
 * move or leave, and not at all when nothing will fly. */
export function measure(root, before, p) {
  if (reducedMotion()) return;
  const going = p.pairs.filter((x) => x.moved || x.shifted).map((x) => x.from);
  // nothing to fly or fade: no box is read (a read may lay out the page before its update)
  if (going.length > MAX_FLYING || (!going.length && !p.vanished.length)) return;
  before.box = root.getBoundingClientRect();
  for (const o of [...going, ...p.vanished.slice(0, MAX_GHOSTS)]) o.rect = o.el.getBoundingClientRect();
}

/** Two readings could be one part: the same faces, a face the viewer cannot see ("?")
 * matching any; a reading of fewer faces (a pile's top showing one side) matches a card
 * that shows those faces among others (`loose`: or that hides a face, which could be it). */
function compatible(a, b, loose) {
  let x = a.split("|");
  let y = b.split("|");
  if (x.length > y.length) [x, y] = [y, x];
  if (x.length === y.length) return x.every((f, i) => f === "?" || y[i] === "?" || f === y[i]);
  return x.every((f) => f === "?" || y.includes(f) || (loose && y.includes("?")));
}

/** Match the fresh board's parts to the page's: [{key, from, moved, shifted, changed}], the
 * parts that appeared, the old parts that vanished, and the keys whose counter changed.
 * A part whose id is new is given a source first (an id that stays has its own: itself,
 * with a new face); then the same reading, the same id, a possible reading. */
export function plan(before, fresh) {
  const now = [];
  for (const el of fresh.querySelectorAll(PARTS)) if (inside(el)) now.push({ key: el.dataset.key, home: home(el), sig: el.dataset.sig || "", el });
  const free = new Map(before.parts); // old parts not yet matched
  const pairs = [];
  const take = (n, o) => {
    free.delete(o.key);
    pairs.push({ key: n.key, from: o, moved: o.home !== n.home, shifted: o.home === n.home && o.key !== n.key, changed: o.sig !== n.sig });
  };
  const pick = (n, ok) => {
    const fits = [...free.values()].filter((o) => ok(o));
    return fits.find((o) => o.key === n.key) || fits.find((o) => o.home === n.home) || fits[0];
  };
  let rest = [];
  for (const n of now) {
    const o = free.get(n.key);
    if (o && o.sig === n.sig) take(n, o);
    else rest.push(n);
  }
  const rules = [(n) => (o) => o.sig === n.sig, (n) => (o) => o.key === n.key,
    (n) => (o) => compatible(o.sig, n.sig, false), (n) => (o) => compatible(o.sig, n.sig, true)];
  const left = [];
  for (const group of [rest.filter((n) => !before.parts.has(n.key)), rest.filter((n) => before.parts.has(n.key))]) {
    for (const rule of rules) {
      const unmatched = [];
      for (const n of group) {
        const o = pick(n, rule(n));
        if (o) take(n, o);
        else unmatched.push(n);
      }
      group.splice(0, group.length, ...unmatched);
    }
    left.push(...group);
  }
  rest = left;
  const counts = [];
  for (const el of fresh.querySelectorAll(COUNTS)) {
    const was = before.counts.get(el.dataset.key);
    if (inside(el) && was !== undefined && was !== el.textContent) counts.push(el.dataset.key);
  }
  return { pairs, appeared: rest.map((n) => n.key), vanished: [...free.values()], counts };
}

/** The changed-since marks after this update: carried with their parts, and (when `mark`)
 * each part that arrived, appeared or changed face, and each counter that changed. */
export function marksAfter(marks, p, mark) {
  const next = new Set();
  for (const key of marks) if (!key.startsWith("card:") && !key.startsWith("piece:")) next.add(key); // counters, by their own keys
  for (const pair of p.pairs) {
    if (marks.has(pair.from.key) || (mark && (pair.moved || pair.changed))) next.add(pair.key);
  }
  if (mark) {
    for (const key of p.appeared) next.add(key);
    for (const key of p.counts) next.add(key);
  }
  return next;
}

export function reducedMotion() {
  return typeof matchMedia === "function" && matchMedia("(prefers-reduced-motion: reduce)").matches;
}

function byKey(root, key) {
  for (const el of root.querySelectorAll(`[data-key="${CSS.escape(key)}"]`)) if (inside(el)) return el;
  return null;
}

/** Animate the plan on the page: each part flies from its old box to its new one, what
 * appeared grows in, what vanished fades where it was. Call once the page holds the fresh
 * board, before it is painted (a requestAnimationFrame callback). */
export function fly(root, before, p) {
  if (reducedMotion() || typeof Element.prototype.animate !== "function") return;
  const going = p.pairs.filter((x) => x.moved || x.shifted);
  if (going.length > MAX_FLYING) return;
  // every box read before any flight is started: a read after a write would lay the page
  // out again, once for each part that flies
  const flights = [];
  for (const x of going) {
    const el = byKey(root, x.key);
    // (a transform inside a zoomed part, layout.css, moves by the zoom's share of its pixels)
    if (el) flights.push({ x, el, to: el.getBoundingClientRect(), zoom: el.currentCSSZoom || 1 });
  }
  for (const { x, el, to, zoom } of flights) {
    const from = x.from.rect;
    if (!from || !to.width || !from.width) continue;
    const dx = (from.left - to.left) / zoom;
    const dy = (from.top - to.top) / zoom;
    if (Math.abs(dx) < 1 && Math.abs(dy) < 1) continue;
    const scale = x.moved ? ` scale(${from.width / to.width}, ${from.height / to.height})` : "";
    el.classList.add("kum-flying");
    const a = el.animate([{ transform: `translate(${dx}px, ${dy}px)${scale}`, transformOrigin: "0 0" }, { transform: "none", transformOrigin: "0 0" }],
      { duration: FLY_MS, easing: "cubic-bezier(0.2, 0.7, 0.3, 1)" });
    a.onfinish = a.oncancel = () => el.classList.remove("kum-flying");
  }
  for (const key of p.appeared) {
    const el = byKey(root, key);
    if (el) el.animate([{ opacity: 0, transform: "scale(0.8)" }, { opacity: 1, transform: "none" }], { duration: FLY_MS - 40, easing: "ease-out" });
  }
  ghosts(root, before, p.vanished);
}

// A part that left the board fades where it was, so a trick taken or a card discarded is
// seen going. The old element itself is shown, stripped of its hooks (nothing to click or find).
function ghosts(root, before, vanished) {
  if (!before.box) return;
  for (const o of vanished.slice(0, MAX_GHOSTS)) {
    if (!o.rect || !o.rect.width || o.el.isConnected) continue;
    const el = o.el;
    for (const n of [el, ...el.querySelectorAll("*")]) {
      for (const a of [...n.attributes]) if (a.name.startsWith("data-") || ["id", "role", "tabindex", "aria-label"].includes(a.name)) n.removeAttribute(a.name);
    }
    const ghost = document.createElement("div");
    ghost.className = "kum-ghost";
    ghost.setAttribute("data-transient", "");
    ghost.setAttribute("aria-hidden", "true");
    ghost.inert = true;
    ghost.style.left = `${o.rect.left - before.box.left}px`;
    ghost.style.top = `${o.rect.top - before.box.top}px`;
    ghost.style.width = `${o.rect.width}px`;
    ghost.style.height = `${o.rect.height}px`;
    ghost.append(el);
    root.append(ghost);
    const a = ghost.animate([{ opacity: 0.9 }, { opacity: 0, transform: "scale(0.9)" }], { duration: FLY_MS + 40, easing: "ease-in" });
    a.onfinish = a.oncancel = () => ghost.remove();
  }
}
