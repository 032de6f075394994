// A keyed update: the board is still described afresh at every change (h() is cheap), but
// the fresh tree is laid over the one on the page, so that only what changed is touched.
// An element keeps its identity when its data-key (or, without one, its tag at its place
// among its siblings) is the same: so a typed seed, the focus, a <details> the reader
// closed, a live region and a running animation survive every update.
//
// Left alone: children marked data-transient (menus, panels, tooltips, ghosts the view
// adds on its own), and what the reader owns on a kept element: `open` on <details>, the
// value and checkedness of form fields (those are properties; only the attributes are
// synced here).

const OWNED = { DETAILS: ["open"], INPUT: ["value", "checked"], SELECT: [], OPTION: ["selected"] };
// set by the view on what takes the focus (events.js), on any element: a redraw keeps it
const MARKS = ["data-lm-suppress-shortcuts"];

const keyOf = (n) => (n.nodeType === 1 ? n.getAttribute("data-key") : null);
const transient = (n) => n.nodeType === 1 && n.hasAttribute("data-transient");

function syncAttributes(old, next) {
  const owned = [...(OWNED[old.nodeName] || []), ...MARKS];
  for (const a of [...old.attributes]) {
    if (!next.hasAttribute(a.name) && !owned.includes(a.name)) old.removeAttribute(a.name);
  }
  for (const a of next.attributes) {
    if (owned.includes(a.name)) continue;
    if (old.getAttribute(a.name) !== a.value) old.setAttribute(a.name, a.value);
  }
}

function morphNode(old, next) {
  if (old.nodeType !== 1) {
    if (old.nodeValue !== next.nodeValue) old.nodeValue = next.nodeValue;
    return;
  }
  if (old.isEqualNode(next)) return; // the same (the browser compares, fast): most of a board, most of the time
  syncAttributes(old, next);
  morphChildren(old, [...next.childNodes]);
}

/** Make `parent`'s children look like `next` (fresh nodes), reusing what matches. */
export function morphChildren(parent, next) {
  const old = [...parent.childNodes].filter((n) => !transient(n));
  const keyed = new Map();
  const loose = [];
  for (const n of old) {
    const k = keyOf(n);
    if (k !== null && !keyed.has(k)) keyed.set(k, n);
    else loose.push(n);
  }
  // First match every new node, then drop what is left, then place: a kept node is never
  // moved only because a dropped one sat before it (moving a node takes its focus away).
  const used = new Set();
  let scan = 0;
  const pairs = next.map((n) => {
    const k = keyOf(n);
    let match = null;
    if (k !== null) {
      const o = keyed.get(k);
      if (o && o.nodeName === n.nodeName && !used.has(o)) match = o;
    } else {
      for (let j = scan; j < loose.length; j++) {
        const o = loose[j];
        if (!used.has(o) && o.nodeType === n.nodeType && o.nodeName === n.nodeName && keyOf(o) === null) {
          match = o;
          scan = j + 1;
          break;
        }
      }
    }
    if (match) used.add(match);
    return [n, match];
  });
  for (const o of old) if (!used.has(o)) o.remove();
  let prev = null;
  for (const [n, match] of pairs) {
    const node = match || n;
    if (match) morphNode(match, n);
    let ref = prev ? prev.nextSibling : parent.firstChild;
    while (ref && transient(ref)) ref = ref.nextSibling;
    if (ref !== node) parent.insertBefore(node, ref);
    prev = node;
  }
}
