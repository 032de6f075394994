// The board's listeners, all delegated to its root: an element with data-action performs
// that action (the page sends its data-action-id); a playable card or piece selects itself as the source; a control does its part; a
// part with a reason says why (tips.js); a pile opens (panel.js). Zones that are targets
// are role="button" (or a focusable group when they hold a control): Enter and Space click them, as for a real button.
import { sourceId } from "./board.js";

// a letter typed there is the reader's, not a key of the board's (a checkbox takes no letters)
const TYPED = "input:not([type=checkbox], [type=radio], [type=button], [type=submit], [type=range]), select, textarea, [contenteditable]";

/** The view's state and parts: {ui, on, controls, menu, panel, tips, keys: {hand(), leave()}, pace(), draw()}. */
export function listen(root, { ui, on, controls, menu, panel, tips, keys, pace, draw }) {
  let tipBy = null; // what showed the reason: "pointer", "focus" or "click"
  // Where the pointer rests when the board is drawn again: a part that arrives under a
  // pointer that has not moved (the board changed beneath it) does not pop up its reason.
  let point = null;
  let resting = null;
  root.addEventListener("pointermove", (event) => {
    point = [event.clientX, event.clientY];
    if (resting !== null && (point[0] !== resting[0] || point[1] !== resting[1])) {
      resting = null;
      pointed(event); // the first move after a redraw: what is under the pointer now is pointed at
    }
  });
  root.addEventListener("kum-rendered", () => { resting = point; });

  function activate(el, byKeyboard) {
    if (!el || el.disabled || el.getAttribute("aria-disabled") === "true") return;
    if (el.dataset.control) return controls[el.dataset.control]?.(el);
    if (el.dataset.menu !== undefined) on.menu(el);
    else if (el.dataset.action) on.act(el.dataset.actionId);
    else if (el.dataset.playable !== undefined) on.select(sourceId(el), byKeyboard);
  }
  root.addEventListener("click", (event) => {
    if (event.target.closest(".kum-panel-close")) return panel.close(true);
    const el = event.target.closest("[data-action], [data-menu], [data-playable], button");
    if (el && root.contains(el)) {
      if (tipBy === "click") tips.hide();
      // by keyboard: a click with no pointer on the focused element (a script's click() is not)
      return activate(el, event.detail === 0 && (root.getRootNode().activeElement || document.activeElement) === el);
    }
    const why = event.target.closest("[data-why]");
    if (why && !why.closest("[data-transient]")) {
      tips.show(why); // the reason, and nothing sent
      tipBy = "click";
      return;
    }
    if (tipBy === "click") tips.hide();
    const pile = event.target.closest("[data-openable]");
    const opener = pile && !pile.closest("[data-transient]") ? root.querySelector(`[data-key="open:${CSS.escape(pile.dataset.zone)}"]`) : null;
    if (opener) controls.pile(opener);
  });
  root.addEventListener("submit", (event) => {
    const form = event.target;
    if (!form.dataset || form.dataset.form !== "new-game") return;
    event.preventDefault();
    const seed = form.querySelector(".kum-seed").value.trim();
    const bots = form.querySelector(".kum-bot-select");
    ui.newGame = false;
    on.send({ kind: "new_game", seed: seed === "" ? null : Number.parseInt(seed, 10), ...(bots && bots.value ? { bot: bots.value } : {}) });
  });
  root.addEventListener("change", (event) => {
    const control = event.target.dataset && event.target.dataset.control;
    if (control === "thinking") {
      ui.thinking = event.target.checked;
      draw();
    } else if (control === "pace") {
      const value = event.target.value;
      if (ui.pending) event.target.value = pace(); // one message at a time: as it was
      else on.send({ kind: "pace", value });
    }
  });
  root.addEventListener("keydown", (event) => {
    // A plain key pressed in the board is the board's: a host's own handlers on the page around
    // it (marimo's command keys) never see it. (JupyterLab's and Notebook 7's, which listen
    // before the board, are kept out by the root's data-lm-suppress-shortcuts.)
    if (!event.ctrlKey && !event.metaKey && !event.altKey && event.key !== "Tab") event.stopPropagation();
    if (menu.key(event) || panel.key(event)) return;
    const el = event.target;
    const typed = el.closest && el.closest(TYPED);
    if (event.key === "Escape") {
      const tip = tipBy;
      if (tipBy) {
        tips.hide();
        tipBy = null;
      }
      if (ui.selected !== null) { // a choice, by key or by mouse: taken back, the focus on the chosen card
        const source = ui.selected;
        on.select(source);
        root.querySelector(`[data-playable][data-card="${CSS.escape(source)}"], [data-playable][data-piece="${CSS.escape(source)}"]`)?.focus({ preventScroll: true });
      } else if (ui.introOpen && el.closest && el.closest('[data-key="intro"]')) controls["intro-close"]();
      else if (ui.newGame && typed) controls["new-game"]();
      else if (tip !== "click") keys.leave(); // nothing to take back: out of the board (no keyboard trap)
      return;
    }
    if ((event.key === "h" || event.key === "H") && !typed && !event.ctrlKey && !event.metaKey && !event.altKey) {
      event.preventDefault();
      keys.hand();
      return;
    }
    if (event.key !== "Enter" && event.key !== " ") return;
    // a part that is a click (role button, or a focusable group holding a control of its own)
    if (el.getAttribute && el.tagName !== "BUTTON" && ["button", "group"].includes(el.getAttribute("role")) && (el.dataset.action || el.dataset.menu !== undefined)) {
      event.preventDefault();
      activate(el, true);
    } else if (el.dataset && el.dataset.why && el.tagName !== "BUTTON") {
      event.preventDefault();
      tips.show(el);
      tipBy = "click";
    }
  });
  // A group of cells is one target: pointing at one of its cells lights them all (a column).
  const hover = (event) => {
    const el = event.target.closest ? event.target.closest("[data-group]") : null;
    const group = el && (el.dataset.action || el.dataset.menu !== undefined) ? el.dataset.group : null;
    ui.hoverGroup = group;
    for (const other of root.querySelectorAll(".kum-hover")) if (other.dataset.group !== group) other.classList.remove("kum-hover");
    if (group) for (const other of root.querySelectorAll(`[data-group="${CSS.escape(group)}"]`)) other.classList.add("kum-hover");
  };
  root.addEventListener("pointerover", (event) => {
    hover(event);
    pointed(event);
  });
  function pointed(event) {
    const why = event.target.closest ? event.target.closest("[data-why]") : null;
    const still = resting !== null && event.clientX === resting[0] && event.clientY === resting[1];
    if (why && still && !tips.isShownOn(why)) {
      if (tipBy === "pointer") {
        tips.hide();
        tipBy = null;
      }
    } else if (why && !why.closest("[data-transient]") && !why.closest("[data-action], [data-menu], [data-playable]")) {
      const clicked = tipBy === "click" && tips.isShownOn(why); // shown by a click: it stays until the next
      if (!tips.isShownOn(why)) tips.show(why);
      tipBy = clicked ? "click" : "pointer";
    } else if (tipBy === "pointer") {
      tips.hide();
      tipBy = null;
    }
  }
  root.addEventListener("focusin", (event) => {
    // Lumino (JupyterLab, Notebook 7) matches a shortcut's selector from the key's target up and
    // stops at data-lm-suppress-shortcuts: Notebook 7's "...commandMode :focus" matches the
    // focused part itself, before the root's mark is reached, so the part carries it too.
    if (event.target !== root && event.target.setAttribute) event.target.setAttribute("data-lm-suppress-shortcuts", "true");
    hover(event);
    const why = event.target.dataset && event.target.dataset.why ? event.target : null;
    if (why) {
      tips.show(why);
      tipBy = "focus";
    }
  });
  root.addEventListener("focusout", () => {
    if (tipBy === "focus") {
      tips.hide();
      tipBy = null;
    }
  });
  root.addEventListener("pointerleave", () => {
    ui.hoverGroup = null;
    for (const e of root.querySelectorAll(".kum-hover")) e.classList.remove("kum-hover");
    if (tipBy === "pointer") {
      tips.hide();
      tipBy = null;
    }
  });
}
