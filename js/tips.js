// Why not: a part the player may not use now says why, in the game's words (the `why_not`
// trait: part id -> the reason the session gives), when it is pointed at, focused or
// clicked. Nothing is sent: the reason is shown beside the part and said once through the
// board's live region. A part with a reason is focusable, so a keyboard reaches it too.
import { h } from "./dom.js";

const KINDS = ["card", "piece", "zone", "cell", "place"];
const GAP = 6;

/** Mark the parts of `root` that have a reason (and no action of their own). */
export function decorateWhy(root, m) {
  const why = m.why_not;
  if (!why || typeof why !== "object" || Array.isArray(why)) return;
  const entries = Object.entries(why).filter(([, reason]) => typeof reason === "string" && reason);
  if (!entries.length) return;
  const byId = new Map(); // one pass over the board, not one search per reason
  for (const el of root.querySelectorAll(KINDS.map((k) => `[data-${k}]`).join(", "))) {
    for (const k of KINDS) {
      const id = el.dataset[k];
      if (id !== undefined) (byId.get(id) || byId.set(id, []).get(id)).push(el);
    }
  }
  for (const [id, reason] of entries) {
    for (const el of byId.get(id) || []) {
      if (el.dataset.action || el.dataset.menu !== undefined || el.dataset.playable !== undefined) continue; // it is a click
      el.dataset.why = reason;
      el.classList.add("kum-why");
      if (el.tagName !== "BUTTON" && !el.hasAttribute("tabindex")) el.setAttribute("tabindex", "0");
    }
  }
}

/** The tooltip: one per board, drawn in the top layer where the browser can (no output
 * area cuts it off), else inside the board. `say(text)` speaks through the live region. */
export function createTips(root, say) {
  let shown = null; // the part whose reason is shown
  const floating = typeof HTMLElement.prototype.showPopover === "function";
  const tip = h("div", { class: `kum-tip${floating ? " kum-floating" : ""}`, role: "tooltip", id: `kum-tip-${Math.random().toString(36).slice(2, 9)}`,
    popover: floating ? "manual" : null, hidden: floating ? null : true, dataset: { transient: "" } });

  function place(el) {
    const o = el.getBoundingClientRect();
    const box = floating ? { top: 0, left: 0, width: window.innerWidth, height: window.innerHeight } : root.getBoundingClientRect();
    let top = o.bottom + GAP;
    if (top + tip.offsetHeight > box.top + box.height && o.top - GAP - tip.offsetHeight >= box.top) top = o.top - GAP - tip.offsetHeight;
    tip.style.top = `${Math.round(top - box.top)}px`;
    tip.style.left = `${Math.round(Math.max(0, Math.min(o.left - box.left, box.width - tip.offsetWidth)))}px`;
  }

  function show(el) {
    const reason = el && el.dataset.why;
    if (!reason) return hide();
    if (!tip.isConnected) root.append(tip);
    const again = shown === el && tip.textContent === reason;
    shown = el;
    tip.textContent = reason;
    if (floating && !tip.matches(":popover-open")) tip.showPopover();
    if (!floating) tip.hidden = false;
    el.setAttribute("aria-describedby", tip.id);
    place(el);
    if (!again) say(reason);
  }

  function hide() {
    if (shown && shown.isConnected) shown.removeAttribute("aria-describedby");
    shown = null;
    if (floating && tip.isConnected && tip.matches(":popover-open")) tip.hidePopover();
    if (!floating) tip.hidden = true;
  }

  /** After an update: the part may have lost its reason, or left the board. */
  function refresh() {
    if (!shown) return;
    if (!shown.isConnected || !shown.dataset.why) hide();
    else show(shown);
  }

  return { show, hide, refresh, isShownOn: (el) => shown === el, element: tip };
}
