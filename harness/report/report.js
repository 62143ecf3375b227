// Renders the schedcheck HTML report from the JSON document in <script id="report-data">
// (harness/report/report_data.h). Hand-drawn SVG, no library, no network. Every string from the
// input is untrusted: it only ever reaches the page through textContent or setAttribute, never
// as markup. The <body data-rendered> attribute tells a headless check how rendering went:
// "ok" when everything was drawn, "error: ..." when a script error happened.
"use strict";

window.onerror = function (message, source, line) {
  document.body.setAttribute("data-rendered", "error: " + message + " (line " + line + ")");
};

const SVG_NS = "http://www.w3.org/2000/svg";  // a namespace name, never fetched
const CLASS_COLORS = { hard: "#c62828", requeue: "#ef6c00", soft: "#6a1b9a" };
const RESULT_COLORS = { S: "#2e7d32", U: "#f9a825", E: "#c62828" };
const QUEUE_SERIES = [
  { name: "activeQ", index: 1, color: "#1565c0" },
  { name: "backoffQ", index: 2, color: "#ef6c00" },
  { name: "unschedulable", index: 3, color: "#c62828" },
];

function el(tag, attrs, children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) node.setAttribute(k, v);
  for (const c of children || []) node.append(c);  // strings become text nodes
  return node;
}

function svg(tag, attrs, children) {
  const node = document.createElementNS(SVG_NS, tag);
  for (const [k, v] of Object.entries(attrs || {})) node.setAttribute(k, String(v));
  for (const c of children || []) node.append(c);
  return node;
}

function seconds(t) {
  return (Math.round(t * 1000) / 1000).toString() + " s";
}

// About `count` round tick values within [min, max].
function ticks(min, max, count) {
  if (!(max > min)) return [min];
  const raw = (max - min) / count;
  const magnitude = Math.pow(10, Math.floor(Math.log10(raw)));
  const step = [1, 2, 5, 10].map((m) => m * magnitude).find((s) => s >= raw);
  const out = [];
  for (let k = Math.ceil(min / step - 1e-9); k * step <= max + step / 1e9; k++) out.push(k * step);
  return out;
}

// Text, or for a long one (a tie set of hundreds of nodes) its start with the rest one click away.
function longText(text) {
  if (text.length <= 240) return text;
  return el("details", { class: "long" }, [el("summary", {}, [text.slice(0, 200) + "\u2026"]), text]);
}

function section(id, title, intro) {
  const s = el("section", { id: id }, [el("h2", {}, [title])]);
  if (intro) s.append(el("p", { class: "intro" }, [intro]));
  return s;
}

// The time range shown by the timeline and the queue charts: all of it, or what was zoomed into
// by dragging across the timeline (double-click zooms out).
let view = null;

// The time axis of those charts: [from, to] onto x from `left` to `left + width`.
function timeScale(data, left, width) {
  const from = view ? view.from : 0;
  const to = view ? view.to : data.span > 0 ? data.span : 1;
  return {
    from: from, to: to, left: left, width: width,
    x: (t) => left + ((t - from) / (to - from)) * width,
    t: (x) => from + ((x - left) / width) * (to - from),
    shows: (t) => t >= from && t <= to,
    ticks: ticks(from, to, 8),
  };
}

function zoomTo(data, newView) {
  view = newView;
  document.getElementById("timeline").replaceWith(renderTimeline(data));
  document.getElementById("queues").replaceWith(renderQueues(data));
}

// Dragging across `chart` (viewBox width `width`) zooms both charts to the dragged range.
function enableZoom(data, chart, scale, width, height) {
  let start = null;
  const band = svg("rect", { y: 0, height: height, width: 0, class: "zoom-band", visibility: "hidden" });
  chart.append(band);
  const svgX = (e) => {
    const r = chart.getBoundingClientRect();
    return Math.min(scale.left + scale.width, Math.max(scale.left, ((e.clientX - r.left) / r.width) * width));
  };
  chart.addEventListener("mousedown", (e) => { start = svgX(e); e.preventDefault(); });
  chart.addEventListener("mousemove", (e) => {
    if (start === null) return;
    const x = svgX(e);
    band.setAttribute("x", Math.min(start, x));
    band.setAttribute("width", Math.abs(x - start));
    band.setAttribute("visibility", "visible");
  });
  chart.addEventListener("mouseup", (e) => {
    if (start === null) return;
    const a = Math.min(start, svgX(e)), b = Math.max(start, svgX(e));
    start = null;
    band.setAttribute("visibility", "hidden");
    if (b - a >= 4) zoomTo(data, { from: scale.t(a), to: scale.t(b) });
  });
  chart.addEventListener("dblclick", () => zoomTo(data, null));
}

function drawAxis(chart, scale, y, height) {
  for (const t of scale.ticks) {
    const x = scale.x(t);
    chart.append(svg("line", { x1: x, x2: x, y1: y - height, y2: y, class: "grid" }));
    chart.append(svg("text", { x: x, y: y + 14, class: "tick", "text-anchor": "middle" }, [seconds(t)]));
  }
}

function renderHeader(data) {
  const v = data.verdict;
  const verdict = v.fails ? "diverges" : v.hard + v.requeue + v.soft > 0 ? "equivalent (soft allowed)" : "equivalent";
  const header = el("header", {}, [
    el("h1", {}, ["schedcheck report"]),
    el("p", { class: "title" }, [data.title]),
    el("p", {}, [
      el("span", { class: "verdict " + (v.fails ? "fails" : "passes"), id: "verdict" }, [verdict]),
      " " + v.podsCompared + " pods compared; " + v.hard + " hard, " + v.requeue + " requeue, " + v.soft +
        " soft divergence(s)" + (v.allowSoft ? " (soft allowed)" : ""),
    ]),
    el("p", { class: "sides" }, [
      el("span", { class: "side-label" }, ["reference: "]), data.reference,
      el("br"),
      el("span", { class: "side-label" }, ["candidate: "]), data.candidate,
    ]),
  ]);
  if (data.notCompared.length > 0) {
    header.append(el("p", { class: "note", id: "not-compared" }, ["Not compared (the capture does not carry it): " +
      data.notCompared.join("; ")]));
  }
  document.title = "schedcheck report: " + data.title;
  return header;
}

// Both sides' attempts on one time axis, with the divergences between them.
function renderTimeline(data) {
  const s = section("timeline", "Divergence timeline",
    "Every scheduling attempt of each side (green scheduled, yellow unschedulable, red error) and " +
    "each divergence between them (red hard, orange requeue, purple soft). Hover for details.");
  const width = 1000, left = 90, plot = width - left - 20;
  const scale = timeScale(data, left, plot);
  const lanes = { reference: 30, divergences: 70, candidate: 110 };
  const chart = svg("svg", { viewBox: "0 0 " + width + " 150", class: "chart timeline-chart", role: "img" });
  drawAxis(chart, scale, 130, 120);
  for (const [lane, y] of Object.entries(lanes)) {
    chart.append(svg("text", { x: 4, y: y + 4, class: "lane" }, [lane]));
    chart.append(svg("line", { x1: left, x2: left + plot, y1: y, y2: y, class: "lane-line" }));
  }
  for (const side of ["reference", "candidate"]) {
    for (const [t, pod, result] of data.timeline[side]) {
      if (!scale.shows(t)) continue;
      const mark = svg("rect", {
        x: scale.x(t) - 1.5, y: lanes[side] - 9, width: 3, height: 18,
        fill: RESULT_COLORS[result], class: "attempt-mark",
      });
      mark.append(svg("title", {}, [side + " t=" + seconds(t) + " " + data.pods[pod] + " " + result]));
      chart.append(mark);
    }
  }
  // One mark per class and (6-unit) position, each class on its own row of the lane, with the
  // number of divergences it stands for when more than one and there is room for it.
  const groups = new Map();
  for (const d of data.divergences) {
    if (!scale.shows(d.t)) continue;
    const key = d.class + "@" + Math.round(scale.x(d.t) / 6);
    if (!groups.has(key)) groups.set(key, []);
    groups.get(key).push(d);
  }
  const rows = { hard: -11, requeue: 0, soft: 11 };
  const lastLabel = { hard: -Infinity, requeue: -Infinity, soft: -Infinity };
  for (const group of groups.values()) {
    const d = group[0];
    const x = scale.x(d.t), y = lanes.divergences + (rows[d.class] || 0);
    const mark = svg("circle", { cx: x, cy: y, r: 5, fill: CLASS_COLORS[d.class] || "#000", class: "divergence-mark" });
    const lines = group.map((g) => g.class + " " + g.what + " t=" + seconds(g.t) + " " + g.pod);
    mark.append(svg("title", {}, [lines.join("\n")]));
    chart.append(mark);
    if (group.length > 1 && x - lastLabel[d.class] > 30) {
      const right = x + 40 > width;  // near the right edge the count goes left of the mark
      chart.append(svg("text", { x: right ? x - 7 : x + 7, y: y + 4, class: "tick", "text-anchor": right ? "end" : "start" },
        ["\u00d7" + group.length]));
      lastLabel[d.class] = x;
    }
  }
  enableZoom(data, chart, scale, width, 150);
  s.append(chart);
  const zoom = el("p", { class: "note" }, [view
    ? "Showing " + seconds(scale.from) + " to " + seconds(scale.to) + ". "
    : "Drag across the timeline to zoom in (both charts); double-click to zoom out."]);
  if (view) {
    const all = el("button", { type: "button", id: "zoom-out" }, ["show all"]);
    all.addEventListener("click", () => zoomTo(data, null));
    zoom.append(all);
  }
  s.append(zoom);
  const omitted = data.timeline.referenceOmitted + data.timeline.candidateOmitted;
  if (omitted > 0) s.append(el("p", { class: "note" }, [omitted + " later attempt(s) not drawn"]));
  return s;
}

const TABLE_ROWS = 300;  // divergence rows drawn until "show all" is clicked

function renderDivergences(data, all) {
  const s = section("divergences", "Divergences",
    data.divergences.length === 0 ? "None: the candidate decided as the reference did." : null);
  if (data.divergences.length === 0) return s;
  const listed = all ? data.divergences : data.divergences.slice(0, TABLE_ROWS);
  const head = el("tr", {}, ["t", "class", "pod", "attempt", "what", "reference", "candidate", "plugins"]
    .map((h) => el("th", {}, [h])));
  const rows = listed.map((d) => {
    const podIndex = data.paths.findIndex((p) => p.pod === d.pod);
    const pod = podIndex >= 0 ? el("a", { href: "#path-" + podIndex }, [d.pod]) : d.pod;
    return el("tr", { class: "divergence " + d.class }, [
      el("td", { class: "num" }, [seconds(d.t)]),
      el("td", {}, [el("span", { class: "badge " + d.class }, [d.class])]),
      el("td", { class: "pod" }, [pod]),
      el("td", { class: "num" }, [d.attempt ? String(d.attempt) : "\u2013"]),
      el("td", {}, [d.what]),
      el("td", {}, [longText(d.reference)]),
      el("td", {}, [longText(d.candidate)]),
      el("td", {}, [d.plugins.join(", ")]),
    ]);
  });
  s.append(el("table", { class: "divergence-table" }, [el("thead", {}, [head]), el("tbody", {}, rows)]));
  if (listed.length < data.divergences.length) {
    const more = el("button", { type: "button", id: "show-all-divergences" },
      ["show all " + data.divergences.length]);
    more.addEventListener("click", () => s.replaceWith(renderDivergences(data, true)));
    s.append(el("p", { class: "note" }, [(data.divergences.length - listed.length) + " more ", more]));
  }
  if (data.divergencesOmitted > 0) {
    s.append(el("p", { class: "note" }, [data.divergencesOmitted + " more not in this report (neither here nor in the timeline)"]));
  }
  return s;
}

// Each divergent pod's steps, reference and candidate side by side, aligned by step number;
// a row whose two sides differ is highlighted.
function renderPaths(data) {
  const s = section("paths", "Divergent pods' paths through the queue",
    data.paths.length === 0 ? "No divergent pod." : "Step by step; rows where the sides differ are highlighted.");
  data.paths.forEach((p, i) => {
    const n = Math.max(p.reference.length, p.candidate.length);
    const rows = [];
    for (let k = 0; k < n; k++) {
      const a = p.reference[k], b = p.candidate[k];
      const same = a && b && a.t === b.t && a.text === b.text;
      const cell = (step) => step
        ? [el("td", { class: "num" }, [seconds(step.t)]),
           el("td", { class: "step " + step.kind + (step.result ? " result-" + step.result : "") }, [longText(step.text)])]
        : [el("td", {}, []), el("td", { class: "step none" }, ["\u2014"])];
      rows.push(el("tr", { class: same ? "same" : "differs" }, [...cell(a), ...cell(b)]));
    }
    const head = el("tr", {}, [el("th", { colspan: 2 }, ["reference"]), el("th", { colspan: 2 }, ["candidate"])]);
    s.append(el("div", { class: "path", id: "path-" + i }, [
      el("h3", { class: "pod-name" }, [p.pod]),
      el("table", { class: "path-table" }, [el("thead", {}, [head]), el("tbody", {}, rows)]),
    ]));
  });
  if (data.pathsOmitted > 0) s.append(el("p", { class: "note" }, [data.pathsOmitted + " more divergent pod(s) not shown"]));
  return s;
}

function renderQueues(data) {
  const s = section("queues", "Queue sizes over time",
    "Pods in each sub-queue after every instant (long logs: the maximum per time bucket).");
  const all = data.queues.reference.concat(data.queues.candidate);
  const yMax = Math.max(1, ...all.map((p) => Math.max(p[1], p[2], p[3])));
  const width = 1000, height = 140, left = 90, plot = width - left - 20, top = 10;
  const scale = timeScale(data, left, plot);
  const y = (v) => top + height - (v / yMax) * height;
  for (const side of ["reference", "candidate"]) {
    const chart = svg("svg", { viewBox: "0 0 " + width + " " + (height + 40), class: "chart queue-chart", "data-side": side });
    drawAxis(chart, scale, top + height, height);
    chart.append(svg("text", { x: 4, y: top + 12, class: "lane" }, [side]));
    for (const v of ticks(0, yMax, 4)) {
      chart.append(svg("text", { x: left - 6, y: y(v) + 4, class: "tick", "text-anchor": "end" }, [String(v)]));
    }
    const points = data.queues[side];
    for (const series of QUEUE_SERIES) {
      if (points.length === 0) break;
      // A step line: a size holds until the next instant, and after the last one to the end.
      let before = 0;  // the size at the start of the range shown
      for (const p of points) if (p[0] <= scale.from) before = p[series.index];
      let d = "M" + scale.x(scale.from) + "," + y(before);
      for (const p of points) if (p[0] > scale.from && p[0] <= scale.to) d += "H" + scale.x(p[0]) + "V" + y(p[series.index]);
      d += "H" + scale.x(scale.to);
      chart.append(svg("path", { d: d, stroke: series.color, fill: "none", class: "series", "data-series": series.name }));
    }
    s.append(chart);
  }
  s.append(el("p", { class: "legend" }, QUEUE_SERIES.map((q) =>
    el("span", { style: "color:" + q.color }, ["\u25a0 " + q.name + " "]))));
  return s;
}

function lineClass(line) {
  if (/rejected by|unschedulable by|Unschedulable/.test(line)) return "rejected";
  if (/: feasible$/.test(line)) return "feasible";
  if (/outcome:/.test(line)) return "outcome";
  return "";
}

// diff::ExplainAt's text for the first divergent attempt, one column per side.
function renderExplanation(data) {
  const s = section("explanation", "First divergent attempt, explained",
    data.explanation ? "Lines on a yellow ground differ from the other side's."
      : "Not available: give --trace (the cluster trace the reference was replayed from).");
  if (!data.explanation) return s;
  if (data.explanation.header) s.append(el("p", { class: "intro" }, [data.explanation.header]));
  // With two sides, a line (a node's filter status, its scores, the outcome) that the other side
  // does not have is marked: that is where the two configurations part.
  const sides = data.explanation.sections.filter((sec) => sec.lines.length > 0);
  const other = (sec) => sides.length === 2 && sides.includes(sec) ? new Set(sides[sides[0] === sec ? 1 : 0].lines) : null;
  const columns = data.explanation.sections.map((sec) => {
    const theirs = other(sec);
    return el("div", { class: "explain-side" }, [
      el("h3", {}, [sec.title]),
      el("pre", {}, sec.lines.map((line) => el("span", {
        class: "line " + lineClass(line) + (theirs && !theirs.has(line) ? " differs" : ""),
      }, [line + "\n"]))),
    ]);
  });
  s.append(el("div", { class: "explain-grid" }, columns));
  return s;
}

// Score drift between the two logs' recorded scores (report --scores), as the diff prints it.
function renderScoreDrift(data) {
  const s = section("score-drift", "Score drift",
    "Attempts both sides placed alike whose recorded scores differ (docs/FORMATS.md, Scores).");
  s.append(el("pre", {}, data.scoreDrift.map((line) => line + "\n")));
  return s;
}

function render() {
  const data = JSON.parse(document.getElementById("report-data").textContent);
  const app = document.getElementById("app");
  // The page carries the verdict, counts and divergence table as markup for readers without
  // JavaScript (static_html.h); drawn here again with the rest, they replace it.
  app.replaceChildren();
  app.append(renderHeader(data), renderTimeline(data), renderDivergences(data), renderPaths(data),
    renderQueues(data), renderExplanation(data));
  if (data.scoreDrift) app.append(renderScoreDrift(data));
  if (!document.body.getAttribute("data-rendered").startsWith("error")) {
    document.body.setAttribute("data-rendered", "ok");
  }
}

try {
  render();
} catch (e) {
  document.body.setAttribute("data-rendered", "error: " + (e && e.stack ? e.stack : e));
}
