// A pile opened: the cards of a stack or a pile that the board description lists (what the
// seat may see), side by side in a panel, readable however tightly the pile is drawn.
// role="dialog"; Escape or its Close button closes it and the focus goes back to what opened
// it; a click elsewhere closes it too. While open it follows the board: an update redraws
// its cards, and it closes if its pile is gone.
import { h } from "./dom.js";

const GAP = 6;

/** The zone `id` in a board description (its zones, its seats' zones, their sub-zones). */
export function findZone(board, id) {
  const walk = (zones) => {
    for (const z of Array.isArray(zones) ? zones : []) {
      if (!z || typeof z !== "object") continue;
      if (z.id === id) return z;
      const inner = walk(z.zones);
      if (inner) return inner;
    }
    return null;
  };
  if (!board) return null;
  return walk(board.zones) || (Array.isArray(board.seats) ? board.seats.map((s) => walk(s && s.zones)).find(Boolean) : null) || null;
}

// The panel's cards are pictures: the board's card drawing without its hooks (no click, no
// id a test or a move could mistake for the board's own card).
function picture(el, id) {
  for (const n of [el, ...el.querySelectorAll("*")]) {
    for (const a of [...n.attributes]) if (a.name.startsWith("data-") || a.name === "tabindex") n.removeAttribute(a.name);
  }
  el.setAttribute("role", "listitem");
  el.dataset.panelCard = id;
  return el;
}

export function createPanel(root, drawCard) {
  let open = null; // {el, opener key, zone id}
  const floating = typeof HTMLElement.prototype.showPopover === "function";

  function onOutside(event) {
    const path = event.composedPath ? event.composedPath() : [event.target]; // (inside a shadow root the target is its host)
    if (!open || path.includes(open.el)) return;
    const opener = root.querySelector(`[data-key="${CSS.escape(open.key)}"]`);
    if (opener && path.includes(opener)) return; // its opener's click toggles it
    close(false);
  }

  function fill(el, z) {
    const cards = (z.cards || []).filter((c) => c && typeof c === "object");
    const hidden = typeof z.count === "number" && z.count > cards.length ? z.count - cards.length : 0;
    const name = z.label || z.id;
    el.setAttribute("aria-label", `${name}: ${cards.length} card${cards.length === 1 ? "" : "s"}`);
    el.replaceChildren(
      h("div", { class: "kum-panel-head" },
        h("strong", {}, name),
        h("span", { class: "kum-muted" }, `${cards.length} card${cards.length === 1 ? "" : "s"}${hidden ? `, and ${hidden} face down` : ""}, the last on top`),
        h("button", { type: "button", class: "kum-panel-close", dataset: { panel: "close" }, "aria-label": "Close" }, "Close")),
      h("div", { class: "kum-panel-cards", role: "list" }, cards.map((c) => picture(drawCard(c), String(c.id)))),
    );
  }

  function place(el, opener) {
    const o = opener.getBoundingClientRect();
    const box = floating ? { top: 0, left: 0, width: window.innerWidth, height: window.innerHeight } : root.getBoundingClientRect();
    let top = o.bottom + GAP;
    if (top + el.offsetHeight > box.top + box.height) top = Math.max(box.top, box.top + box.height - el.offsetHeight);
    el.style.top = `${Math.round(top - box.top)}px`;
    el.style.left = `${Math.round(Math.max(0, Math.min(o.left - box.left, box.width - el.offsetWidth)))}px`;
  }

  /** Open the cards of zone `z` from `opener` (its count button). */
  function show(opener, z) {
    close(false);
    const el = h("div", { class: `kum-panel${floating ? " kum-floating" : ""}`, role: "dialog", "aria-modal": "false",
      popover: floating ? "manual" : null, dataset: { transient: "", pile: z.id } });
    fill(el, z);
    root.append(el);
    if (floating) el.showPopover();
    place(el, opener);
    open = { el, key: opener.dataset.key, zone: z.id };
    opener.setAttribute("aria-expanded", "true");
    document.addEventListener("pointerdown", onOutside, true);
    el.querySelector(".kum-panel-close").focus({ preventScroll: true });
  }

  function close(refocus) {
    if (!open) return;
    const { el, key } = open;
    open = null;
    document.removeEventListener("pointerdown", onOutside, true);
    el.remove();
    const opener = root.querySelector(`[data-key="${CSS.escape(key)}"]`);
    if (opener) opener.setAttribute("aria-expanded", "false");
    if (refocus && opener) opener.focus({ preventScroll: true });
  }

  /** After an update: the pile's cards again, or closed if it is gone. */
  function refresh(board) {
    if (!open) return;
    const z = findZone(board, open.zone);
    const opener = root.querySelector(`[data-key="${CSS.escape(open.key)}"]`);
    if (!z || !opener) return close(false);
    const focused = open.el.contains(root.getRootNode().activeElement || document.activeElement);
    fill(open.el, z);
    opener.setAttribute("aria-expanded", "true");
    place(open.el, opener);
    if (focused) open.el.querySelector(".kum-panel-close").focus({ preventScroll: true });
  }

  /** Keys in the panel: Escape closes it (true: handled). */
  function key(event) {
    if (!open || event.key !== "Escape") return false;
    if (!open.el.contains(event.target)) return false;
    event.preventDefault();
    close(true);
    return true;
  }

  return { show, close, refresh, key, isOpen: () => Boolean(open), isOpenOn: (el) => Boolean(open && el.dataset.key === open.key), element: () => open && open.el };
}
