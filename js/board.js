// The board: built afresh from the synced traits at every change. No rules here:
// what is clickable comes only from the `legal` list the kernel sent.
import { creature, creatureText, face, faceText, h, RACE_GLYPH } from "./dom.js";

const RACES = ["orc", "dwarf", "goblin", "giant"];

/** Index the legal actions the kernel sent. Texts are built from the card label and
 * the target exactly as the kernel's notation reads; the kernel checks every one. */
export function indexLegal(legal) {
  const draws = new Map();
  const plays = new Map();
  const discards = new Map();
  for (const target of legal?.draws || []) draws.set(target, `draw ${target}`);
  for (const d of legal?.discards || []) discards.set(d.card, `discard ${d.label}`);
  for (const p of legal?.plays || []) {
    plays.set(p.card, new Map(p.targets.map((t) => [t, `play ${p.label} on ${t}`])));
  }
  return { draws, plays, discards };
}

function stackView(stack, need) {
  return h(
    "span",
    { class: "kum-stack" },
    stack.length ? stack.map((c) => creature(c)) : h("span", { class: "kum-muted" }, "empty"),
    h("span", { class: "kum-count", title: "cards on the stack / cards needed" }, `${stack.length}/${need}`),
  );
}

function status(board, m, names) {
  if (board.over) {
    const winners = board.winners.map((w) => names[w]);
    return `Game over: ${winners.join(" and ")} ${winners.length === 1 ? "wins" : "share the win"}.`;
  }
  const who = names[board.current];
  const bot = m.bot_seats[String(board.current)];
  if (bot && m.step < m.max_step) return `${who} waits: you are replaying (step ${m.step} of ${m.max_step}). Redo to go on.`;
  if (bot && m.thinking) return `${who} is thinking…`;
  const phase = { play: "to play a creature", draw: "to draw", discard: "has no legal play: discard a card" }[board.phase];
  return `${who} ${phase || board.phase}. Deck: ${board.deck.size}.`;
}

/** Light up the targets of the selected card, in place: no rebuild, so it shows
 * within a frame. Clicks are handled by one delegated listener (widget.js). */
export function applySelection(root, m, ui) {
  const targets = ui.selected !== null ? indexLegal(m.legal).plays.get(ui.selected) : null;
  for (const el of root.querySelectorAll('button[data-zone="mine"], button[data-zone="claimed"]')) {
    const action = targets ? targets.get(el.dataset.key) : undefined;
    el.classList.toggle("kum-target", Boolean(action));
    el.disabled = !action || Boolean(ui.pending);
    if (action) {
      el.dataset.action = action;
      el.setAttribute("aria-label", `${el.dataset.label}. Click to ${action}`);
    } else {
      delete el.dataset.action;
      el.setAttribute("aria-label", el.dataset.label);
    }
  }
  for (const el of root.querySelectorAll("button[data-playable]")) {
    const selected = Number(el.dataset.card) === ui.selected;
    el.classList.toggle("kum-selected", selected);
    el.setAttribute("aria-pressed", String(selected));
  }
}

/** Build the whole board into `root`. `m` holds the traits; `ui` the local selection. */
export function buildBoard(root, m, ui, on) {
  const board = m.board;
  if (!board || !board.players) {
    root.replaceChildren(h("div", { class: "kum-muted" }, "Loading…"));
    return;
  }
  const names = board.players.map((p) => p.name);
  const legal = indexLegal(m.legal);
  const busy = Boolean(ui.pending);
  const last = m.last_move || {};
  const lastKey = last.target || "";

  const actionButton = (key, cls, label, content, zone, extra = {}) => {
    // Draws are clickable at once; play targets light up on selection (applySelection).
    const action = zone === "deck" || zone === "camp" ? legal.draws.get(key) || null : null;
    const isLast = lastKey === key;
    return h(
      "button",
      {
        type: "button",
        class: `${cls}${action ? " kum-target" : ""}${isLast ? " kum-last" : ""}`,
        "aria-label": label + (action ? `. Click to ${action}` : ""),
        disabled: !action || busy,
        dataset: { zone, key, label, ...(action ? { action } : {}), ...extra },
      },
      content,
    );
  };

  // Deck and Camp
  const deck = actionButton(
    "deck",
    "kum-deck",
    `Deck, ${board.deck.size} cards, top mine ${faceText(board.deck.top)}`,
    [h("span", { class: "kum-label" }, "Deck"), h("span", { class: "kum-big" }, String(board.deck.size)), face(board.deck.top)],
    "deck",
  );
  const camp = RACES.map((race) => {
    const pile = board.camp[race] || [];
    const top = pile[pile.length - 1];
    return h(
      "div",
      { class: "kum-pile" },
      actionButton(
        `camp ${race}`,
        `kum-camp kum-race-${race}`,
        `Camp ${race} pile, ${pile.length} cards${top ? `, top ${creatureText(top)}` : ""}`,
        [h("span", { class: "kum-label" }, `${RACE_GLYPH[race]} ${race}`), top ? creature(top) : h("span", { class: "kum-muted" }, "—"), h("span", { class: "kum-count" }, `×${pile.length}`)],
        "camp",
        { race },
      ),
      pile.length > 1
        ? h("details", { class: "kum-pile-all" }, h("summary", {}, "whole pile"), h("span", { class: "kum-stack" }, pile.map((c) => creature(c))))
        : null,
    );
  });

  // Available mines
  const mines = board.mines.map((mine) =>
    actionButton(
      `mine ${mine.number}`,
      "kum-mine",
      `Mine ${mine.number}: ${faceText(mine.mine)}; stack ${mine.stack.map(creatureText).join(", ") || "empty"}`,
      [h("span", { class: "kum-label" }, `Mine ${mine.number}`), face(mine.mine), mine.mine ? stackView(mine.stack, mine.mine.defense) : null],
      "mine",
      { number: String(mine.number) },
    ),
  );

  // Players
  const shown = board.shown_seat ?? null;
  const players = board.players.map((p) => {
    const mineSeat = p.seat === shown || (shown === null && p.seat === board.current && !board.spectator);
    const claimed = p.claimed.map((c) => {
      const need = c.mine.size + (c.mine.overseer ? 1 : 0);
      const content = [h("span", { class: "kum-label" }, `Claimed ${c.number}`), face(c.mine), stackView(c.stack, need), c.needs_overseer ? h("span", { class: "kum-hint" }, "needs own race") : null];
      const label = `${p.name}'s claimed mine ${c.number}: ${faceText(c.mine)}`;
      if (p.seat === board.current && mineSeat) return actionButton(`claimed ${c.number}`, "kum-claimed", label, content, "claimed", { seat: String(p.seat) });
      return h("div", { class: "kum-claimed", dataset: { zone: "claimed", seat: String(p.seat) }, "aria-label": label }, content);
    });
    const developed = h("div", { class: "kum-developed", dataset: { zone: "developed", seat: String(p.seat) } }, p.developed.length ? p.developed.map((f) => face(f)) : h("span", { class: "kum-muted" }, "none yet"));
    const hand = h("div", { class: "kum-hand", dataset: { zone: "hand", seat: String(p.seat) }, role: "group", "aria-label": `${p.name}'s hand` },
      p.hand.map((card, i) => handCard(card, i, p, mineSeat && p.seat === board.current, legal, ui, on, busy)));
    const bot = m.bot_seats[String(p.seat)];
    return h(
      "section",
      { class: `kum-player${p.seat === board.current && !board.over ? " kum-current" : ""}`, dataset: { seat: String(p.seat) }, "aria-label": `${p.name}, ${p.king} King, score ${p.score}` },
      h("header", { class: "kum-player-head" },
        h("span", { class: `kum-king kum-race-${p.king}`, title: `King of the ${p.king}s` }, `${RACE_GLYPH[p.king]} ${p.king} King`),
        h("strong", { class: "kum-name" }, p.name),
        bot ? h("span", { class: "kum-badge", title: bot.name }, "bot") : null,
        h("span", { class: "kum-score", title: "developed minus undeveloped points" }, `score ${p.score} (${p.developed_points} − ${p.undeveloped_points})`),
      ),
      h("div", { class: "kum-row" }, h("span", { class: "kum-label" }, "Claimed"), claimed.length ? claimed : h("span", { class: "kum-muted" }, "none")),
      h("div", { class: "kum-row" }, h("span", { class: "kum-label" }, "Developed"), developed),
      h("div", { class: "kum-row" }, h("span", { class: "kum-label" }, "Hand"), hand),
    );
  });

  const over = board.over ? gameOver(board, on, busy) : null;
  const passScreen = m.pass_to
    ? h("div", { class: "kum-pass", role: "dialog", "aria-label": `Pass to ${m.pass_to}` },
        h("p", {}, `Pass the board to ${m.pass_to}.`),
        h("button", { type: "button", class: "kum-primary", dataset: { control: "ready" }, onclick: () => on.send({ kind: "ready" }) }, `I am ${m.pass_to}: show my hand`))
    : null;

  root.dataset.stateId = String(m.state_id);
  const parts = [
    h("div", { class: "kum-top" },
      h("strong", { class: "kum-title" }, "Kings Under Mountains"),
      h("span", { class: "kum-status", role: "status", "aria-live": "polite" }, status(board, m, names)),
      h("span", { class: "kum-controls" },
        h("button", { type: "button", dataset: { control: "undo" }, disabled: busy, title: "Back to your previous decision", onclick: () => on.send({ kind: "undo" }) }, "Undo"),
        h("button", { type: "button", dataset: { control: "redo" }, disabled: busy || !(m.step < m.max_step), title: "Forward again", onclick: () => on.send({ kind: "redo" }) }, "Redo"),
        h("button", { type: "button", dataset: { control: "new-game" }, disabled: busy, onclick: () => on.newGame() }, "New game"))),
    m.error ? h("div", { class: "kum-error", role: "alert" }, m.error) : null,
    ui.notice ? h("div", { class: "kum-error", role: "alert" }, ui.notice) : null,
    over,
    passScreen,
    h("div", { class: "kum-table" },
      h("div", { class: "kum-row kum-supply" }, deck, h("div", { class: "kum-campzone", dataset: { zone: "camp" } }, camp)),
      h("div", { class: "kum-mines", dataset: { zone: "mines" } }, mines)),
    h("div", { class: "kum-players" }, players),
    h("details", { class: "kum-logbox", open: true },
      h("summary", {}, "Log"),
      h("ol", { class: "kum-log", dataset: { zone: "log" }, "aria-label": "Game log, newest first" },
        (m.log_lines || []).slice(-20).reverse().map((line) => h("li", {}, line)))),
  ];
  root.replaceChildren(...parts.filter(Boolean));
}

function handCard(card, i, p, canAct, legal, ui, on, busy) {
  const known = card.id !== undefined && card.id !== null;
  const plays = known && canAct ? legal.plays.get(card.id) : null;
  const discard = known && canAct ? legal.discards.get(card.id) : null;
  const selected = known && ui.selected === card.id;
  const label = `${known || card.race ? creatureText(card) : "hidden creature"}; mine side ${faceText(card)}`;
  const content = [creature(card), face(card.defense === undefined ? null : card)];
  if (!plays && !discard) {
    return h("div", { class: `kum-card${card.public ? " kum-public" : ""}`, "aria-label": label, dataset: { index: String(i) } }, content);
  }
  return h(
    "button",
    {
      type: "button",
      class: `kum-card${selected ? " kum-selected" : ""}${discard ? " kum-target" : ""}`,
      "aria-label": label + (discard ? ". Click to discard it" : ". Click to choose where to play it"),
      "aria-pressed": plays ? String(selected) : undefined,
      disabled: busy,
      dataset: { card: String(card.id), key: `card:${card.id}`, ...(plays ? { playable: "" } : {}), ...(discard ? { action: discard } : {}) },
    },
    content,
  );
}

function gameOver(board, on, busy) {
  const rows = board.players.map((p) =>
    h("tr", { class: board.winners.includes(p.seat) ? "kum-winner" : "" },
      h("th", { scope: "row" }, p.name),
      h("td", {}, String(p.developed_points)),
      h("td", {}, String(p.undeveloped_points)),
      h("td", { dataset: { score: String(p.seat) } }, String(p.score))));
  return h("div", { class: "kum-over", role: "region", "aria-label": "Final scores" },
    h("table", {},
      h("thead", {}, h("tr", {}, h("th", {}, "Player"), h("th", {}, "Developed"), h("th", {}, "Undeveloped"), h("th", {}, "Score"))),
      h("tbody", {}, rows)),
    h("button", { type: "button", class: "kum-primary", dataset: { control: "new-game" }, disabled: busy, onclick: () => on.newGame() }, "Play again"));
}
