"""The bot's-thinking badges as a reader sees them, measured in the page: each badge's
smallest text size, the lowest contrast of its text on what is behind it (WCAG 2.1's
ratio; a colour with alpha laid over the backgrounds beneath it), and whether it covers
a card's value. Shared by the frontend and the e2e tests (issue 42, item 5)."""

from __future__ import annotations

# (el) => [{text, font, ratio, covers}] for every .kum-think under el
BADGES = """(root) => {
  const parse = (c) => {
    let m = /^rgba?\\(([^)]*)\\)/.exec(c);
    if (m) { const p = m[1].split(/[\\s,\\/]+/).filter(Boolean).map(Number); return [p[0] / 255, p[1] / 255, p[2] / 255, p.length > 3 ? p[3] : 1]; }
    m = /^color\\(srgb ([^)]*)\\)/.exec(c);
    if (m) { const p = m[1].split(/[\\s\\/]+/).filter(Boolean).map(Number); return [p[0], p[1], p[2], p.length > 3 ? p[3] : 1]; }
    throw new Error('a colour this test cannot read: ' + c);
  };
  const over = (top, under) => [0, 1, 2].map((i) => top[i] * top[3] + under[i] * (1 - top[3])).concat([1]);
  const behind = (el) => { // the opaque colour behind el's text: its background and its ancestors', laid over white
    const layers = [];
    for (let e = el; e; e = e.parentElement) {
      const c = parse(getComputedStyle(e).backgroundColor);
      if (c[3] > 0) layers.push(c);
      if (c[3] >= 1) break;
    }
    return layers.reverse().reduce((acc, c) => over(c, acc), [1, 1, 1, 1]);
  };
  const lum = (c) => { const f = (v) => (v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4); return 0.2126 * f(c[0]) + 0.7152 * f(c[1]) + 0.0722 * f(c[2]); };
  const ratio = (a, b) => { const [x, y] = [lum(a), lum(b)].sort((p, q) => q - p); return (x + 0.05) / (y + 0.05); };
  const values = [...document.querySelectorAll('.kum-value')].map((v) => v.getBoundingClientRect()).filter((r) => r.width && r.height);
  const hit = (a, b) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
  return [...root.querySelectorAll('.kum-think')].map((badge) => {
    const texts = [badge, ...badge.querySelectorAll('*')].filter((e) => [...e.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim())
      && getComputedStyle(e).display !== 'none');
    const bg = behind(badge);
    const box = badge.getBoundingClientRect();
    return {
      text: badge.textContent,
      font: Math.min(...texts.map((e) => parseFloat(getComputedStyle(e).fontSize))),
      ratio: Math.min(...texts.map((e) => ratio(over(parse(getComputedStyle(e).color), behind(e)), behind(e)))),
      background: bg.slice(0, 3).map((v) => Math.round(v * 255)),
      covers: values.some((v) => hit(box, v)),
    };
  });
}"""

# the variables JupyterLab's dark theme sets (@jupyterlab/theme-dark-extension), for a page outside JupyterLab
DARK = {"--jp-layout-color0": "#111111", "--jp-layout-color1": "#212121", "--jp-layout-color2": "#424242",
        "--jp-ui-font-color1": "rgba(255, 255, 255, 0.87)", "--jp-ui-font-color2": "rgba(255, 255, 255, 0.54)",
        "--jp-border-color1": "#616161", "--jp-brand-color1": "#1976d2"}
