// The board's listeners, all delegated to its root: an element with data-action performs
// it; a playable card or piece selects itself as the source; a control does its part; a
// part with a reason says why (tips.js); a pile opens (panel.js). Zones that are targets
// are role="button": Enter and Space click them, as for a real button.
import { sourceId } from "./board.js";

/** The view's state and parts: {ui, on, controls, menu, panel, tips, pace(), draw()}. */
export function listen(root, { ui, on, controls, menu, panel, tips, pace, draw }) {
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
    else if (el.dataset.action) on.act(el.dataset.action);
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
    if (menu.key(event) || panel.key(event)) {
      event.stopPropagation(); // the notebook's own shortcuts (arrows, Enter, Escape) must not act on it too
      return;
    }
    const el = event.target;
    if (event.key === "Escape") {
      if (tipBy) {
        tips.hide();
        tipBy = null;
      }
      if (ui.selected !== null && el.classList && el.classList.contains("kum-lit")) { // back to the chosen card, unchosen
        const source = ui.selected;
        on.select(source);
        root.querySelector(`[data-playable][data-card="${CSS.escape(source)}"], [data-playable][data-piece="${CSS.escape(source)}"]`)?.focus({ preventScroll: true });
        event.stopPropagation();
      }
      return;
    }
    if (event.key !== "Enter" && event.key !== " ") return;
    if (el.getAttribute && el.getAttribute("role") === "button" && (el.dataset.action || el.dataset.menu !== undefined)) {
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
