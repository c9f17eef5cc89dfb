// The Malefiz Activity: signs in through Discord's Embedded App SDK, draws
// the board from the server's layout (the PNG's geometry and colours) and
// sends the player's taps as plays. Every URL is relative: inside Discord
// the page lives under the proxy prefix /.proxy/.
"use strict";

const SVG = "http://www.w3.org/2000/svg";
const params = new URLSearchParams(location.search);
const $ = (id) => document.getElementById(id);

const state = {
  texts: {}, layout: null, session: "", gameId: 0, live: null,
  selected: null, // the origin ("home" or a square) of the pawn picked
  pending: new Set(), // the requests in flight, by what they ask
  anims: [], // the pieces to slide in on the next drawing
  hint: null, // the hint asked for this turn: { Turn, From, To, Text }
  focus: "", // the cell (see cellId) that keeps the board's one tab stop
};

// format fills the Go verbs of text with args: %s and %d in turn, %[n]s
// and %[n]d the n-th (a verb after it takes the next), as fmt does.
function format(text, ...args) {
  let i = 0;
  return text.replace(/%(?:\[(\d+)\])?[sd]/g, (_, n) => {
    if (n) i = Number(n) - 1;
    return String(args[i++]);
  });
}

// counted formats the counted text name with args, in the plural form
// that n takes in the page's language, as the bot's catalog picks it: the
// language's CLDR rules, and none counted in the plural where the catalog
// says so (zeroIsOther).
function counted(name, n, ...args) {
  const texts = state.texts;
  let form = new Intl.PluralRules(texts.lang).select(n);
  if (n === 0 && texts.zeroIsOther === "true") form = "other";
  return format(texts[name + "." + form] || texts[name + ".other"] || texts[name], ...args);
}

// markdown turns the bot's **bold** into text nodes and <b>.
function markdown(el, text) {
  el.replaceChildren();
  text.split(/\*\*/).forEach((part, i) => {
    const node = i % 2 ? document.createElement("b") : document.createTextNode("");
    node.textContent = part.replace(/\\([\\*_~`|>])/g, "$1");
    el.append(node);
  });
}

function note(text) { $("note").textContent = text || ""; }

async function api(method, path, body) {
  const headers = { "Content-Type": "application/json" };
  if (state.session) headers.Authorization = "Bearer " + state.session;
  const resp = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const data = await resp.json().catch(() => ({}));
  if (!resp.ok) throw Object.assign(new Error(data.error || resp.statusText), { status: resp.status });
  return data;
}

// signIn runs Discord's handshake: ready, authorize (identify only), the
// code exchanged by the server, authenticate. Outside Discord (no
// frame_id) the SDK's own mock stands in for the client, its authorize
// answered by the sandbox.
async function signIn(cfg) {
  const { DiscordSDK, DiscordSDKMock } = window.DiscordEmbedded;
  let sdk;
  if (params.has("frame_id")) {
    sdk = new DiscordSDK(cfg.clientId);
  } else {
    if (!cfg.sandbox) throw new Error(state.texts.signInFailed);
    sdk = new DiscordSDKMock(cfg.clientId, params.get("guild") || cfg.guild, params.get("channel") || cfg.channel, null);
    const user = params.get("user") || "";
    sdk._updateCommandMocks({
      authorize: async (args) => {
        const r = await api("POST", "sandbox/authorize", { User: user, Scope: args.scope });
        return { code: r.code };
      },
      authenticate: async (args) => ({
        access_token: args.access_token, scopes: ["identify"], expires: new Date(Date.now() + 3600e3).toISOString(),
        user: { id: user, username: "sandbox", discriminator: "0", avatar: null, public_flags: 0 },
        application: { id: cfg.clientId, name: "Malefiz", description: "", icon: null, rpc_origins: [] },
      }),
    });
  }
  await sdk.ready();
  const { code } = await sdk.commands.authorize({
    client_id: cfg.clientId, response_type: "code", state: "", prompt: "none", scope: ["identify"],
  });
  // Where the Activity was opened, as the client says; the server
  // believes the guild once Discord says the user is a member there.
  // Locale: the language of a refusal before Discord names the user.
  const tok = await api("POST", "api/token", { Code: code, Guild: sdk.guildId || "", Channel: sdk.channelId || "",
    Locale: navigator.language || "" });
  await sdk.commands.authenticate({ access_token: tok.access_token });
  state.session = tok.session;
  state.texts = tok.texts;
  state.user = tok.user;
  // The session lives two hours: renewed every half hour while the page
  // is open (up to the evening the sign-in allows), and said again on
  // the socket, which the server would otherwise close as it expires.
  setInterval(renewSession, 30 * 60 * 1000);
  return sdk;
}

// ---- drawing ----

function el(name, attrs, parent) {
  const e = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
  if (parent) parent.append(e);
  return e;
}

function squareAt(name) { return state.layout.Squares.find((s) => s.Name === name); }
function pawnStyle(color) { return state.layout.Pawns.find((p) => p.Color === color); }
function houseOf(color) { return state.layout.Houses.find((h) => h.Color === color); }

// drawBase draws what never changes: ground, lines, squares, coordinates.
function drawBase(svg) {
  const L = state.layout, C = L.Colors, S = L.Sizes;
  svg.setAttribute("viewBox", `0 0 ${L.Width} ${L.Height}`);
  const g = el("g", { id: "base" }, svg);
  el("rect", { width: L.Width, height: L.Height, fill: C.frame }, g);
  el("rect", { x: 0.12, y: 0.12, width: L.Width - 0.24, height: L.Height - 0.24, rx: 0.5, fill: C.ground }, g);
  for (const [a, b] of L.Lines) {
    const p = L.Squares[a], q = L.Squares[b];
    el("line", { x1: p.X, y1: p.Y, x2: q.X, y2: q.Y, stroke: C.line, "stroke-width": S.Line }, g);
  }
  for (const h of L.Houses) {
    const e = L.Squares[h.Entry];
    el("line", { x1: e.X, y1: e.Y, x2: e.X, y2: h.LineTo, stroke: C.line, "stroke-width": S.Line }, g);
  }
  for (const s of L.Squares) {
    if (s.Goal) {
      el("circle", { cx: s.X, cy: s.Y, r: 0.52, fill: C.line }, g);
      el("circle", { cx: s.X, cy: s.Y, r: 0.45, fill: C.goal }, g);
      el("circle", { cx: s.X, cy: s.Y, r: 0.36, fill: C.line }, g);
      el("polygon", { points: star(s.X, s.Y + 0.02, 0.28, 0.12), fill: C.goal }, g);
      continue;
    }
    if (s.BarricadeStart) el("circle", { cx: s.X, cy: s.Y, r: S.Ring, fill: C.ring }, g);
    el("circle", { cx: s.X, cy: s.Y, r: S.Square, fill: C.line }, g);
  }
  const cols = "abcdefghijklmnopq";
  const row1 = L.Squares.find((s) => s.Name.endsWith("1") && !s.Name.endsWith("11")).Y;
  for (let i = 0; i < 17; i++) {
    const x = i + 1.5;
    for (const y of [0.52, row1 + 0.95]) {
      if (y !== 0.52) el("circle", { cx: x, cy: y, r: 0.3, fill: C.ground }, g);
      text(g, cols[i], x, y, 0.62, C.coord, "coord");
    }
  }
  for (let row = 1; row <= 14; row++) {
    const y = 15.4 - row;
    text(g, String(row), 0.55, y, 0.62, C.coord, "coord");
    text(g, String(row), L.Width - 0.55, y, 0.62, C.coord, "coord");
  }
  el("g", { id: "houses", "aria-hidden": "true" }, svg);
  el("g", { id: "pieces", "aria-hidden": "true" }, svg);
  el("g", { id: "marks" }, svg);
  el("g", { id: "panel", "aria-hidden": "true" }, svg);
  drawCells(svg);
}

// ---- the board for a screen reader and the keyboard ----

// drawCells lays a named, focusable cell over every square and every
// home: its name says what stands there (renderCells), Enter plays it,
// the arrow keys go to the nearest cell that way. The board is one tab
// stop (a roving tabindex); the pieces drawn below are hidden from
// screen readers, whose cells name them. Cells take no pointer: a tap
// goes to the marks as before.
function drawCells(svg) {
  const L = state.layout;
  svg.setAttribute("aria-label", state.texts.boardLabel || "Malefiz");
  const cells = el("g", { id: "cells" }, svg);
  const cell = (id, x, y, shape) => {
    const g = el("g", { class: "cell", role: "button", tabindex: "-1", "data-cell": id, "data-x": x, "data-y": y }, cells);
    el(shape[0], { class: "ring", ...shape[1] }, g);
    return g;
  };
  for (const s of L.Squares) cell("sq:" + s.Name, s.X, s.Y, ["circle", { cx: s.X, cy: s.Y, r: 0.5 }]);
  for (const h of L.Houses) {
    cell("home:" + h.Color, h.X, h.Y, ["rect", { x: h.X - h.W / 2 - 0.12, y: h.Y - h.H / 2 - 0.12, width: h.W + 0.24, height: h.H + 0.24, rx: 0.4 }]);
  }
  state.focus = "sq:" + L.Squares[0].Name;
  cells.addEventListener("focusin", (e) => {
    const c = e.target.closest(".cell");
    if (c) { state.focus = c.dataset.cell; rove(); }
  });
  cells.addEventListener("keydown", (e) => {
    const c = e.target.closest(".cell");
    if (!c) return;
    const dir = { ArrowRight: [1, 0], ArrowLeft: [-1, 0], ArrowDown: [0, 1], ArrowUp: [0, -1] }[e.key];
    if (dir) {
      e.preventDefault();
      const next = nearest(c, dir);
      if (next) next.focus();
    } else if (e.key === "Enter" || e.key === " ") {
      e.preventDefault();
      playCell(c.dataset.cell);
    }
  });
}

// rove keeps the board's one tab stop on the cell in focus.
function rove() {
  for (const c of $("cells").children) c.tabIndex = c.dataset.cell === state.focus ? 0 : -1;
}

// nearest is the cell closest to from in direction dir ([dx, dy]): ahead
// of it, sideways offsets counting double.
function nearest(from, [dx, dy]) {
  const x0 = Number(from.dataset.x), y0 = Number(from.dataset.y);
  let best = null, bestScore = Infinity;
  for (const c of $("cells").children) {
    const ax = Number(c.dataset.x) - x0, ay = Number(c.dataset.y) - y0;
    const ahead = ax * dx + ay * dy, side = Math.abs(ax * dy - ay * dx);
    if (ahead <= 0.01) continue;
    const score = ahead + 2 * side;
    if (score < bestScore) { best = c; bestScore = score; }
  }
  return best;
}

// seatLabel names a colour's seat as the pictures' alt text does: its
// name, then its colour.
function seatLabel(color) {
  const seat = ((state.live && state.live.Seats) || []).find((s) => s.Color === color);
  const name = state.texts[color] || color;
  return seat ? `${seat.Name} (${name})` : name;
}

// offered is what the player may do now: the pawns' origins, the
// destinations of the pawn picked (by square), the squares for a taken
// barricade.
function offered() {
  const live = state.live || {}, you = live.YourTurn;
  const moves = you && live.Phase === "move" ? live.Moves || [] : [];
  return {
    origins: new Set(moves.map((m) => m.From)),
    targets: new Map(moves.filter((m) => m.From === state.selected).map((m) => [m.To, m])),
    places: new Set(you && live.Phase === "place" ? live.Places || [] : []),
  };
}

// playCell does what Enter on a cell does: pick (or drop) the pawn on it,
// move the pawn picked there, or put the barricade there.
function playCell(id) {
  const [kind, where] = id.split(":");
  const o = offered(), from = kind === "home" ? (where === state.live.ToMove ? "home" : "") : where;
  if (kind === "sq" && o.targets.has(where)) { send("move", `${state.selected}-${where}`); return; }
  if (kind === "sq" && o.places.has(where)) { send("place", where); return; }
  if (from && o.origins.has(from)) { state.selected = state.selected === from ? null : from; render(); }
}

// renderCells names every cell for what stands on it and what Enter does
// there.
function renderCells() {
  const live = state.live, T = state.texts, L = state.layout;
  const lobby = live.Status === "lobby";
  const at = new Map((live.Pawns || []).map((p) => [p.Square, p.Color]));
  const blocks = new Set(lobby ? L.Squares.filter((s) => s.BarricadeStart).map((s) => s.Name) : live.Blocks || []);
  const o = offered();
  for (const c of $("cells").children) {
    const [kind, where] = c.dataset.cell.split(":");
    let label, can = false;
    if (kind === "home") {
      const seat = (live.Seats || []).find((s) => s.Color === where);
      const home = !seat ? 0 : lobby ? L.Houses.find((h) => h.Color === where).Slots.length : seat.Home;
      label = counted("house", home, seatLabel(where), home);
      if (where === live.ToMove && o.origins.has("home")) { label += " · " + T.canMove; can = true; }
    } else {
      if (at.has(where)) label = format(T.squarePawn, where, seatLabel(at.get(where)));
      else if (blocks.has(where)) label = format(T.squareBarricade, where);
      else if (squareAt(where).Goal) label = format(T.squareGoal, where);
      else label = format(T.square, where);
      if (o.origins.has(where)) { label += " · " + T.canMove; can = true; }
      if (o.targets.has(where)) { label += " · " + T.moveHere; can = true; }
      if (o.places.has(where)) { label += " · " + T.placeHere; can = true; }
    }
    c.setAttribute("aria-label", label);
    if (can) c.removeAttribute("aria-disabled"); else c.setAttribute("aria-disabled", "true");
  }
  rove();
}

// announce says in the live region what the push changed: each pawn's
// move, a pawn sent home, a barricade put down.
function announce(anims) {
  const T = state.texts, parts = [];
  for (const a of [...anims].sort((x, y) => (x.to === "home") - (y.to === "home"))) {
    if (!a.color) parts.push(format(T.barricadeTo, a.to));
    else if (a.to === "home") parts.push(format(T.captured, seatLabel(a.color)));
    else if (a.from === "home") parts.push(format(T.movedOut, seatLabel(a.color), a.to));
    else parts.push(format(T.moved, seatLabel(a.color), a.from, a.to));
  }
  if (!parts.length) return;
  // Each push a line of its own: a live region reads what is added, and
  // the last few stay for a reader who comes back to them.
  const box = $("announce"), line = document.createElement("p");
  line.textContent = parts.join("; ") + ".";
  box.append(line);
  while (box.children.length > 5) box.firstElementChild.remove();
}

function star(x, y, outer, inner) {
  const pts = [];
  for (let i = 0; i < 10; i++) {
    const r = i % 2 ? inner : outer, a = (i * Math.PI) / 5;
    pts.push(`${(x + r * Math.sin(a)).toFixed(3)},${(y - r * Math.cos(a)).toFixed(3)}`);
  }
  return pts.join(" ");
}

function text(parent, s, x, y, size, fill, cls) {
  const t = el("text", { x, y, "font-size": size, fill, class: cls || "" }, parent);
  t.textContent = s;
  return t;
}

function drawPawn(parent, color, x, y) {
  const st = pawnStyle(color), r = state.layout.Sizes.Pawn;
  const g = el("g", { class: "pawn" }, parent);
  el("circle", { cx: x + 0.03, cy: y + 0.06, r, fill: state.layout.Colors.line, opacity: 0.35 }, g);
  el("circle", { cx: x, cy: y, r, fill: st.Dark }, g);
  el("circle", { cx: x, cy: y, r: r - 0.07, fill: st.Fill }, g);
  el("circle", { cx: x - 0.1, cy: y - 0.12, r: 0.1, fill: st.Light, opacity: 0.8 }, g);
  text(g, st.Letter, x, y + 0.02, 0.42, st.Text);
  return g;
}

function drawBarricade(parent, x, y) {
  const C = state.layout.Colors, s = 0.84, inn = s - 0.14;
  el("rect", { x: x - s / 2 + 0.04, y: y - s / 2 + 0.07, width: s, height: s, rx: 0.16, fill: C.line, opacity: 0.35 }, parent);
  el("rect", { x: x - s / 2, y: y - s / 2, width: s, height: s, rx: 0.16, fill: C.line }, parent);
  el("rect", { x: x - inn / 2, y: y - inn / 2, width: inn, height: inn, rx: 0.1, fill: C.barricadeShade }, parent);
  el("rect", { x: x - inn / 2, y: y - inn / 2, width: inn, height: inn - 0.12, rx: 0.1, fill: C.barricade }, parent);
}

function drawDie(parent, n, x, y, s) {
  const C = state.layout.Colors;
  el("rect", { x: x - s / 2, y: y - s / 2, width: s, height: s, rx: s * 0.18, fill: C.line }, parent);
  const inn = s * 0.92;
  el("rect", { x: x - inn / 2, y: y - inn / 2, width: inn, height: inn, rx: s * 0.15, fill: "#fff" }, parent);
  const o = s * 0.26, pips = {
    1: [[0, 0]], 2: [[-1, -1], [1, 1]], 3: [[-1, -1], [0, 0], [1, 1]], 4: [[-1, -1], [1, -1], [-1, 1], [1, 1]],
    5: [[-1, -1], [1, -1], [0, 0], [-1, 1], [1, 1]], 6: [[-1, -1], [1, -1], [-1, 0], [1, 0], [-1, 1], [1, 1]],
  }[n] || [];
  for (const [dx, dy] of pips) el("circle", { cx: x + dx * o, cy: y + dy * o, r: s * 0.09, fill: C.pip }, parent);
}

// interactive makes a mark a button for touch, mouse and keyboard.
function interactive(g, label, act) {
  g.setAttribute("tabindex", "0");
  g.setAttribute("role", "button");
  g.setAttribute("aria-label", label);
  g.addEventListener("click", (e) => { e.stopPropagation(); act(); });
  g.addEventListener("keydown", (e) => {
    if (e.key === "Enter" || e.key === " ") { e.preventDefault(); act(); }
  });
}

// changes finds what moved between two states: per colour the pawn that
// left a square (or its house) and the one that arrived, and the
// barricade (colour "") that was taken and placed; each with where it
// was drawn before.
function changes(prev, live) {
  const out = [];
  if (!prev || !live || prev.Game !== live.Game) return out;
  const at = (l) => new Map((l.Pawns || []).map((p) => [p.Square, p.Color]));
  const before = at(prev), after = at(live);
  const home = (l, c) => ((l.Seats || []).find((s) => s.Color === c) || { Home: 0 }).Home;
  for (const seat of live.Seats || []) {
    const c = seat.Color;
    const left = [...before].filter(([sq, col]) => col === c && after.get(sq) !== c).map(([sq]) => sq);
    const came = [...after].filter(([sq, col]) => col === c && before.get(sq) !== c).map(([sq]) => sq);
    const from = left[0] || (home(live, c) < home(prev, c) ? "home" : null);
    const to = came[0] || (home(live, c) > home(prev, c) ? "home" : null);
    if (from && to) out.push({ color: c, from, to, fromXY: spot(from, c, home(prev, c) - 1) });
  }
  const gone = (prev.Blocks || []).filter((b) => !(live.Blocks || []).includes(b));
  const added = (live.Blocks || []).filter((b) => !(prev.Blocks || []).includes(b));
  if (gone.length === 1 && added.length === 1) out.push({ color: "", from: gone[0], to: added[0], fromXY: spot(gone[0]) });
  // A barricade taken earlier (lifted off Pending.To) is put down.
  if (!gone.length && added.length === 1 && prev.Pending) {
    out.push({ color: "", from: prev.Pending.To, to: added[0], fromXY: spot(prev.Pending.To) });
  }
  return out;
}

// spot is where a square, or a colour's house slot, is drawn.
function spot(where, color, slot) {
  if (where !== "home") { const s = squareAt(where); return [s.X, s.Y]; }
  const h = houseOf(color);
  return h.Slots[Math.max(0, Math.min(slot, h.Slots.length - 1))];
}

// animate slides a piece drawn at (x, y) in from where it was.
function animate(g, a, x, y) {
  if (!a || !g.animate || matchMedia("(prefers-reduced-motion: reduce)").matches) return;
  const [fx, fy] = a.fromXY;
  document.body.dataset.animated = Number(document.body.dataset.animated || 0) + 1;
  g.animate([{ transform: `translate(${fx - x}px, ${fy - y}px)` }, { transform: "translate(0px, 0px)" }],
    { duration: 450, easing: "cubic-bezier(.3,.7,.4,1)" });
}

// drawPieces draws live's houses, barricades and pawns (sliding in those
// of anims), a barricade lifted off the square its pawn took, and the
// card of whose turn it is with the die, or of the winner.
function drawPieces(live, anims) {
  const L = state.layout;
  const houses = $("houses"), pieces = $("pieces"), marks = $("marks"), panel = $("panel");
  houses.replaceChildren(); pieces.replaceChildren(); marks.replaceChildren(); panel.replaceChildren();
  const seats = live.Seats || [];
  const inPlay = new Set(seats.map((s) => s.Color));
  for (const h of L.Houses) {
    const st = pawnStyle(h.Color), on = inPlay.has(h.Color);
    if (live.ToMove === h.Color) {
      el("rect", { x: h.X - h.W / 2 - 0.2, y: h.Y - h.H / 2 - 0.2, width: h.W + 0.4, height: h.H + 0.4, rx: 0.52, fill: "#fff", stroke: L.Colors.line, "stroke-width": 0.08 }, houses);
    }
    el("rect", { x: h.X - h.W / 2, y: h.Y - h.H / 2, width: h.W, height: h.H, rx: 0.32, fill: on ? st.Tint : "#e2cea0", stroke: on ? st.Dark : "#b0966a", "stroke-width": 0.07 }, houses);
    const seat = seats.find((s) => s.Color === h.Color);
    const home = !seat ? 0 : live.Status === "lobby" ? h.Slots.length : seat.Home;
    h.Slots.forEach(([x, y], i) => {
      el("circle", { cx: x, cy: y, r: 0.36, fill: "#0000", stroke: on ? st.Dark : "#b0966a", "stroke-opacity": 0.5, "stroke-width": 0.04 }, houses);
      if (i < home) {
        const g = drawPawn(pieces, h.Color, x, y);
        if (i === home - 1) animate(g, anims.find((a) => a.color === h.Color && a.to === "home"), x, y);
      }
    });
  }
  const blocks = live.Status === "lobby" ? L.Squares.filter((s) => s.BarricadeStart).map((s) => s.Name) : live.Blocks || [];
  for (const b of blocks) {
    const s = squareAt(b), g = el("g", { class: "barricade", "data-square": b }, pieces);
    drawBarricade(g, s.X, s.Y);
    animate(g, anims.find((a) => a.color === "" && a.to === b), s.X, s.Y);
  }
  for (const p of live.Pawns || []) {
    const s = squareAt(p.Square), g = drawPawn(pieces, p.Color, s.X, s.Y);
    g.setAttribute("data-square", p.Square);
    animate(g, anims.find((a) => a.color === p.Color && a.to === p.Square), s.X, s.Y);
  }
  // A move that took a barricade, waiting for its square: the pawn is
  // drawn on it, the barricade lifted above it until it is put down.
  if (live.Pending) {
    const s = squareAt(live.Pending.To);
    const g = el("g", { class: "lifted", "data-square": live.Pending.To, transform: `translate(${s.X + 0.46} ${s.Y - 0.52}) scale(0.7)` }, pieces);
    drawBarricade(g, 0, 0);
  }

  // The card beside rows 8 to 10: whose turn, the die.
  const card = { x: 1.15, y: 5.0, w: 5.75, h: 2.8 };
  if (live.ToMove || live.Winner) {
    el("rect", { x: card.x, y: card.y, width: card.w, height: card.h, rx: 0.3, fill: L.Colors.card, stroke: L.Colors.cardEdge, "stroke-width": 0.08 }, panel);
    const c = live.Winner || live.ToMove, seat = seats.find((s) => s.Color === c);
    drawPawn(panel, c, card.x + 0.8, card.y + 0.8);
    const name = seat ? seat.Name : c, short = name.length > 24 ? name.slice(0, 23) + "…" : name;
    text(panel, short, card.x + 1.4, card.y + 0.8, Math.min(0.55, 7.6 / Math.max(short.length, 1)), L.Colors.line, "name");
    if (live.Winner) text(panel, "★", card.x + 2.9, card.y + 1.9, 1.0, L.Colors.cardEdge, "coord");
    else if (live.Roll) drawDie(panel, live.Roll, card.x + 2.9, card.y + 1.85, 1.2);
  }
}

// render draws the game as the server last pushed it (a review draws
// its steps itself: review.js).
function render() {
  const live = state.live, T = state.texts;
  if (!live || document.body.dataset.view === "review") return;
  const marks = $("marks");
  const anims = state.anims;
  state.anims = [];
  drawPieces(live, anims);
  const seats = live.Seats || [];
  const you = live.YourTurn;
  const moves = live.Moves || [];
  if (you && live.Phase === "move") {
    const origins = [...new Set(moves.map((m) => m.From))];
    if (origins.length === 1) state.selected = origins[0];
    for (const from of origins) {
      const g = el("g", { class: "movable" + (state.selected === from ? " selected" : ""), "data-from": from }, marks);
      if (from === "home") { // the whole house: any pawn in it
        const h = houseOf(live.ToMove);
        el("rect", { class: "halo", x: h.X - h.W / 2 - 0.12, y: h.Y - h.H / 2 - 0.12, width: h.W + 0.24, height: h.H + 0.24, rx: 0.4 }, g);
        el("rect", { x: h.X - h.W / 2, y: h.Y - h.H / 2, width: h.W, height: h.H, fill: "#0000" }, g);
      } else {
        const s = squareAt(from);
        el("circle", { class: "halo", cx: s.X, cy: s.Y, r: 0.52 }, g);
        el("circle", { cx: s.X, cy: s.Y, r: 0.5, fill: "#0000" }, g);
      }
      const home = (seats.find((s) => s.Color === live.ToMove) || { Home: 0 }).Home;
      const name = from === "home" ? counted("house", home, seatLabel(live.ToMove), home) : format(T.squarePawn, from, seatLabel(live.ToMove));
      interactive(g, name + " · " + T.canMove, () => { state.selected = state.selected === from ? null : from; render(); });
    }
    const hint = state.hint && state.hint.Turn === live.Turn ? state.hint : null;
    for (const m of moves.filter((m) => m.From === state.selected)) {
      const s = squareAt(m.To);
      const hinted = hint && hint.From === m.From && hint.To === m.To;
      const g = el("g", { class: "target" + (m.Captures ? " captures" : "") + (hinted ? " hinted" : ""), "data-to": m.To }, marks);
      if (hinted) el("circle", { class: "hint-ring", cx: s.X, cy: s.Y, r: 0.5 }, g);
      el("circle", { class: "spot", cx: s.X, cy: s.Y, r: 0.36 }, g);
      const mark = m.Goal ? "★" : m.Barricade ? "🚧" : m.Captures ? "✕" : "";
      if (mark) text(g, mark, s.X, s.Y + 0.02, 0.5, "#fff");
      interactive(g, `${m.From} → ${m.To} · ${T.moveHere}`, () => send("move", `${m.From}-${m.To}`));
    }
  }
  const suggested = new Map((live.Suggested || []).map((s) => [s.Square, s.Reason]));
  const list = $("suggested");
  list.replaceChildren();
  if (you && live.Phase === "place") {
    for (const sq of live.Places || []) {
      const s = squareAt(sq), why = suggested.get(sq);
      const hinted = state.hint && state.hint.Turn === live.Turn && state.hint.Place === sq;
      const g = el("g", { class: "place" + (why ? " suggested" : "") + (hinted ? " hinted" : ""), "data-square": sq }, marks);
      el("circle", { class: "spot", cx: s.X, cy: s.Y, r: why ? 0.34 : 0.26 }, g);
      if (hinted) el("circle", { class: "hint-ring", cx: s.X, cy: s.Y, r: 0.5 }, g);
      if (why) el("title", {}, g).textContent = why;
      interactive(g, why ? `${sq}: ${why}` : sq, () => send("place", sq));
    }
    for (const [sq, why] of suggested) {
      const li = document.createElement("li");
      li.textContent = `🚧 ${sq} · ${why}`;
      li.tabIndex = 0;
      li.addEventListener("click", () => send("place", sq));
      li.addEventListener("keydown", (e) => { if (e.key === "Enter") send("place", sq); });
      list.append(li);
    }
  }
  renderBar();
  renderSeats();
  renderLobby();
  renderCells();
}

function renderBar() {
  const live = state.live, T = state.texts, said = $("said"), actions = $("actions");
  actions.replaceChildren();
  $("game-no").textContent = live.Game ? format(T.gameNo, live.Game) : "";
  let line = live.Said || "";
  if (live.Status === "lobby") line = T.notStarted;
  else if (live.Winner) line = format(T.won, (live.Seats.find((s) => s.Color === live.Winner) || {}).Name || live.Winner);
  else if (live.YourTurn && live.Phase === "roll") line = T.yourRoll;
  else if (live.YourTurn && live.Phase === "move") line = format(T.yourMove, live.Roll);
  else if (live.YourTurn && live.Phase === "place") line = T.yourPlace;
  else if (!live.Seats.some((s) => s.You)) line = line + " " + T.watching;
  markdown(said, line);
  if (live.Status === "lobby") {
    const seated = live.Seats.some((s) => s.You);
    if (!seated && live.Seats.length < live.SeatsMax) actions.append(button(T.join, "", () => lobby("join"), "join"));
    if (seated) actions.append(button(T.leave, "secondary", () => lobby("leave"), "leave"));
    if (live.Host && live.Seats.length >= 2) actions.append(button(T.start, "", () => lobby("start"), "start"));
  }
  if (live.YourTurn && live.Phase === "roll") actions.append(button("🎲 " + T.roll, "", () => send("roll", ""), "roll"));
  if (live.Hints) actions.append(button("💡 " + T.hint, "secondary", askHint, "hint"));
  if (live.YourTurn && live.Phase === "place") actions.append(button(T.back, "secondary", () => send("back", "")));
  if (live.Status === "finished") actions.append(button("🎓 " + T.review, "", () => openReview(live.Game), "review"));
  $("legend").textContent = live.Legend || "";
  const hint = state.hint && state.hint.Turn === live.Turn && live.YourTurn ? state.hint.Text : "";
  markdown($("hint"), hint);
}

function button(label, cls, act, id) {
  const b = document.createElement("button");
  if (id) b.dataset.act = id;
  b.textContent = label;
  b.className = cls;
  b.addEventListener("click", act);
  return b;
}

function renderSeats() {
  const ol = $("seats"), lb = state.live.Lobby;
  ol.replaceChildren();
  for (const s of state.live.Seats || []) {
    const li = document.createElement("li");
    li.dataset.color = s.Color;
    if (s.Color === state.live.ToMove) li.classList.add("to-move");
    if (s.Left) li.classList.add("left");
    const dot = document.createElement("span");
    dot.className = "dot";
    dot.style.background = pawnStyle(s.Color).Fill;
    const name = document.createElement("span");
    name.className = "name";
    name.textContent = s.Name;
    const meta = document.createElement("span");
    meta.className = "meta";
    meta.textContent = s.Chance >= 0 ? Math.round(s.Chance * 100) + "%" : "";
    li.append(dot, name, meta);
    if (lb && lb.RemoveComputers && s.Computer) {
      const x = button("✕", "secondary remove", () => lobby("removebot", s.Color), "remove-" + s.Color);
      x.setAttribute("aria-label", format(state.texts.removeComputer, s.Name));
      x.title = x.getAttribute("aria-label");
      li.append(x);
    }
    ol.append(li);
  }
  for (const c of (lb && lb.Free) || []) { // the lobby's free seats, as its card lists them
    const li = document.createElement("li");
    li.dataset.color = c;
    li.className = "free";
    const dot = document.createElement("span");
    dot.className = "dot";
    dot.style.background = pawnStyle(c).Fill;
    const name = document.createElement("span");
    name.className = "name";
    name.textContent = lb.FreeSeat;
    li.append(dot, name);
    ol.append(li);
  }
}

// renderLobby shows a lobby as its card does (host, rules, time, die)
// and the menu of computer players the viewer may seat.
function renderLobby() {
  const lb = state.live.Lobby, sel = $("add-computer");
  document.body.dataset.status = state.live.Status || "";
  $("lobby").hidden = !lb;
  sel.hidden = !(lb && lb.Levels && lb.Levels.length);
  if (!lb) return;
  $("lobby-host").textContent = lb.Host;
  const ul = $("lobby-options");
  ul.replaceChildren(...lb.Options.map((o) => { const li = document.createElement("li"); li.textContent = o; return li; }));
  sel.replaceChildren();
  const opt = (value, label, title) => {
    const o = document.createElement("option");
    o.value = value; o.textContent = label; if (title) o.title = title;
    sel.append(o);
  };
  opt("", "🤖 " + lb.AddComputer);
  for (const l of lb.Levels || []) opt(l.Value, `${l.Label} · ${l.Hint}`, l.Hint);
  sel.setAttribute("aria-label", lb.AddComputer);
  sel.onchange = () => { if (sel.value) lobby("addbot", sel.value); };
}

// askHint asks the server for the turn's hint, shown to this player
// only: its words under the bar, its move marked on the board.
async function askHint() {
  const live = state.live;
  const h = await request(`hint/${live.Turn}`, `api/games/${state.gameId}/hint`, { Turn: live.Turn });
  if (!h || !state.live || state.live.Turn !== live.Turn) return;
  state.hint = { Turn: live.Turn, From: h.From, To: h.To, Place: h.Place || "", Text: h.Text };
  state.selected = h.From;
  render();
}

// send sends a play for the turn shown; the server decides, and the new
// state comes back by the socket.
function send(action, arg) {
  if (!state.live) return;
  state.selected = null;
  request(`${action}/${state.live.Turn}/${arg}`, `api/games/${state.gameId}/play`, { Turn: state.live.Turn, Action: action, Arg: arg });
}

// lobby sends a lobby action: join, leave, start (the host), or about a
// computer player (addbot with its level, removebot with its colour).
function lobby(action, arg = "") {
  request(`lobby/${action}/${arg}`, `api/games/${state.gameId}/lobby`, { Action: action, Arg: arg });
}

// request posts body unless the same request is in flight (a double tap);
// other requests go at once (the server puts them in order and refuses
// what came too late). A refusal is shown in the note. It returns the
// answer, or nothing when refused.
async function request(key, path, body) {
  if (state.pending.has(key)) return undefined;
  state.pending.add(key);
  document.body.dataset.busy = "1";
  note("");
  try {
    return await api("POST", path, body);
  } catch (e) {
    note(e.message);
    return undefined;
  } finally {
    state.pending.delete(key);
    document.body.dataset.busy = state.pending.size ? "1" : "";
  }
}

// renewSession asks the server for the session again, later expiring,
// and tells the open socket. It reports whether the session is still
// good: false only when the server refuses it (401: sign in again).
async function renewSession() {
  try {
    const r = await api("POST", "api/session");
    if (!r || !r.session) return true;
    state.session = r.session;
    if (state.socket && state.socket.readyState === WebSocket.OPEN) {
      state.socket.send(JSON.stringify({ Session: state.session }));
    }
  } catch (e) { return e.status !== 401; } // the socket closes with 4001 when it expires
  return true;
}

// listen opens the game's socket, its session offered in the upgrade
// request (protocols are tokens: a session is base64url and '.'), then
// reads a Live after every change; it reconnects when the socket drops.
function listen(delay = 500) {
  const url = new URL(`api/games/${state.gameId}/live`, location.href);
  url.protocol = url.protocol === "https:" ? "wss:" : "ws:";
  const ws = new WebSocket(url, ["malefiz.v1", "malefiz.session." + state.session]);
  state.socket = ws;
  let opened = false;
  ws.onopen = () => { opened = true; };
  ws.onmessage = (e) => {
    if (state.socket !== ws) return;
    // Any push says the socket is back, even one of the game as drawn.
    if ($("note").textContent === state.texts.reconnecting) note("");
    // A push of the state already drawn changes nothing: the board is
    // not rebuilt under a finger that is tapping it.
    if (e.data === state.lastPush) return;
    state.lastPush = e.data;
    const live = JSON.parse(e.data);
    if (live.error) { note(live.error); return; } // refused: the socket closes
    // A finished game opens as its review; one that ends while shown
    // stays on its winner, Review in the bar.
    if (!state.live && live.Status === "finished") { openReview(live.Game); return; }
    if (!state.live || live.Turn !== state.live.Turn || live.Phase !== state.live.Phase) state.selected = null;
    state.anims = changes(state.live, live);
    state.live = live;
    announce(state.anims);
    document.body.dataset.turn = live.Turn;
    document.body.dataset.winner = live.Winner || "";
    render();
  };
  ws.onclose = (e) => {
    if (e.code === 4001) { note(state.texts.signInFailed); return; }
    if (e.code === 4004) return; // refused, said in the note
    if (e.code === 4008) return; // a newer board of this user took its place
    note(state.texts.reconnecting);
    setTimeout(async () => {
      if (state.socket !== ws) return;
      // Refused before it opened (a session that expired while the page
      // slept, too many boards, the server full) or no server: the
      // session is renewed first, and a refused one signs in again.
      if (!opened && !(await renewSession())) { note(state.texts.signInFailed); return; }
      if (state.socket === ws) listen(opened ? 500 : Math.min(delay * 2, 8000));
    }, delay);
  };
}

async function main() {
  const cfg = await api("GET", "api/config?locale=" + encodeURIComponent(navigator.language || "en-US"));
  state.texts = cfg.texts;
  document.documentElement.lang = (state.texts.lang || "en");
  note(state.texts.connecting);
  state.layout = await api("GET", "api/layout");
  drawBase($("board"));
  try {
    state.sdk = await signIn(cfg);
  } catch (e) {
    note(e.message || state.texts.signInFailed);
    return;
  }
  document.documentElement.lang = (state.texts.lang || "en");
  note("");
  document.addEventListener("keydown", (e) => { if (e.key === "Escape") { state.selected = null; render(); } });
  document.body.dataset.user = state.user.id;
  if (!state.sdk.guildId) { note(state.texts.noGame); return; } // a DM: the games are a server's
  newLobbyForm().catch((e) => note(e.message));
  const id = Number(params.get("game") || 0);
  if (id) {
    openGame(id);
    tourHere().then((b) => { if (b) tourButton(b); });
    return;
  }
  // The session's guild and channel: its open games, then its finished
  // ones (reviews). Opened in a finished game's thread, its review; in a
  // channel with a tournament, the tournament (its tables' games a tap
  // away), in the thread of one of its tables, that table's game.
  const [games, tour] = await Promise.all([api("GET", "api/games"), tourHere()]);
  state.games = games;
  const open = games.filter((g) => g.Status !== "finished"), here = games.find((g) => g.Here);
  if (here && here.Status === "finished") openReview(here.ID);
  else if (here) openGame(here.ID);
  else if (tour) openTournament(tour.ID);
  else if (open.length) openGame(open[0].ID);
  else showNewForm();
  if (games.length > 1 || (games.length && !open.length && !here)) pickList(games);
  if (tour) tourButton(tour);
}

// newLobbyForm builds the form of a new lobby from the options of
// /malefiz new as the server reads them (their limits, choices and texts
// in the user's language); empty means the command's default.
async function newLobbyForm() {
  const fields = await api("GET", "api/new");
  $("new-toggle").textContent = "+ " + state.texts.newGame;
  const form = $("new-form");
  form.replaceChildren();
  for (const f of fields) {
    const label = document.createElement("label");
    const select = document.createElement("select");
    select.name = f.Name;
    const opt = (value, text) => { const o = document.createElement("option"); o.value = value; o.textContent = text; select.append(o); };
    opt("", "—");
    if (f.Kind === "int") for (let n = f.Min; n <= f.Max; n++) opt(String(n), String(n));
    else if (f.Kind === "bool") { opt("true", "✓"); opt("false", "✗"); }
    else for (const c of f.Choices || []) opt(c.Value, c.Label);
    const span = document.createElement("span");
    span.textContent = f.Label;
    label.append(span, select);
    form.append(label);
    select.dataset.kind = f.Kind;
  }
  const submit = button(state.texts.newGame, "", () => {}, "new");
  submit.type = "submit";
  form.append(submit);
  form.onsubmit = async (e) => {
    e.preventDefault();
    const values = {};
    for (const sel of form.querySelectorAll("select")) {
      if (!sel.value) continue;
      values[sel.name] = sel.dataset.kind === "int" ? Number(sel.value) : sel.dataset.kind === "bool" ? sel.value === "true" : sel.value;
    }
    if (state.pending.has("new")) return;
    state.pending.add("new");
    note("");
    try {
      const made = await api("POST", "api/games", values);
      $("new").open = false;
      openGame(made.ID);
      pickList(await api("GET", "api/games"));
    } catch (err) {
      note(err.message);
    } finally {
      state.pending.delete("new");
    }
  };
}

// showNewForm opens a channel without a game on the form of a new one:
// the board stays hidden until there is a game to draw.
function showNewForm() {
  document.body.dataset.view = "new";
  $("new").open = true;
  markdown($("said"), state.texts.newHere);
}

// openGame shows game id: its state now and after every change.
function openGame(id) {
  if (state.socket) { state.socket.onclose = null; state.socket.close(); }
  clearTimeout(state.tourTimer);
  delete document.body.dataset.view;
  delete document.body.dataset.step;
  clearTimeout(state.reviewTimer);
  $("review").hidden = true;
  $("said").setAttribute("aria-live", "polite");
  $("marks").removeAttribute("aria-hidden");
  Object.assign(state, { gameId: id, live: null, lastPush: "", selected: null, anims: [], hint: null, review: null });
  listen();
}

// pickList lists the channel's open games (the user's first) to switch
// between them, then its finished games, each opened as its review.
function pickList(games) {
  const ul = $("games");
  ul.replaceChildren();
  for (const g of games) {
    const li = document.createElement("li");
    const done = g.Status === "finished";
    const b = button(`${done ? "🎓 " : ""}#${g.ID} · ${g.Seats.join(", ")}`, g.Yours && !done ? "" : "secondary",
      () => (done ? openReview(g.ID) : openGame(g.ID)), String(g.ID));
    if (done) b.setAttribute("aria-label", `${state.texts.review}: #${g.ID} · ${g.Seats.join(", ")}`);
    li.append(b);
    ul.append(li);
  }
}

main().catch((e) => note(e.message));
