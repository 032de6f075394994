// The menu a click opens when several legal actions share it (one source and one target):
// one entry per action, its `choice` text (or the action's own), each entry an element
// with data-action, so picking it is an ordinary click (widget.js's delegated listener).
// Keyboard: focus moves into the menu; arrows, Home and End move it; Enter or Space picks;
// Escape closes, and focus goes back to what was clicked. A click anywhere else closes it.
import { h } from "./dom.js";

const TALL = 160; // an opener taller than this (a column, a big zone) gets the menu over its top, not below it
const GAP = 4;

export function createMenu(root) {
  let open = null; // {el, opener, key}

  function onOutside(event) {
    // the event's path, not its target: inside a shadow root (marimo) the document sees the host
    const path = event.composedPath ? event.composedPath() : [event.target];
    if (!open || path.includes(open.el) || path.includes(open.opener)) return; // the opener's own click toggles it
    close(false);
  }

  function onMove() {
    if (open) place(open.el, open.opener);
  }

  function close(refocus) {
    if (!open) return;
    const { el, opener } = open;
    open = null;
    document.removeEventListener("pointerdown", onOutside, true);
    window.removeEventListener("scroll", onMove, true);
    window.removeEventListener("resize", onMove);
    el.remove();
    if (opener.isConnected) opener.setAttribute("aria-expanded", "false");
    if (refocus && opener.isConnected) opener.focus({ preventScroll: true });
  }

  /** Open the menu of `actions` on `opener`, focus on entry `index` (or none: `focus` false). */
  function show(opener, actions, { index = 0, focus = true } = {}) {
    close(false);
    const label = (opener.dataset.label || opener.dataset.menu || "").slice(0, 80);
    const items = actions.map((a) => h("button", {
      type: "button", role: "menuitem", tabindex: "-1", class: "kum-menu-item", dataset: { action: a.text, actionId: a.id },
    }, a.choice || a.text));
    // A popover is drawn in the top layer: no notebook output area (an overflow: hidden box) cuts it
    // off, though it stays in the board's DOM (its clicks, keys and styles are the board's).
    const floating = typeof HTMLElement.prototype.showPopover === "function";
    const el = h("div", { class: `kum-menu${floating ? " kum-floating" : ""}`, role: "menu", popover: floating ? "manual" : null,
      "aria-label": label ? `Choose: ${label}` : "Choose", dataset: { transient: "" } }, items); // transient: the board's updates leave it alone
    root.append(el);
    if (floating) el.showPopover();
    place(el, opener);
    opener.setAttribute("aria-expanded", "true");
    open = { el, opener, key: opener.dataset.key };
    document.addEventListener("pointerdown", onOutside, true);
    window.addEventListener("scroll", onMove, true); // any scrolling box: a floating menu follows its opener
    window.addEventListener("resize", onMove);
    const at = items[Math.max(0, Math.min(items.length - 1, index))];
    at.tabIndex = 0;
    if (focus) at.focus({ preventScroll: true });
  }

  /** Below the opener (over the top of a tall one); above it when there is no room below.
   * A floating menu is placed in the window, else in the board. */
  function place(el, opener) {
    const o = opener.getBoundingClientRect();
    const box = el.classList.contains("kum-floating") ? { top: 0, left: 0, width: window.innerWidth, height: window.innerHeight }
      : root.getBoundingClientRect();
    let top = o.height > TALL ? o.top + 24 : o.bottom + GAP;
    if (top + el.offsetHeight > box.top + box.height && o.top - GAP - el.offsetHeight >= box.top) top = o.top - GAP - el.offsetHeight;
    el.style.top = `${Math.round(top - box.top)}px`;
    el.style.left = `${Math.round(Math.max(0, Math.min(o.left - box.left, box.width - el.offsetWidth)))}px`;
  }

  /** Keys inside the open menu; true when handled (the host's own shortcuts must not see them). */
  function key(event) {
    if (!open || !open.el.contains(event.target)) return false;
    const items = [...open.el.querySelectorAll(".kum-menu-item")];
    const now = items.indexOf(event.target);
    const to = { ArrowDown: now + 1, ArrowUp: now - 1, Home: 0, End: items.length - 1 }[event.key];
    if (to !== undefined) {
      const next = items[(to + items.length) % items.length];
      for (const item of items) item.tabIndex = item === next ? 0 : -1;
      next.focus({ preventScroll: true });
    } else if (event.key === "Escape") {
      close(true);
    } else if (event.key === "Tab") {
      close(true); // and the Tab goes on from what was clicked
      return false;
    } else {
      return event.key === "Enter" || event.key === " "; // the entry's own click follows; nothing else sees the key
    }
    event.preventDefault();
    return true;
  }

  /** What to open again after the board is rebuilt: the opener's key and the focused entry. */
  function remember() {
    if (!open) return null;
    const items = [...open.el.querySelectorAll(".kum-menu-item")];
    const active = root.getRootNode().activeElement || document.activeElement; // inside a shadow root too (marimo)
    const kept = { key: open.key, texts: items.map((i) => i.dataset.action), index: Math.max(0, items.indexOf(active)), focused: open.el.contains(active) };
    close(false);
    return kept;
  }

  return { show, close, key, remember, isOpenOn: (el) => Boolean(open && open.opener === el) };
}
