// A server's tournament on the board (issue 40), as lichess's Swiss page
// and a bracket site show one: the standings (the viewer's own row
// marked), the current round's tables with whose turn it is or the places
// and a button to each table's game, then the earlier rounds (Swiss and
// round robin) or the bracket (knockout). The server says it all in the
// viewer's words (GET api/tournament, api/tournaments/{id}); the page asks
// again every tourPoll while the tournament is shown, so a game that ends
// shows in its standings within that time.
"use strict";

const tourPoll = 10000;

// tourHere asks the server for the tournament of the Activity's channel
// (or of the table whose thread it is); null when there is none.
async function tourHere() {
  try {
    state.tour = await api("GET", "api/tournament");
  } catch (e) {
    state.tour = null;
  }
  return state.tour;
}

// openTournament shows tournament id in place of the board, read anew
// every tourPoll while shown.
async function openTournament(id) {
  if (state.socket) { state.socket.onclose = null; state.socket.close(); state.socket = null; }
  clearTimeout(state.reviewTimer);
  clearTimeout(state.tourTimer);
  Object.assign(state, { gameId: 0, live: null, lastPush: "", selected: null, anims: [], hint: null, review: null });
  document.body.dataset.view = "tournament";
  delete document.body.dataset.step;
  $("review").hidden = true;
  $("said").setAttribute("aria-live", "off"); // read anew every poll: not said again each time
  note("");
  await loadTournament(id);
}

// loadTournament reads tournament id and draws it, then again after
// tourPoll while the page still shows it.
async function loadTournament(id) {
  try {
    state.tour = await api("GET", `api/tournaments/${id}`);
  } catch (e) {
    note(e.message);
    return;
  }
  if (document.body.dataset.view !== "tournament") return;
  renderTournament(state.tour);
  state.tourTimer = setTimeout(() => { if (document.body.dataset.view === "tournament") loadTournament(id); }, tourPoll);
}

// tourEl makes element name with class cls and text.
function tourEl(name, cls, text) {
  const e = document.createElement(name);
  if (cls) e.className = cls;
  if (text !== undefined) e.textContent = text;
  return e;
}

// tourNumber writes n as the page's language writes numbers, at most one
// decimal (a Buchholz of 7.5).
function tourNumber(n) {
  return new Intl.NumberFormat(state.texts.lang || "en", { maximumFractionDigits: 1 }).format(n);
}

// tourStatus is the words of a tournament's status.
function tourStatus(status) {
  const T = state.texts;
  return { signup: T.tourSignup, running: T.tourRunning, paused: T.tourPaused, finished: T.tourFinished,
    cancelled: T.tourCancelled }[status] || "";
}

// renderTournament draws tournament b: the bar, the standings, the
// current round's tables, the earlier rounds or the bracket.
function renderTournament(b) {
  const T = state.texts, box = $("tournament");
  document.body.dataset.tour = b.ID;
  document.body.dataset.status = b.Status;
  $("game-no").textContent = "";
  markdown($("said"), [tourStatus(b.Status), b.Round ? format(T.tourRoundOf, b.Round, b.Rounds) : ""].filter(Boolean).join(" · "));
  const actions = $("actions");
  actions.replaceChildren();
  const open = (state.games || []).filter((g) => g.Status !== "finished");
  if (open.length) actions.append(button(T.tourBoard, "secondary", () => openGame(open[0].ID), "board"));
  box.replaceChildren();

  const head = tourEl("h2", "", "🏆 " + b.Name);
  head.id = "tour-name";
  box.setAttribute("aria-labelledby", "tour-name");
  const current = b.Played.length && b.Status !== "finished" ? b.Played[b.Played.length - 1] : null;
  box.append(head, tourEl("p", "tour-setup", b.Setup));

  const cols = tourEl("div", "tour-cols");
  cols.append(tourStandings(b));
  if (current) {
    const sec = tourEl("section", "tour-current");
    sec.setAttribute("aria-labelledby", "tour-current-head");
    const h = tourEl("h3", "", format(T.tourRoundOf, current.Number, b.Rounds));
    h.id = "tour-current-head";
    sec.append(h, tourTables(current, b));
    cols.append(sec);
  }
  box.append(cols);

  const earlier = b.Played.filter((r) => r !== current);
  if (earlier.length) {
    const knockout = b.Format === "knockout";
    const sec = tourEl("section", "tour-rounds" + (knockout ? " bracket" : ""));
    sec.setAttribute("aria-labelledby", "tour-rounds-head");
    const h = tourEl("h3", "", knockout ? T.tourBracket : T.tourRounds);
    h.id = "tour-rounds-head";
    const list = tourEl("div", "rounds");
    for (const r of knockout ? b.Played : earlier) {
      const rs = tourEl("section", "round");
      rs.dataset.round = r.Number;
      rs.append(tourEl("h4", "", format(T.tourRound, r.Number)), tourTables(r, b));
      list.append(rs);
    }
    sec.append(h, list);
    box.append(sec);
  }
}

// tourStandings is the standings as a table with its headers: place,
// player (the viewer's row marked, a withdrawn entrant said so), points,
// the format's tie-break, games played.
function tourStandings(b) {
  const T = state.texts;
  const sec = tourEl("section", "tour-standings");
  sec.setAttribute("aria-labelledby", "tour-standings-head");
  const h = tourEl("h3", "", T.tourStandings);
  h.id = "tour-standings-head";
  const table = tourEl("table");
  table.setAttribute("aria-labelledby", "tour-standings-head");
  const tie = { swiss: T.tourBuchholz, "round-robin": T.tourSonneborn, knockout: T.tourReached }[b.Format] || "";
  const thead = tourEl("thead"), hr = tourEl("tr");
  for (const [text, cls] of [[T.tourRank, "rank"], [T.tourPlayer, "player"], [T.tourPoints, "num"], [tie, "num tie"], [T.tourGames, "num"]]) {
    const th = tourEl("th", cls, text);
    th.scope = "col";
    hr.append(th);
  }
  thead.append(hr);
  const tbody = tourEl("tbody");
  for (const s of b.Standings) {
    const tr = tourEl("tr");
    if (s.You) tr.classList.add("you");
    if (s.Withdrawn) tr.classList.add("withdrawn");
    if (s.Out) tr.classList.add("out");
    tr.append(tourEl("td", "rank", String(s.Rank)));
    const th = tourEl("th", "player");
    th.scope = "row";
    th.append(tourEl("span", "name", s.Name));
    const marks = [];
    if (s.You) marks.push(T.tourYou);
    if (s.Withdrawn) marks.push(T.tourWithdrawn);
    else if (s.Out) marks.push(T.tourOut);
    if (marks.length) th.append(" ", tourEl("span", "mark", "(" + marks.join(", ") + ")"));
    tr.append(th, tourEl("td", "num points", String(s.Points)), tourEl("td", "num tie", tourNumber(s.TieBreak)),
      tourEl("td", "num", String(s.Played)));
    tbody.append(tr);
  }
  table.append(thead, tbody);
  sec.append(h, table);
  return sec;
}

// tourTables is a round's tables as a list: each table's players in seat
// order with their colour, whose turn it is or the places, and a button
// to its game (played or watched on the board, or its review).
function tourTables(r, b) {
  const T = state.texts, ul = tourEl("ul", "tour-tables");
  for (const t of r.Tables) {
    const li = tourEl("li", "tour-table");
    li.dataset.state = t.State;
    li.dataset.table = t.Number;
    if (t.GameID) li.dataset.game = t.GameID;
    if (t.You) li.classList.add("you");
    const title = t.Bye ? format(T.tourBye, t.Seats[0].Name) : format(T.tourTable, t.Number);
    const head = tourEl("div", "head");
    head.append(tourEl("h5", "", title));
    const state_ = { playing: t.ToMove ? format(T.tourToMove, t.ToMove) : "", finished: t.Bye ? "" : T.tourGameOver,
      cancelled: T.tourGameCancelled, waiting: T.tourWaiting }[t.State] || "";
    if (state_) head.append(tourEl("p", "state", state_));
    li.append(head);
    if (!t.Bye) {
      const ol = tourEl("ol", "tour-seats");
      const seats = t.Seats.map((s, i) => ({ s, i }));
      if (t.State === "finished") seats.sort((a, c) => (a.s.Place || 99) - (c.s.Place || 99));
      for (const { s } of seats) {
        const sl = tourEl("li");
        if (s.You) sl.classList.add("you");
        if (s.ToMove) sl.classList.add("to-move");
        if (s.Color) {
          const dot = tourEl("span", "dot");
          dot.style.background = pawnStyle(s.Color).Fill;
          sl.dataset.color = s.Color;
          sl.append(dot);
        }
        let name = s.Place ? format(T.tourPlace, s.Place, s.Name) : s.Name;
        if (s.You) name += " (" + T.tourYou + ")";
        sl.append(tourEl("span", "name", name));
        const meta = [];
        if (s.Place) meta.push(counted("tourScore", s.Points, s.Points));
        if (s.Through) meta.push("✓ " + T.tourThrough);
        if (s.Forfeited) meta.push(T.tourForfeit);
        if (s.ToMove) meta.push("🎲");
        if (meta.length) sl.append(tourEl("span", "meta", meta.join(" · ")));
        ol.append(sl);
      }
      li.append(ol);
    }
    if (t.GameID && t.State !== "cancelled") {
      const done = t.State === "finished";
      const label = done ? "🎓 " + T.review : t.You ? T.tourPlay : T.tourWatch;
      const go = button(label, t.You && !done ? "" : "secondary",
        () => { clearTimeout(state.tourTimer); done ? openReview(t.GameID) : openGame(t.GameID); }, "game-" + t.GameID);
      go.setAttribute("aria-label", `${label} · ${format(T.tourTable, t.Number)} · #${t.GameID}`);
      li.append(go);
    }
    ul.append(li);
  }
  return ul;
}

// tourButton offers the tournament in the list beside the board, named
// as its card is.
function tourButton(b) {
  const ul = $("games");
  const old = ul.querySelector('[data-act="tournament"]');
  if (old) old.closest("li").remove();
  const li = document.createElement("li");
  const go = button(`🏆 ${state.texts.tourShow}: ${b.Name}`, "", () => openTournament(b.ID), "tournament");
  li.append(go);
  ul.prepend(li);
}
