// A game without a kernel: the board's own renderer (board.js) drawing positions the
// kernel wrote into the page, one per step of the record (kum.save_replay), or a single
// one (a notebook output's snapshot). Bundled as a plain script (global `kumReplay`):
// a replay file works from file:// with no network and no module loader.
import { buildBoard } from "./board.js";
import { h } from "./dom.js";

const LOG_LINES = 20;
const PLAY_MS = 900; // a step, at speed 1x
const SPEEDS = [["0.5", "½×"], ["1", "1×"], ["2", "2×"], ["4", "4×"]];

/** The data the kernel packed: zlib-deflated JSON in base64 (a whole game is ~50 KB). */
async function unpack(text) {
  const bytes = Uint8Array.from(atob(text.trim()), (c) => c.charCodeAt(0));
  const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("deflate"));
  return JSON.parse(await new Response(stream).text());
}

function model(data, step) {
  const frame = data.frames[step];
  return {
    board: frame.board,
    legal: { actions: [] },
    log_lines: data.log.slice(Math.max(0, frame.moves - LOG_LINES), frame.moves),
    error: "",
    state_id: step,
    pass_to: "",
    last_move: frame.last || {},
    step,
    max_step: data.frames.length - 1,
    bot_seats: {},
  };
}

function show(root, data, step, parts) {
  buildBoard(root, model(data, step), { static: true, selected: null, pending: null }, {});
  if (!parts) return;
  const n = data.frames.length - 1;
  const moves = data.frames[step].moves;
  const focused = parts.host.contains(document.activeElement);
  parts.slider.value = String(step);
  parts.slider.setAttribute("aria-valuetext", `step ${step} of ${n}`);
  parts.counter.textContent = `Step ${step} of ${n}`;
  parts.caption.textContent = step === 0 ? "The start of the game." : data.log[moves - 1] || "";
  parts.first.disabled = parts.prev.disabled = step === 0;
  parts.last.disabled = parts.next.disabled = step === n;
  parts.host.dataset.step = String(step);
  // A button that just became disabled drops the focus to the page: keep it in the replay,
  // so the arrow keys still work.
  if (focused && (document.activeElement === document.body || document.activeElement?.disabled)) parts.host.focus({ preventScroll: true });
}

function controls(host, root, data, start) {
  const n = data.frames.length - 1;
  let step = start;
  let playing = 0;
  const go = (k) => {
    step = Math.max(0, Math.min(n, k));
    show(root, data, step, parts);
    if (step === n) stop();
  };
  const stop = () => {
    clearInterval(playing);
    playing = 0;
    parts.play.textContent = "Play";
    parts.play.setAttribute("aria-pressed", "false");
  };
  const every = () => PLAY_MS / Number(parts.speed.value || 1);
  const toggle = () => {
    if (playing) return stop();
    if (step === n) go(0);
    playing = setInterval(() => go(step + 1), every());
    parts.play.textContent = "Pause";
    parts.play.setAttribute("aria-pressed", "true");
  };
  // A new speed while playing: the next steps at it, from the step shown.
  const setSpeed = (value) => {
    parts.speed.value = value;
    if (playing) {
      clearInterval(playing);
      playing = setInterval(() => go(step + 1), every());
    }
  };
  const faster = (by) => {
    const values = SPEEDS.map(([v]) => v);
    const k = Math.max(0, Math.min(values.length - 1, values.indexOf(parts.speed.value) + by));
    setSpeed(values[k]);
  };
  const button = (control, label, text, onclick) =>
    h("button", { type: "button", dataset: { control }, "aria-label": label, title: label, onclick }, text);
  const parts = {
    host,
    first: button("first", "First position (Home)", "|◀", () => go(0)),
    prev: button("prev", "Previous step (Left arrow)", "◀", () => go(step - 1)),
    play: button("play", "Play through the game (P)", "Play", () => toggle()),
    next: button("next", "Next step (Right arrow)", "▶", () => go(step + 1)),
    last: button("last", "Last position (End)", "▶|", () => go(n)),
    speed: h("select", { dataset: { control: "speed" }, "aria-label": "Speed of Play (+ and - keys)", title: "Speed of Play (+ and - keys)" },
      SPEEDS.map(([value, label]) => h("option", { value, selected: value === "1" }, label))),
    slider: h("input", { type: "range", min: "0", max: String(n), step: "1", value: String(start), "aria-label": "Step", dataset: { control: "slider" } }),
    counter: h("span", { class: "kum-replay-counter", "aria-live": "polite" }),
    caption: h("p", { class: "kum-replay-caption" }),
  };
  parts.play.setAttribute("aria-pressed", "false");
  parts.speed.addEventListener("change", () => setSpeed(parts.speed.value));
  parts.slider.addEventListener("input", () => {
    stop();
    go(Number(parts.slider.value));
  });
  const onKey = (e) => {
    if (e.altKey || e.ctrlKey || e.metaKey) return;
    const keys = { ArrowLeft: step - 1, ArrowRight: step + 1, Home: 0, End: n, PageUp: step - 10, PageDown: step + 10 };
    if ((e.target === parts.slider || e.target === parts.speed) && e.key in keys) return; // they move themselves
    if (e.key === "+" || e.key === "=" || e.key === "-") {
      e.preventDefault();
      return faster(e.key === "-" ? -1 : 1);
    }
    if (e.key in keys) {
      e.preventDefault();
      stop();
      go(keys[e.key]);
    } else if (e.key === "p" || e.key === "P") {
      e.preventDefault();
      toggle();
    }
  };
  host.addEventListener("keydown", onKey);
  // A replay file is the whole page: its keys work before anything is clicked.
  if (host.dataset.page === "true") {
    document.addEventListener("keydown", (e) => { if (e.target === document.body) onKey(e); });
  }
  host.append(
    h("div", { class: "kum-replay-bar", role: "toolbar", "aria-label": "Replay controls" },
      parts.first, parts.prev, parts.play, parts.next, parts.last, parts.speed, parts.slider, parts.counter),
    parts.caption, root);
  return parts;
}

/** Draw the packed game into `host`: controls through the record, or one position. */
export async function mount(host, packed) {
  const data = await unpack(packed);
  const root = h("div", { class: "kum-widget kum-static" });
  const start = Math.max(0, Math.min(data.frames.length - 1, data.start ?? data.frames.length - 1));
  host.replaceChildren();
  host.classList.add("kum-replay");
  host.dataset.steps = String(data.frames.length - 1);
  if (data.frames.length > 1) {
    host.setAttribute("tabindex", "0");
    host.setAttribute("role", "region"); // a name needs a role to be read (axe: aria-prohibited-attr)
    host.setAttribute("aria-label", `Replay: ${data.title}`);
    show(root, data, start, controls(host, root, data, start));
  } else {
    if (data.note) host.append(h("p", { class: "kum-replay-caption kum-replay-note" }, data.note));
    host.append(root);
    show(root, data, 0, null);
  }
  host.dataset.ready = "true";
  return data;
}

/** Mount every packed game on the page not yet mounted (each script tag follows its host). */
export function mountAll(doc = document) {
  for (const script of doc.querySelectorAll("script[type='application/x-kum-replay']")) {
    const host = doc.getElementById(script.dataset.host);
    if (!host || host.dataset.mounted) continue;
    host.dataset.mounted = "true";
    mount(host, script.textContent).catch((err) => {
      host.dataset.error = String(err);
      host.prepend(h("p", { class: "kum-error" }, `This board could not be drawn here (${err}); its text form follows.`));
    });
  }
}
