// The board, for any game. It knows no game: zones, cards, pieces, cells, places, counters
// and badges come from the board description the kernel sends (GAMES.md, "The board");
// what is clickable comes only from the legal actions, each naming the ids it is clicked on.
// describeBoard() draws it afresh from the traits; buildBoard() lays that over the page's
// board (keyed.js), so only what changed is touched. Every part carries data-key (its
// identity across updates) and a card or piece data-sig (what the viewer reads on it: the
// moves between two drawings are found from these, motion.js).
import { h } from "./dom.js";
import { banner, helpPanel, offers, tools } from "./guide.js";
import { morphChildren } from "./keyed.js";
import { actionData, badge, cellsBody, clickOf, colorClass, colorStyle, groupAttrs, menuLabel, pieces, placesBody, targetAttrs, tint } from "./parts.js";
import { decorateThinking, thinkingList } from "./thinking.js";
import { decorateWhy } from "./tips.js";

const LAYOUTS = new Set(["row", "grid", "pile", "stack", "hand", "cells", "places"]);
const SIZES = new Set(["small", "large"]);
const text = (x) => (x === undefined || x === null ? "" : String(x));

/** Index the legal actions: clicked on a target alone, from a source to a target, or buttons.
 * Actions that share one click (one source and target) are kept together: a menu offers them. */
export function indexLegal(legal) {
  const direct = new Map();
  const bySource = new Map();
  const buttons = [];
  const add = (map, key, a) => (map.has(key) ? map.get(key).push(a) : map.set(key, [a]));
  for (const a of legal?.actions || []) {
    if (a.source && a.target) {
      if (!bySource.has(a.source)) bySource.set(a.source, new Map());
      add(bySource.get(a.source), a.target, a);
    } else if (a.target) add(direct, a.target, a);
    else buttons.push(a);
  }
  return { direct, bySource, buttons };
}

function counter(c, scope) {
  const value = c.max !== undefined && c.max !== null ? `${c.value}/${c.max}` : String(c.value);
  return h("span", { class: "kum-counter", title: c.title || null, dataset: { key: `counter:${scope}:${text(c.label)}` } },
    h("span", { class: "kum-counter-label" }, c.label), h("strong", {}, value));
}

function faceTitle(f) {
  if (!f) return "";
  if (f.hidden) return f.tooltip || "hidden";
  return f.tooltip || [f.title, f.value].filter((x) => x !== undefined && x !== null).join(" ");
}

/** What the viewer reads on a card, face by face ("?" for a face it cannot see): the same
 * card, wherever its id puts it, reads the same. Tooltips and texts are left out (they may
 * say how the card stands now, not what it is). */
export function cardSig(c) {
  if (c.down) return "?";
  const read = (f) => [f.title, f.value, f.glyph, ...(Array.isArray(f.fields) ? f.fields.map((x) => x && `${text(x.label)} ${text(x.value)}`) : [])]
    .filter((x) => text(x) !== "").join(" ");
  return (c.faces || []).slice(0, 2).map((f) => (!f || f.hidden ? "?" : read(f))).join("|");
}

function face(f, main) {
  if (!f || f.hidden) return h("span", { class: `kum-face kum-face-hidden${main ? " kum-face-main" : ""}`, title: faceTitle(f) }, "?");
  const fields = (f.fields || []).map((x) => h("span", { class: "kum-field", title: `${x.label} ${x.value}` }, x.short || `${x.label} ${x.value}`));
  const tags = (f.tags || []).map((t) => badge(t, " kum-tag"));
  return h(
    "span",
    { class: `kum-face${main ? " kum-face-main" : " kum-face-second"}${colorClass(f.color)}`, style: colorStyle(f.color), title: faceTitle(f) },
    main && f.glyph ? h("span", { class: "kum-glyph", "aria-hidden": "true" }, f.glyph) : null,
    f.value !== undefined && f.value !== null ? h("span", { class: "kum-value" }, String(f.value)) : null,
    f.title ? h("span", { class: "kum-face-title" }, f.title) : null,
    !main && f.glyph ? h("span", { class: "kum-glyph", "aria-hidden": "true" }, f.glyph) : null,
    fields.length ? h("span", { class: "kum-fields" }, fields) : null,
    tags.length ? h("span", { class: "kum-tags" }, tags) : null,
    f.text ? h("span", { class: "kum-face-text" }, f.text) : null,
  );
}

function cardLabel(c) {
  if (c.down) return "a face-down card";
  return (c.faces || []).map(faceTitle).filter(Boolean).join("; ") || c.id;
}

/** A card: a button when it is a click (a source to select, or a target on its own). */
export function card(c, ctx) {
  const faces = c.down ? [h("span", { class: "kum-back", "aria-hidden": "true" })] : (c.faces || []).slice(0, 2).map((f, i) => face(f, i === 0));
  const first = (c.faces || [])[0] || {};
  const cls = `kum-card${c.down ? " kum-down" : ""}${c.marked ? " kum-marked" : ""}${colorClass(first.color)}`;
  const label = cardLabel(c) + (c.title ? `. ${c.title}` : "");
  const click = clickOf(ctx.legal.direct.get(c.id));
  const action = click?.action;
  const source = ctx.legal.bySource.has(c.id);
  const hooks = { card: c.id, key: `card:${c.id}`, label, sig: cardSig(c) };
  if (!click && !source) { // a picture with its name (role "img": a name on a plain div is dropped)
    return h("div", { class: cls, role: "img", dataset: { ...hooks, role: "img" }, "aria-label": label, title: c.title || null, style: colorStyle(first.color) }, faces);
  }
  return h(
    "button",
    {
      type: "button",
      class: `${cls}${click ? " kum-target" : ""}`,
      dataset: { ...hooks, ...actionData(click), ...(click?.menu ? { menu: c.id } : {}), ...(source ? { playable: "" } : {}) },
      "aria-label": action ? `${label}. Click to ${action}` : click ? `${label}. ${menuLabel(click.menu)}` : `${label}. Click to choose where it goes`,
      "aria-pressed": source ? "false" : null,
      "aria-haspopup": click?.menu ? "menu" : null,
      "aria-expanded": click?.menu ? "false" : null,
      title: c.title || null,
      style: colorStyle(first.color),
      disabled: ctx.busy,
    },
    faces,
  );
}

/** A pile or a stack whose cards may be opened in a panel (panel.js): two cards or more listed. */
export function openable(z) {
  return (z.layout === "stack" || z.layout === "pile") && (z.cards || []).length >= 2;
}

/** A zone: its label, badges and counters, then its cards, pieces and sub-zones (or its
 * grid of cells, or its places). */
function zone(z, ctx) {
  const layout = LAYOUTS.has(z.layout) ? z.layout : "row";
  const cards = (z.cards || []).map((c) => card(c, ctx));
  const held = pieces(z.pieces, ctx);
  const inner = (z.zones || []).map((sub) => zone(sub, ctx));
  const parts = layout === "cells" ? [cellsBody(z, ctx)] : layout === "places" ? [placesBody(z, ctx)] : [];
  const click = clickOf(ctx.legal.direct.get(z.id));
  const open = openable(z) && ctx.live ? z.cards.length : 0; // a picture (a replay, an export) has nothing to open
  const label = `${z.label || z.id}${z.count !== undefined ? `, ${z.count} cards` : ""}`;
  // a stack's count, a button that opens its cards (a pile's count is on its back, below)
  const opener = open ? h("button", {
    type: "button", class: "kum-count kum-open-pile",
    dataset: { control: "pile", pile: z.id, key: `open:${z.id}` },
    "aria-haspopup": "dialog", "aria-label": `${z.label || z.id}: ${layout === "pile" ? z.count ?? open : open} cards. Show the ${open} you can see`,
    title: "Show these cards",
  }, `${layout === "pile" ? z.count ?? open : open} ▾`)
    : openable(z) ? h("span", { class: "kum-count kum-open-pile", title: `${z.cards.length} cards` }, String(layout === "pile" ? z.count ?? z.cards.length : z.cards.length))
    : null;
  const head = z.label || (z.badges || []).length || (z.counters || []).length || opener
    ? h("div", { class: "kum-zone-head" },
        z.label ? h("span", { class: "kum-label" }, z.label) : null,
        opener,
        (z.badges || []).map((b) => badge(b)),
        (z.counters || []).map((c) => counter(c, z.id)))
    : null;
  const count = layout === "pile" && typeof z.count === "number" && z.count > 0
    ? h("span", { class: "kum-pile-count kum-count", title: `${z.count} cards`, dataset: { key: `count:${z.id}` } }, String(z.count)) : null;
  const nothing = !cards.length && !held.length && !inner.length && !parts.length && !(layout === "pile" && z.count);
  const empty = nothing ? h("span", { class: "kum-muted" }, z.empty || "empty") : null;
  // a named zone is a group (its name read before its cards: which card lies in which zone); an
  // unnamed one (a wrapper) says nothing of its own, unless it is a click
  const attrs = click ? targetAttrs(click, z.id, label, ctx, true, Boolean(open)) : groupAttrs(z.label ? label : "");
  const style = [layout === "grid" && z.columns ? `--kum-columns: ${Number(z.columns)}` : null, tint(z.color)].filter(Boolean).join("; ");
  return h("div", {
    ...attrs,
    class: `kum-zone kum-layout-${layout}${SIZES.has(z.size) ? ` kum-size-${z.size}` : ""}${z.cell_shape === "round" ? " kum-round" : ""}`
      + `${z.color ? " kum-tinted" : ""}${click ? " kum-target" : ""}${ctx.last === z.id ? " kum-last" : ""}`,
    dataset: { zone: z.id, key: `zone:${z.id}`, label, ...(open ? { openable: "" } : {}), ...(attrs.dataset || {}) },
    style: style || null,
  }, head,
  h("div", { class: "kum-zone-body" }, count, cards, held, parts, inner, empty),
  z.hint ? h("div", { class: "kum-hint" }, z.hint) : null);
}

// Every kind of part a source's action may be dropped on (a card or a piece that is itself a source is not).
const TARGET_KINDS = ["zone", "cell", "group", "place"];

function targetsOf(root, id) {
  const q = CSS.escape(id);
  return root.querySelectorAll([...TARGET_KINDS.map((k) => `[data-${k}="${q}"]`),
    `[data-card="${q}"]:not([data-playable])`, `[data-piece="${q}"]:not([data-playable])`].join(", "));
}

/** Light up the targets of the selected source, in place: no rebuild, so it shows
 * within a frame. Clicks are handled by one delegated listener (widget.js). */
export function applySelection(root, m, ui) {
  const legal = indexLegal(m.legal);
  const targets = ui.selected !== null ? legal.bySource.get(ui.selected) : null;
  for (const el of root.querySelectorAll(".kum-lit")) {
    el.classList.remove("kum-lit", "kum-target");
    delete el.dataset.action;
    delete el.dataset.actionId;
    delete el.dataset.menu;
    for (const name of ["aria-haspopup", "aria-expanded"]) el.removeAttribute(name);
    if (el.tagName !== "BUTTON") {
      if (el.dataset.role) { // its own role and name again (a group, a picture); a wrapper had none
        el.setAttribute("role", el.dataset.role);
        el.setAttribute("aria-label", el.dataset.label || "");
      } else {
        el.removeAttribute("role");
        el.removeAttribute("aria-label");
      }
      if (el.dataset.why !== undefined) el.setAttribute("tabindex", "0"); // a part with a reason stays focusable
      else el.removeAttribute("tabindex");
    } else el.setAttribute("aria-label", el.dataset.label || "");
  }
  for (const [id, actions] of targets || []) {
    const click = clickOf(actions);
    let stop = true; // a group of cells: one stop in the tab order
    for (const el of targetsOf(root, id)) {
      if (el.dataset.action || el.dataset.menu !== undefined) continue; // a click of its own already
      el.classList.add("kum-lit", "kum-target");
      if (click.action) {
        Object.assign(el.dataset, actionData(click));
        el.setAttribute("aria-label", `${el.dataset.label || id}. Click to ${click.action}`);
      } else {
        el.dataset.menu = id;
        el.setAttribute("aria-haspopup", "menu");
        el.setAttribute("aria-expanded", "false");
        el.setAttribute("aria-label", `${el.dataset.label || id}. ${menuLabel(click.menu)}`);
      }
      if (el.tagName !== "BUTTON") {
        el.setAttribute("role", el.querySelector("button, [tabindex='0']") ? "group" : "button"); // (a control inside: see targetAttrs)
        el.setAttribute("tabindex", stop ? "0" : "-1");
        stop = false;
      }
    }
  }
  for (const el of root.querySelectorAll("[data-playable]")) {
    const selected = sourceId(el) === ui.selected;
    el.classList.toggle("kum-selected", selected);
    el.setAttribute("aria-pressed", String(selected));
  }
}

/** The id a playable card or piece selects. */
export function sourceId(el) {
  return el.dataset.card ?? el.dataset.piece;
}

/** The actions a menu opener offers: its own click, or, lit, the selected source's onto it. */
export function menuActions(m, ui, el) {
  const legal = indexLegal(m.legal);
  const id = el.dataset.menu;
  const map = el.classList.contains("kum-lit") ? legal.bySource.get(ui.selected) : legal.direct;
  return (map && map.get(id)) || [];
}

function seatPanel(s, player, board, ctx) {
  const name = player ? player.name : `Seat ${s.seat}`;
  const flags = [];
  if (player?.bot) flags.push(h("span", { class: "kum-badge kum-bot", title: player.bot }, "bot"));
  if (player?.winner) flags.push(h("span", { class: "kum-badge kum-c-gold", title: "winner" }, "winner"));
  // A simultaneous step: who has chosen (what, nobody sees) and who is still choosing.
  if (player?.choice === "chosen") flags.push(h("span", { class: "kum-badge kum-c-green", title: "has chosen", dataset: { choice: "chosen" } }, "chosen ✓"));
  if (player?.choice === "choosing") flags.push(h("span", { class: "kum-badge kum-c-gray", title: "still choosing", dataset: { choice: "choosing" } }, "choosing…"));
  return h(
    "section",
    { class: `kum-seat${player?.current ? " kum-current" : ""}${board.shown_seat === s.seat ? " kum-own" : ""}`,
      dataset: { seat: String(s.seat), key: `seat:${s.seat}` }, "aria-label": name + (player?.current ? " (to act)" : "") },
    h("header", { class: "kum-seat-head" },
      h("strong", { class: "kum-name" }, name),
      flags,
      (s.badges || []).map((b) => badge(b)),
      h("span", { class: "kum-counters" }, (s.counters || []).map((c) => counter(c, `seat ${s.seat}`)))),
    h("div", { class: "kum-seat-zones" }, (s.zones || []).map((z) => zone(z, ctx))),
  );
}

/** At game over, the finished game handed in: the kernel writes its record into its folder and
 * answers where (`ui.saved`: a line of its own above the table, and said once to a screen reader). */
function handIn(m, busy) {
  return offers(m, "save-for-lab")
    ? h("button", { type: "button", dataset: { control: "save-for-lab", key: "control:save-for-lab" }, disabled: busy,
      title: "Write this game's whole record into the notebook's folder, for the lab (kum.lab.load reads it)" }, "Save for the lab")
    : null;
}

function gameOver(board, seats, busy, live, m) {
  const counter = (p, label) => ((seats.find((x) => x.seat === p.seat) || {}).counters || []).find((x) => x.label === label);
  const labels = [];
  for (const s of seats) for (const c of s.counters || []) if (!labels.includes(c.label)) labels.push(c.label);
  // a running score (a counter named a score that says what the last column says for every
  // player) is left out, not shown twice; another counter that happens to agree stays
  const columns = labels.filter((label) => !(/score/i.test(label)
    && board.players.every((p) => p.score !== undefined && String(counter(p, label)?.value) === String(p.score))));
  const rows = board.players.map((p) => {
    const cells = columns.map((label) => {
      const c = counter(p, label);
      return h("td", {}, c ? String(c.value) : "");
    });
    return h("tr", { class: p.winner ? "kum-winner" : "" },
      h("th", { scope: "row" }, p.name), ...cells, h("td", { dataset: { score: String(p.seat) } }, p.score === undefined ? "" : String(p.score)));
  });
  // it may scroll (over the table, issue 42): it takes the focus, so that it scrolls by keyboard too
  return h("div", { class: "kum-over", role: "region", "aria-label": "Final scores", tabindex: "0", dataset: { key: "over" } },
    h("table", {},
      h("thead", {}, h("tr", {}, h("th", {}, "Player"), ...columns.map((c) => h("th", {}, c)), h("th", {}, "Final score"))),
      h("tbody", {}, rows)),
    live && offers(m, "new-game") ? h("button", { type: "button", class: "kum-primary", dataset: { control: "play-again", key: "play-again" }, disabled: busy, title: "A new deal, the same players (New game, above, for a seed or another opponent)" }, "Play again") : null,
    live ? handIn(m, busy) : null);
}

function newGameForm(m, ui) {
  const seed = h("input", { type: "number", min: "0", placeholder: "random", "aria-label": "Seed (empty for random)", class: "kum-seed", dataset: { key: "seed" } });
  const seats = Object.values(m.bot_seats || {});
  // The opponent the board has now comes first and is chosen: a new game keeps it unless changed.
  const current = seats.length ? seats[0].kind : null;
  const options = seats.length
    ? [current === null ? h("option", { value: "", selected: true }, `keep ${seats[0].name}`) : null,
       ...(m.bot_choices || []).map((b) => h("option", { value: b, selected: b === current }, b))]
    : [];
  const bots = seats.length ? h("select", { "aria-label": "Opponent", class: "kum-bot-select", dataset: { key: "bot-select" } }, options) : null;
  return h("form", { class: "kum-newgame", dataset: { key: "newgame", form: "new-game" } },
    h("label", {}, "Seed ", seed), bots ? h("label", {}, " Opponent ", bots) : null,
    h("button", { type: "submit", class: "kum-primary", dataset: { control: "start" }, disabled: Boolean(ui.pending) }, "Start"));
}

/** The board afresh, as a list of nodes for the root. `m` holds the traits; `ui` the view's
 * own state (`ui.static`: a picture of the board, as in a replay file: no controls). */
export function describeBoard(m, ui) {
  const board = m.board;
  if (!board || !board.players) return [h("div", { class: "kum-muted", dataset: { key: "loading" } }, "Loading…")];
  const busy = Boolean(ui.pending);
  const live = !ui.static;
  const ctx = { legal: indexLegal(m.legal), busy, live, last: (m.last_move || {}).target || "" };
  const seats = board.seats || [];
  const byseat = new Map(board.players.map((p) => [p.seat, p]));
  const shownSeats = seats.length ? seats : board.players.map((p) => ({ seat: p.seat }));
  const others = shownSeats.filter((s) => s.seat !== board.shown_seat);
  const own = shownSeats.filter((s) => s.seat === board.shown_seat);
  const buttons = ctx.legal.buttons.map((a) =>
    h("button", { type: "button", class: "kum-action", dataset: { ...actionData(clickOf([a])), key: `action:${a.text}` }, disabled: busy }, a.label || a.text));
  const passScreen = m.pass_to
    ? h("div", { class: "kum-pass", role: "dialog", "aria-label": `Pass to ${m.pass_to}`, dataset: { key: "pass" } },
        h("p", {}, `Pass the board to ${m.pass_to}.`),
        h("button", { type: "button", class: "kum-primary", dataset: { control: "ready" } }, `I am ${m.pass_to}: show my hand`))
    : null;
  // the buttons the kernel answers (`controls`; all of them from a kernel that does not say)
  const control = (name, label, extra = {}) => offers(m, name)
    ? h("button", { type: "button", dataset: { control: name, key: `control:${name}` }, disabled: busy, ...extra }, label) : null;
  return [
    h("div", { class: "kum-top", dataset: { key: "top" } },
      h("strong", { class: "kum-title" }, board.title || ""),
      // one line, cut short on a narrow board (layout.css): its whole text in its title
      h("span", { class: "kum-status", title: board.status || null, dataset: { key: "status" } }, board.status || ""), // said through the one live region, below
      live ? h("span", { class: "kum-controls", dataset: { key: "controls" } },
        control("undo", "Undo", { title: "Back to your previous decision", disabled: busy || !(m.step > 0) }),  // (nothing played yet: nothing to undo)
        control("redo", "Redo", { title: "Forward again", disabled: busy || !(m.step < m.max_step) }),
        control("new-game", "New game", { "aria-expanded": ui.newGame ? "true" : "false" }),
        ui.replay ? control("save-replay", "Save replay", { title: "Save this game as one HTML file that replays it anywhere, offline" }) : null) : null,
      live ? tools(m, ui) : null),
    live && ui.newGame ? newGameForm(m, ui) : null,
    live ? helpPanel(board, ui) : null,
    banner(board),
    m.error ? h("div", { class: "kum-error", role: "alert", dataset: { key: "error" } }, m.error) : null,
    ui.notice ? h("div", { class: "kum-error", role: "alert", dataset: { key: "notice" } }, ui.notice) : null,
    live && board.over && ui.saved ? h("div", { class: "kum-saved", dataset: { key: "saved" } }, `Saved for the lab: ${ui.saved}`) : null,
    board.over ? gameOver(board, seats, busy, live, m) : null,
    live ? passScreen : null,
    // In the page as on the screen (layout.css), so that reading and Tab go the same way: the
    // other seats (strips above the table), the table, the buttons, the seat at the screen.
    others.length ? h("div", { class: "kum-seats", dataset: { key: "seats" } }, others.map((s) => seatPanel(s, byseat.get(s.seat), board, ctx))) : null,
    (board.zones || []).length ? h("div", { class: "kum-table", dataset: { key: "table" } }, board.zones.map((z) => zone(z, ctx))) : null,
    typeof board.text === "string" ? h("pre", { class: "kum-text-view", dataset: { key: "text" } }, board.text) : null,
    buttons.length ? h("div", { class: "kum-actions", role: "group", "aria-label": "Actions", dataset: { key: "actions" } }, buttons) : null,
    own.length ? h("div", { class: "kum-seats", dataset: { key: "own-seat" } }, own.map((s) => seatPanel(s, byseat.get(s.seat), board, ctx))) : null,
    live ? thinkingList(m, ui) : null,
    h("details", { class: "kum-logbox", open: true, dataset: { key: "log" } },
      h("summary", {}, "Log"),
      // it scrolls: it takes the focus, so that its lines can be scrolled and read by keyboard
      h("ol", { class: "kum-log", dataset: { zone: "log" }, "aria-label": "Game log, newest first", tabindex: "0" },
        (m.log_lines || []).slice(-20).reverse().map((line) => h("li", {}, line)))),
    // what just happened, said once to a screen reader (widget.js fills it)
    live ? h("div", { class: "kum-announce", "aria-live": "polite", dataset: { key: "announce" } }, ui.announce || "") : null,
  ].filter(Boolean);
}

/** The board afresh in a detached element: drawn, its selection lit, the bot's thinking
 * and the reasons why not laid on its parts. */
export function freshBoard(m, ui) {
  const fresh = h("div", {}, describeBoard(m, ui));
  applySelection(fresh, m, ui);
  if (!ui.static) {
    decorateWhy(fresh, m);
    decorateThinking(fresh, m, ui, false);
  }
  return fresh;
}

/** Draw the board into `root`, touching only what changed since its last drawing. */
export function buildBoard(root, m, ui) {
  const fresh = freshBoard(m, ui);
  if (m.board && m.board.players) root.dataset.stateId = String(m.state_id);
  morphChildren(root, [...fresh.childNodes]);
}
