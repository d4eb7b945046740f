// Charts drawn as SVG: a line over time, shares as a bar, observed vs expected per face.
import { s, h } from "./dom.js";

const W = 320, H = 140, PAD = 24;

export function lineChart(values, { label = "", testid = "" } = {}) {
  if (!values.length) return null;
  const min = Math.min(0, ...values), max = Math.max(1, ...values);
  const x = (i) => PAD + (values.length === 1 ? 0 : (i * (W - 2 * PAD)) / (values.length - 1));
  const y = (v) => H - PAD - ((v - min) * (H - 2 * PAD)) / (max - min || 1);
  const points = values.map((v, i) => `${x(i).toFixed(1)},${y(v).toFixed(1)}`).join(" ");
  return s("svg", { viewBox: `0 0 ${W} ${H}`, class: "chart", role: "img", "aria-label": label, "data-chart": testid },
    s("title", {}, label),
    s("line", { x1: PAD, y1: y(0), x2: W - PAD, y2: y(0), class: "axis" }),
    s("polyline", { points, class: "series" }),
    values.map((v, i) => s("circle", { cx: x(i), cy: y(v), r: 2.5, class: "point" }, s("title", {}, String(v)))),
    s("text", { x: 2, y: y(max) + 4, class: "tick" }, String(max)),
    s("text", { x: 2, y: y(min) + 4, class: "tick" }, String(min)));
}

export function sharesChart(parts, { label = "", testid = "" } = {}) {
  const total = parts.reduce((a, p) => a + p.value, 0);
  if (!total) return null;
  let at = 0;
  const bars = parts.map((p, i) => {
    const width = (p.value / total) * (W - 2);
    const rect = s("rect", { x: 1 + at, y: 10, width, height: 28, class: `share share-${i}` }, s("title", {}, `${p.label}: ${p.value}`));
    at += width;
    return rect;
  });
  return h("figure", { class: "chart-figure" },
    s("svg", { viewBox: `0 0 ${W} 48`, class: "chart", role: "img", "aria-label": label, "data-chart": testid }, s("title", {}, label), bars),
    h("figcaption", {}, parts.map((p, i) => h("span", { class: `legend legend-${i}` }, `${p.label} ${p.value} (${Math.round((100 * p.value) / total)}%) `))));
}

export function diceChart(die, { label = "" } = {}) {
  const faces = die.faces || [];
  if (!faces.length) return null;
  const max = Math.max(1, ...faces.map((f) => Math.max(f.observed, f.expected)));
  const bw = (W - 2 * PAD) / faces.length;
  const y = (v) => H - PAD - (v * (H - 2 * PAD)) / max;
  return s("svg", { viewBox: `0 0 ${W} ${H}`, class: "chart", role: "img", "aria-label": label, "data-chart": `dice-${die.die}` },
    s("title", {}, label),
    faces.map((f, i) => [
      s("rect", { x: PAD + i * bw + 2, y: y(f.observed), width: bw - 4, height: H - PAD - y(f.observed), class: "observed" }, s("title", {}, `${f.face}: ${f.observed} / ${f.expected}`)),
      s("line", { x1: PAD + i * bw, x2: PAD + (i + 1) * bw, y1: y(f.expected), y2: y(f.expected), class: "expected" }),
      s("text", { x: PAD + i * bw + bw / 2, y: H - 8, class: "tick", "text-anchor": "middle", translate: "no" }, f.face),
    ]));
}
