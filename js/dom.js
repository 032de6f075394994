// Small DOM helpers. Every piece of text goes in through textContent, never HTML,
// so player names and card text always render as text.

export const RACE_GLYPH = { orc: "▲", dwarf: "■", goblin: "●", giant: "◆" };
export const RACE_LETTER = { orc: "O", dwarf: "D", goblin: "G", giant: "T" };

/** h("div", {class: "x", dataset: {zone: "mine"}, onclick}, child, "text") */
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === undefined || value === null || value === false) continue;
    if (key === "class") el.className = value;
    else if (key === "dataset") Object.assign(el.dataset, value);
    else if (key.startsWith("on")) el.addEventListener(key.slice(2), value);
    else if (key === "text") el.textContent = value;
    else el.setAttribute(key, value === true ? "" : String(value));
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return el;
}

export function creatureText(card) {
  return card && card.race ? `${card.race} ${card.value}` : "hidden creature";
}

export function faceText(face) {
  if (!face) return "no mine";
  const ov = face.overseer ? ", overseer" : "";
  return `defense ${face.defense}, size ${face.size}, ${face.points} points${ov}`;
}

/** A creature chip: glyph + letter + value, coloured by race (colour is never the only
 * cue). One element per chip (the glyph comes from CSS), so a re-render stays cheap. */
export function creature(card, extra = "") {
  if (!card || !card.race) {
    return h("span", { class: `kum-creature kum-hidden ${extra}`, title: "creature face hidden" }, "?");
  }
  return h(
    "span",
    { class: `kum-creature kum-race-${card.race} ${extra}`, title: creatureText(card), dataset: { glyph: RACE_GLYPH[card.race] || "?" } },
    `${RACE_LETTER[card.race] || "?"}${card.value}`,
  );
}

/** A mine face: D defense, S size, points, and the overseer sign. */
export function face(f) {
  if (!f) return h("span", { class: "kum-face kum-empty" }, "empty");
  return h(
    "span",
    { class: "kum-face", title: faceText(f) },
    `D${f.defense} S${f.size} ${f.points}★`,
    f.overseer ? h("span", { class: "kum-ov", title: "overseer: finish with your own race" }, "OV") : null,
  );
}
