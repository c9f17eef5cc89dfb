// The review of a finished game on the board (issue 42), as lichess's
// analysis board and chess.com's Game Review show one: every roll stepped
// through (the buttons, ← and →, a tap on the chart), the board as it
// stood before the roll, the move played and the coach's better one drawn
// as arrows along the squares they walk (solid and dashed, each labelled),
// the move's grade and reason, each colour's chance over the game with a
// cursor and the turning points. The server says it all in the viewer's
// words (GET api/games/{id}/review); this draws it with app.js's board.
"use strict";

// The arrows: what was played, solid; the coach's better move, dashed.
const reviewArrows = {
  played: { color: "#4c1d95", dash: "", tag: "reviewPlayed" },
  better: { color: "#0f5f57", dash: "0.34 0.2", tag: "reviewBetter" },
};

// chartColors are the seats' lines on the dark chart, as the result's
// chart draws them (render's seatLineColors); chartDashes tell them apart
// without colour, as their end letters do.
const chartColors = { red: "#f9244b", green: "#85e0b3", yellow: "#fafa38", blue: "#3385cc" };
const chartDashes = ["", "7 3", "2 3", "9 3 2 3"];

// The grades' marks beside their words, as chess annotates moves.
const gradeMarks = { best: "★", good: "✓", forced: "□", inaccuracy: "?!", mistake: "?", blunder: "??" };

// openReview shows finished game id as its review, from its first roll.
async function openReview(id) {
  if (state.socket) { state.socket.onclose = null; state.socket.close(); state.socket = null; }
  clearTimeout(state.reviewTimer);
  Object.assign(state, { gameId: id, live: null, lastPush: "", selected: null, anims: [], hint: null, review: null, step: 0 });
  document.body.dataset.view = "review";
  document.body.dataset.status = "finished";
  $("said").setAttribute("aria-live", "off"); // the step is said once, in #announce
  $("announce").replaceChildren();
  note("");
  await loadReview(id);
}

// loadReview reads the review of game id and draws it at the step shown;
// until the coach has graded it whole, it reads it again now and then.
async function loadReview(id) {
  let rv;
  try {
    rv = await api("GET", `api/games/${id}/review`);
  } catch (e) {
    if (state.gameId === id) note(e.message);
    return;
  }
  if (state.gameId !== id || document.body.dataset.view !== "review") return;
  const first = !state.review;
  state.review = rv;
  state.step = Math.min(state.step, rv.Steps.length - 1);
  if (first) buildReview();
  showStep(state.step, !first);
  if (!rv.Final) state.reviewTimer = setTimeout(() => loadReview(id), 10000);
}

// buildReview lays out what stays while the steps change: the bar's
// buttons (kept, so that the focus stays on the one pressed), the chart
// and the list of turning points.
function buildReview() {
  const T = state.texts, rv = state.review, actions = $("actions");
  actions.replaceChildren();
  const nav = [["first", "⏮", T.reviewFirst, () => showStep(0)], ["previous", "◀", T.reviewPrevious, () => showStep(state.step - 1)],
    ["next", "▶", T.reviewNext, () => showStep(state.step + 1)], ["last", "⏭", T.reviewLast, () => showStep(rv.Steps.length - 1)]];
  for (const [act, icon, label, go] of nav) {
    const b = button(icon, "secondary", () => { if (b.getAttribute("aria-disabled") !== "true") go(); }, act);
    b.setAttribute("aria-label", label);
    b.title = label;
    actions.append(b);
  }
  $("game-no").textContent = format(T.gameNo, rv.Game);
  $("review").hidden = false;
  $("lobby").hidden = true;
  $("add-computer").hidden = true;
  $("suggested").replaceChildren();
  $("legend").textContent = "";
  $("review-chances").textContent = T.reviewChances;
  $("chart-help").textContent = T.reviewChart;
  const chart = $("chart");
  chart.setAttribute("aria-label", T.reviewChances);
  chart.onclick = (e) => {
    const box = chart.getBoundingClientRect(), g = chartGeometry();
    const x = ((e.clientX - box.left) / box.width) * g.W;
    showStep(Math.round((x - g.left) / g.dx));
    chart.focus();
  };
  const ol = $("turning");
  ol.replaceChildren();
  for (const tp of rv.Turning || []) {
    const li = document.createElement("li");
    li.append(button(tp.Text, "secondary turning", () => showStep(tp.Step), "turning-" + tp.Number));
    ol.append(li);
  }
  ol.hidden = !ol.children.length;
}

// showStep draws step i of the review (clamped to the game's steps): the
// board before its roll with the arrows of its moves, what the bar, the
// seats and the card say of it, the chart's cursor; and says it.
function showStep(i, quiet) {
  const rv = state.review, T = state.texts;
  if (!rv) return;
  i = Math.max(0, Math.min(rv.Steps.length - 1, i));
  const moved = i !== state.step;
  state.step = i;
  const st = rv.Steps[i], end = i === rv.Steps.length - 1;
  const live = {
    Game: rv.Game, Status: "finished", ToMove: st.Color, Roll: st.Roll, Winner: end ? rv.Winner : "",
    Pawns: st.Board.Pawns, Blocks: st.Board.Blocks,
    Seats: rv.Seats.map((s, k) => ({ Color: s.Color, Name: s.Name, Computer: !!s.Computer, Home: st.Board.Home[k], Chance: -1 })),
  };
  state.live = live;
  drawPieces(live, []);
  drawArrows(st);
  document.body.dataset.step = i;
  document.body.dataset.turn = st.Turn;
  document.body.dataset.winner = live.Winner;
  markdown($("said"), st.Head);
  for (const b of $("actions").querySelectorAll("button")) {
    const off = (b.dataset.act === "first" || b.dataset.act === "previous") ? i === 0 : i === rv.Steps.length - 1;
    b.setAttribute("aria-disabled", off ? "true" : "false");
  }
  renderReviewSeats(st);
  renderStepCard(st);
  drawChart();
  renderCells();
  if (moved || !quiet) {
    const line = document.createElement("p");
    line.textContent = st.Said;
    $("announce").replaceChildren(line);
  }
  $("review-note").textContent = rv.Note || "";
}

// stepKeys steps through the review with ← and → (Home and End: the
// first and last), wherever the focus is but on the board's squares,
// whose arrows walk the board, and in a field.
function stepKeys(e) {
  if (document.body.dataset.view !== "review" || !state.review || e.altKey || e.ctrlKey || e.metaKey) return;
  if (e.target.closest && (e.target.closest("#cells") || e.target.closest("input, select, textarea"))) return;
  const go = { ArrowLeft: state.step - 1, ArrowRight: state.step + 1, Home: 0, End: state.review.Steps.length - 1 }[e.key];
  if (go === undefined) return;
  e.preventDefault();
  showStep(go);
}
document.addEventListener("keydown", stepKeys);

// renderReviewSeats lists the seats with the coach's accuracy of each
// person, the one who rolled marked.
function renderReviewSeats(st) {
  const ol = $("seats"), T = state.texts;
  ol.replaceChildren();
  for (const s of state.review.Seats) {
    const li = document.createElement("li");
    li.dataset.color = s.Color;
    if (s.Color === st.Color) li.classList.add("to-move");
    const dot = document.createElement("span");
    dot.className = "dot";
    dot.style.background = pawnStyle(s.Color).Fill;
    const name = document.createElement("span");
    name.className = "name";
    name.textContent = s.Name;
    const meta = document.createElement("span");
    meta.className = "meta";
    if (s.Accuracy) {
      meta.textContent = s.Accuracy;
      meta.title = format(T.reviewAccuracy, s.Accuracy);
      meta.setAttribute("aria-label", meta.title);
    }
    li.append(dot, name, meta);
    ol.append(li);
  }
}

// renderStepCard says the step beside the board: the grade, the move
// played and the better one, each with the arrow that draws it.
function renderStepCard(st) {
  const T = state.texts, card = $("review-step");
  card.replaceChildren();
  const line = (cls, text) => {
    const p = document.createElement("p");
    p.className = cls;
    if (text) p.textContent = text;
    card.append(p);
    return p;
  };
  if (st.Grade) {
    const p = line("grade");
    p.dataset.class = st.Grade.Class;
    const badge = document.createElement("span");
    badge.className = "badge";
    badge.textContent = `${gradeMarks[st.Grade.Class] || ""} ${st.Grade.Label}`.trim();
    p.append(badge);
    if (st.Grade.Lost) p.append(" " + st.Grade.Lost);
  }
  const move = (kind, m, text) => {
    const p = line("move " + kind);
    p.append(arrowKey(kind), document.createTextNode(format(text, m.Text)));
    if (m.Why) { const why = document.createElement("span"); why.className = "why"; why.textContent = m.Why; p.append(why); }
  };
  if (st.Played) move("played", st.Played, T.reviewPlayedLine);
  else if (st.Pass) line("move", st.Pass);
  if (st.Better) move("better", st.Better, T.reviewBetterLine);
  if (st.Note) line("note", st.Note);
}

// arrowKey is a short arrow as the board draws kind's, for the card's
// lines: solid or dashed, in its colour.
function arrowKey(kind) {
  const a = reviewArrows[kind];
  const svg = document.createElementNS(SVG, "svg");
  svg.setAttribute("class", "key");
  svg.setAttribute("viewBox", "0 0 28 10");
  svg.setAttribute("aria-hidden", "true");
  el("line", { x1: 1, y1: 5, x2: 20, y2: 5, stroke: "#fff", "stroke-width": 5, "stroke-linecap": "round" }, svg);
  el("line", { x1: 1, y1: 5, x2: 20, y2: 5, stroke: a.color, "stroke-width": 3, "stroke-dasharray": a.dash ? "4 2.5" : "" }, svg);
  el("path", { d: "M19 0.5 L27.5 5 L19 9.5 z", fill: a.color, stroke: "#fff", "stroke-width": 1 }, svg);
  return svg;
}

// drawArrows draws the step's moves on the board, in layers: the squares
// their barricades go to, under the arrows, the better move's arrow under
// the one played, and the tags on top of all.
function drawArrows(st) {
  const marks = $("marks");
  marks.setAttribute("aria-hidden", "true"); // the step's words say them
  arrowDefs();
  const layers = { places: el("g", { class: "arrow-places" }, marks), lines: el("g", { class: "arrow-lines" }, marks),
    tags: el("g", { class: "arrow-tags" }, marks) };
  // Both drawn, each is moved a little aside (up and right for the
  // better one, down and left for the one played), so that where they
  // walk the same squares both show.
  const aside = st.Better && st.Played ? 0.13 : 0;
  if (st.Better) drawArrow(layers, "better", st.Better, st.Color, aside);
  if (st.Played) drawArrow(layers, "played", st.Played, st.Color, -aside);
}

// arrowDefs defines the arrowheads once: each arrow's, and a white one
// under it.
function arrowDefs() {
  const svg = $("board");
  if ($("arrow-defs")) return;
  const defs = el("defs", { id: "arrow-defs" });
  svg.prepend(defs);
  for (const [kind, color] of [["played", reviewArrows.played.color], ["better", reviewArrows.better.color], ["halo", "#fff"]]) {
    const m = el("marker", { id: "head-" + kind, viewBox: "0 0 10 10", refX: 5, refY: 5, markerWidth: 3.2, markerHeight: 3.2,
      orient: "auto", markerUnits: "strokeWidth" }, defs);
    el("path", { d: "M0,0 L10,5 L0,10 z", fill: color }, m);
  }
}

// drawArrow draws move m of color as the arrow of kind into layers: from
// the pawn (its house for one that comes out) along the squares it walks
// to where it lands, moved aside by aside (up and right); the barricade
// it took as a ghost on its new square; its tag at the head.
function drawArrow(layers, kind, m, color, aside) {
  const a = reviewArrows[kind], L = state.layout, T = state.texts;
  const pts = [];
  if (m.From === "home") { const h = houseOf(color); pts.push([h.X, h.Y - h.H / 2]); }
  for (const sq of m.Path || []) { const s = squareAt(sq); pts.push([s.X, s.Y]); }
  if (!m.Path || !m.Path.length) { const s = squareAt(m.To); pts.push([s.X, s.Y]); }
  for (const p of pts) { p[0] += aside; p[1] -= aside; }
  if (m.Place) {
    const to = squareAt(m.To), p = squareAt(m.Place), s = 0.8;
    const g = el("g", { class: "place-" + kind }, layers.places);
    el("line", { x1: to.X, y1: to.Y, x2: p.X, y2: p.Y, stroke: a.color, "stroke-width": 0.07, "stroke-dasharray": "0.12 0.12", opacity: 0.85 }, g);
    el("rect", { class: "place-mark", "data-square": m.Place, x: p.X - s / 2, y: p.Y - s / 2, width: s, height: s, rx: 0.16,
      fill: "#fff", "fill-opacity": 0.6, stroke: a.color, "stroke-width": 0.12, "stroke-dasharray": a.dash }, g);
  }
  // The head stops at the edge of what stands on the square it reaches.
  const [x1, y1] = pts[pts.length - 1], [x0, y0] = pts.length > 1 ? pts[pts.length - 2] : [x1, y1 + 1];
  const len = Math.hypot(x1 - x0, y1 - y0) || 1, cut = Math.min(0.42, len / 2);
  const tip = [x1 - ((x1 - x0) / len) * cut, y1 - ((y1 - y0) / len) * cut];
  const line = [...pts.slice(0, -1), tip].map(([x, y]) => `${x.toFixed(3)},${y.toFixed(3)}`).join(" ");
  const g = el("g", { class: "arrow " + kind, "data-from": m.From, "data-to": m.To }, layers.lines);
  el("polyline", { points: line, fill: "none", stroke: "#fff", "stroke-width": 0.3, "stroke-linejoin": "round", "stroke-linecap": "round",
    "marker-end": "url(#head-halo)", opacity: 0.9 }, g);
  el("polyline", { points: line, fill: "none", stroke: a.color, "stroke-width": 0.17, "stroke-linejoin": "round",
    "stroke-dasharray": a.dash, "marker-end": `url(#head-${kind})` }, g);
  // The tag: above the head for the move played, below it for the better.
  const label = T[a.tag] || kind, w = 0.3 + label.length * 0.25, h = 0.56;
  let tx = x1 + 0.32, ty = kind === "played" ? y1 - 0.52 - h : y1 + 0.52;
  if (tx + w > L.Width - 0.15) tx = x1 - 0.32 - w;
  ty = Math.max(0.15, Math.min(L.Height - h - 0.15, ty));
  const tag = el("g", { class: "tag " + kind }, layers.tags);
  el("rect", { x: tx, y: ty, width: w, height: h, rx: 0.16, fill: a.color, stroke: "#fff", "stroke-width": 0.05 }, tag);
  const t = text(tag, label, tx + w / 2, ty + h / 2 + 0.02, 0.4, "#fff", "coord");
  t.setAttribute("font-style", kind === "better" ? "italic" : "normal");
}

// chartGeometry is where the chart draws: its size, the plot's left edge
// and the distance between two steps.
function chartGeometry() {
  const n = state.review ? state.review.Steps.length : 1;
  const W = 320, H = 150, left = 34, right = 22, top = 20, bottom = 14;
  return { W, H, left, right, top, bottom, dx: (W - left - right) / Math.max(1, n - 1),
    y: (v) => top + (1 - v) * (H - top - bottom) };
}

// drawChart draws each seat's chance over the game, one line a seat (its
// colour, its dashes, its letter at the end), the turning points
// numbered, and the cursor at the step shown.
function drawChart() {
  const rv = state.review, chart = $("chart"), g = chartGeometry(), n = rv.Steps.length;
  chart.setAttribute("viewBox", `0 0 ${g.W} ${g.H}`);
  chart.replaceChildren();
  const x = (i) => g.left + i * g.dx;
  for (const v of [0, 0.5, 1]) {
    el("line", { x1: g.left, x2: g.W - g.right, y1: g.y(v), y2: g.y(v), stroke: "#4e5058", "stroke-width": 1 }, chart);
    const t = el("text", { x: g.left - 5, y: g.y(v) + 4, "text-anchor": "end", class: "axis" }, chart);
    t.textContent = Math.round(v * 100) + "%";
  }
  for (const tp of rv.Turning || []) {
    const tx = x(tp.Step);
    el("line", { x1: tx, x2: tx, y1: g.top - 2, y2: g.H - g.bottom, stroke: "#b5bac1", "stroke-width": 1, "stroke-dasharray": "3 3" }, chart);
    el("circle", { cx: tx, cy: g.top - 10, r: 7, fill: "#f2f3f5", class: "turning-mark", "data-step": tp.Step }, chart);
    const t = el("text", { x: tx, y: g.top - 6.5, "text-anchor": "middle", class: "turning-no" }, chart);
    t.textContent = tp.Number;
  }
  rv.Seats.forEach((s, k) => {
    const pts = rv.Steps.map((st, i) => `${x(i).toFixed(1)},${g.y(st.Chances[k]).toFixed(1)}`).join(" ");
    el("polyline", { points: pts, fill: "none", stroke: "#1e1f22", "stroke-width": 4.5, "stroke-linejoin": "round" }, chart);
    el("polyline", { class: "series", "data-color": s.Color, points: pts, fill: "none", stroke: chartColors[s.Color] || "#fff",
      "stroke-width": 2.2, "stroke-linejoin": "round", "stroke-dasharray": chartDashes[k % chartDashes.length] }, chart);
  });
  // The cursor: a line at the step, a dot on each line, each seat's letter.
  const cx = x(state.step);
  el("line", { class: "cursor", x1: cx, x2: cx, y1: g.top - 2, y2: g.H - g.bottom, stroke: "#e8b923", "stroke-width": 2 }, chart);
  const st = rv.Steps[state.step];
  rv.Seats.forEach((s, k) => {
    el("circle", { cx, cy: g.y(st.Chances[k]), r: 3.6, fill: chartColors[s.Color] || "#fff", stroke: "#1e1f22", "stroke-width": 1.5 }, chart);
  });
  // Each seat's letter where its line ends, moved apart where they meet.
  const ends = rv.Seats.map((s, k) => ({ s, y: g.y(rv.Steps[n - 1].Chances[k]) })).sort((a, b) => a.y - b.y);
  for (let k = 1; k < ends.length; k++) ends[k].y = Math.max(ends[k].y, ends[k - 1].y + 11);
  const over = ends.length ? ends[ends.length - 1].y - (g.H - 4) : 0;
  for (const e of ends) {
    const t = el("text", { x: g.W - g.right + 5, y: e.y - Math.max(0, over) + 4, class: "letter", fill: chartColors[e.s.Color] || "#fff" }, chart);
    t.textContent = pawnStyle(e.s.Color).Letter;
  }
  chart.setAttribute("aria-valuemin", 1);
  chart.setAttribute("aria-valuemax", n);
  chart.setAttribute("aria-valuenow", state.step + 1);
  chart.setAttribute("aria-valuetext", st.Head);
}
