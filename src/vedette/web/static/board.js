// vedette board: pan and zoom, a keyboard cursor, picks, the legend and roster, and hand moves
// checked by the rules before they are done. No framework; no inline script or style (CSP):
// styles are set through the CSSOM, SVG through DOM calls.
//
// Events (docs: interfaces §2): dispatches `vedette:pick` {kind, value, under} when a piece,
// hex or point is picked (under: the hex or location a piece stands on), and
// `vedette:perform` {procedure, request} when a checked hand move is confirmed; reloads
// itself on `vedette:changed`; pans pieces into the view the phone's sheet leaves on
// `vedette:pieces` {ids}.
"use strict";

(() => {
  const root = document.getElementById("game");
  const viewport = document.getElementById("board-viewport");
  const board = document.getElementById("board");
  if (!root || !viewport || !board) return;
  window.vedetteBoard = true; // the shell's own click fallback stands down: picks come from here
  const game = root.dataset.game;
  const api = `/api/games/${encodeURIComponent(game)}`;
  const SVGNS = "http://www.w3.org/2000/svg";
  const readout = document.getElementById("board-readout");
  const ringSel = document.getElementById("board-ring");
  const confirmBox = document.getElementById("move-confirm");
  const confirmText = document.getElementById("move-text");
  let info = { legend: [], roster: [], highlight: [], rings: {}, hand: null };
  let view = { k: 1, x: 0, y: 0 };
  let cursor = null; // the element the keyboard cursor is on
  let selected = null; // the unit picked last (rings are drawn around it)
  let pending = null; // a checked move awaiting confirmation {procedure, request}

  const csrf = () => document.querySelector('meta[name="csrf-token"]').content;
  async function post(url, body) {
    const r = await fetch(url, {
      method: "POST",
      headers: { "Content-Type": "application/json", "X-CSRF-Token": csrf() },
      body: JSON.stringify(body || {}),
      credentials: "same-origin",
    });
    const data = await r.json().catch(() => ({ error: "bad response" }));
    if (!r.ok) throw new Error(data.error || r.statusText);
    return data;
  }
  const svg = () => board.querySelector("svg");
  const say = (text) => { if (readout) readout.textContent = text; };
  const svgEl = (tag, attrs) => {
    const e = document.createElementNS(SVGNS, tag);
    for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
    return e;
  };

  // -- pan and zoom: a CSS transform on #board inside the clipped viewport ---------------------
  function apply() {
    board.style.transformOrigin = "0 0";
    board.style.transform = `translate(${view.x}px, ${view.y}px) scale(${view.k})`;
    viewport.dataset.zoom = view.k.toFixed(2);
  }
  // the least zoom: the whole board in the viewport (a phone's board box ends where the sheet
  // at its tallest begins, shorter than the board drawn across the screen's width)
  const least = () => Math.min(1, viewport.clientHeight / (board.offsetHeight || 1));
  function zoomAt(factor, cx, cy) {
    const k = Math.min(8, Math.max(least(), view.k * factor));
    const f = k / view.k;
    view = { k, x: cx - (cx - view.x) * f, y: cy - (cy - view.y) * f };
    fitted = false;
    clamp();
    apply();
  }
  // the board kept over the viewport: panned no further than its edges (the viewport's own,
  // not the board's: a board taller than its box pans down to its bottom edge); a board
  // smaller than its box stays inside it
  function clamp() {
    const within = (v, room, size) => Math.min(Math.max(0, room - size), Math.max(Math.min(0, room - size), v));
    view.x = within(view.x, viewport.clientWidth, board.offsetWidth * view.k);
    view.y = within(view.y, viewport.clientHeight, board.offsetHeight * view.k);
  }
  // the pieces' box on the board (unzoomed CSS px from its top left), or null
  function piecesBox() {
    const b = board.getBoundingClientRect();
    let box = null;
    board.querySelectorAll(".unit[data-pick], .piece[data-pick], .stack[data-pick], .general[data-pick]").forEach((n) => {
      const r = n.getBoundingClientRect();
      if (!r.width && !r.height) return;
      const [l, t, rt, bt] = [r.left - b.left, r.top - b.top, r.right - b.left, r.bottom - b.top].map((v) => v / view.k);
      box = box ? [Math.min(box[0], l), Math.min(box[1], t), Math.max(box[2], rt), Math.max(box[3], bt)] : [l, t, rt, bt];
    });
    return box;
  }
  // the whole board; in a viewport taller than the board (a phone's sheet folded: the board
  // takes the screen's height), zoomed to fill its height, centred, panned sideways. A piece
  // left out of that view (a phone: the board's box ends above the sheet, shorter than the
  // board) and the view holds every piece instead (the sheet unfolded)
  let fitted = true; // the view is reset's (the player has not zoomed or panned since)
  // the viewport's height not under a phone's sheet at its tallest (the board's box keeps a
  // least height, which a tall title and tools push under the sheet)
  const seen = () => {
    const h = viewport.clientHeight;
    const sheet = document.querySelector(".panel");
    if (!sheet || getComputedStyle(sheet).position !== "fixed") return h;
    const top = innerHeight - (parseFloat(getComputedStyle(sheet).maxHeight) || 0);
    return Math.max(Math.min(h, top - viewport.getBoundingClientRect().top), h / 2);
  };
  const reset = () => {
    const w = viewport.clientWidth;
    // (a phone's sheet folded: the board has the screen's height, filled as before)
    const folded = document.getElementById("game")?.classList.contains("sheet-folded");
    const h = folded ? viewport.clientHeight : seen();
    const k0 = Math.min(8, Math.max(1, h / (board.offsetHeight || 1)));
    const box = piecesBox(); // (in the view drawn now)
    view = { k: k0, x: (w * (1 - k0)) / 2, y: 0 };
    // (a hex map's counters are panned to only where they all fit: never shrunk, never some
    // panned out for others)
    const table = !!svg()?.dataset.depth;
    const fits = box && (table || (box[3] - box[1]) * k0 <= h);
    const out = box && fits && !folded && (view.x + box[0] * k0 < 0 || view.x + box[2] * k0 > w || box[1] * k0 < 0 || box[3] * k0 > h);
    if (out) {
      // panned first (the pieces' foot at the view's foot: as much of the board above them
      // kept as can be), zoomed out only as far as the pieces need
      const pad = 8;
      const k = table ? Math.max(least(), Math.min(k0, w / (box[2] - box[0] + 2 * pad), h / (box[3] - box[1] + 2 * pad))) : k0;
      const x = view.x + box[0] * k0 >= 0 && view.x + box[2] * k0 <= w && k === k0 ? view.x : w / 2 - (k * (box[0] + box[2])) / 2;
      view = { k, x, y: h - k * (box[3] + pad) };
      clamp();
    }
    fitted = true;
    apply();
  };
  const centre = () => [viewport.clientWidth / 2, viewport.clientHeight / 2];

  viewport.addEventListener("wheel", (e) => {
    e.preventDefault();
    const r = viewport.getBoundingClientRect();
    zoomAt(e.deltaY < 0 ? 1.2 : 1 / 1.2, e.clientX - r.left, e.clientY - r.top);
  }, { passive: false });

  document.querySelectorAll("[data-board]").forEach((b) => b.addEventListener("click", () => {
    const what = b.dataset.board;
    if (what === "zoom-in") zoomAt(1.4, ...centre());
    else if (what === "zoom-out") zoomAt(1 / 1.4, ...centre());
    else if (what === "reset") reset();
    else if (what === "move-mode") {
      b.setAttribute("aria-pressed", b.getAttribute("aria-pressed") === "true" ? "false" : "true");
      say(b.getAttribute("aria-pressed") === "true" ? "tap a unit, then where it goes" : "");
    }
  }));
  const moveMode = () => document.querySelector('[data-board="move-mode"]')?.getAttribute("aria-pressed") === "true";

  // -- pointers: pan (drag on empty board), pinch (two touches), hand moves (drag a unit) -----
  const pointers = new Map();
  let gesture = null;
  const local = (e) => { const r = viewport.getBoundingClientRect(); return [e.clientX - r.left, e.clientY - r.top]; };

  function pieceOf(target) {
    const n = target.closest ? target.closest("[data-pick]") : null;
    if (!n || !board.contains(n)) return null;
    return n.matches(".unit, .piece, .stack, .general") ? n : null;
  }

  viewport.addEventListener("pointerdown", (e) => {
    fitted = false; // (the board touched: its view is the player's now, not refitted under a finger)
    pointers.set(e.pointerId, local(e));
    if (pointers.size === 2) {
      const [a, b] = [...pointers.values()];
      gesture = { kind: "pinch", dist: Math.hypot(a[0] - b[0], a[1] - b[1]), k: view.k };
      return;
    }
    const piece = pieceOf(e.target);
    if (piece && info.hand && movable(piece)) {
      gesture = { kind: "drag", piece, start: local(e), moved: false, hexes: [piece.dataset.hex].filter(Boolean) };
    } else {
      gesture = { kind: "pan", start: local(e), view: { ...view }, moved: false };
    }
  });
  viewport.addEventListener("pointermove", (e) => {
    if (!pointers.has(e.pointerId)) return;
    pointers.set(e.pointerId, local(e));
    if (!gesture) return;
    if (gesture.kind === "pinch" && pointers.size === 2) {
      const [a, b] = [...pointers.values()];
      const d = Math.hypot(a[0] - b[0], a[1] - b[1]);
      zoomAt((gesture.k * d) / gesture.dist / view.k, (a[0] + b[0]) / 2, (a[1] + b[1]) / 2);
    } else if (gesture.kind === "pan") {
      const [x, y] = local(e);
      if (Math.hypot(x - gesture.start[0], y - gesture.start[1]) > 6) gesture.moved = true;
      if (gesture.moved) {
        fitted = false;
        view.x = gesture.view.x + x - gesture.start[0];
        view.y = gesture.view.y + y - gesture.start[1];
        clamp();
        apply();
      }
    } else if (gesture.kind === "drag") {
      const [x, y] = local(e);
      if (!gesture.moved && Math.hypot(x - gesture.start[0], y - gesture.start[1]) < 8) return;
      if (!gesture.moved) viewport.setPointerCapture(e.pointerId);
      gesture.moved = true;
      dragTo(gesture, e);
    }
  });
  function end(e) {
    pointers.delete(e.pointerId);
    const g = gesture;
    if (pointers.size === 0) gesture = null;
    if (g && g.kind === "drag" && g.moved) {
      suppressClick = true;
      finishDrag(g, e);
    }
    if (g && g.kind === "pan" && g.moved) suppressClick = true;
  }
  viewport.addEventListener("pointerup", end);
  viewport.addEventListener("pointercancel", (e) => { pointers.delete(e.pointerId); gesture = null; clearGhost(); });
  let suppressClick = false;
  viewport.addEventListener("click", (e) => {
    if (suppressClick) { suppressClick = false; e.stopPropagation(); e.preventDefault(); return; }
    onTap(e);
  }, true);

  // -- picks ------------------------------------------------------------------------------------
  function pickKind(n) {
    if (n.matches(".hex")) return "hex";
    if (n.matches(".loc")) return "location";
    if (n.matches(".unit, .piece, .stack, .general")) return "unit";
    return "location";
  }
  function pick(n) {
    const kind = pickKind(n);
    // a piece says where it stands: the hex or location under it, for a form that takes that
    const d = n.dataset;
    const under = kind !== "unit" ? null : d.loc ? { kind: "location", value: d.loc } : d.hex ? { kind: "hex", value: d.hex } : null;
    document.dispatchEvent(new CustomEvent("vedette:pick", { detail: { kind, value: d.pick, under } }));
    if (kind === "unit") { selected = n; drawRing(); }
    setCursor(n);
  }
  // a touch margin (a 2 by 2 unit is drawn some 15x9 CSS px on a phone): a tap on the empty
  // table within REACH px of a piece's drawn box picks the nearest such piece, unless the action
  // in work asks for a point and no longer for a unit (then the tap is the point it asks for)
  const REACH = 18;
  function nearPiece(e) {
    if (window.vedetteAsks?.("point") && !window.vedetteAsks("unit")) return null;
    let best = null;
    let dist = REACH;
    board.querySelectorAll(".unit, .piece, .stack, .general").forEach((p) => {
      if (!p.matches("[data-pick]")) return;
      const r = p.getBoundingClientRect();
      const d = Math.hypot(Math.max(r.left - e.clientX, 0, e.clientX - r.right), Math.max(r.top - e.clientY, 0, e.clientY - r.bottom));
      if (d <= dist) { best = p; dist = d; }
    });
    return best;
  }
  function onTap(e) {
    // (a piece armed for a hand move waits for where it goes: no margin then)
    const n = (e.target.closest ? e.target.closest("[data-pick]") : null) || (armed ? null : nearPiece(e));
    if (moveMode() && info.hand) {
      if (n && pieceOf(n) && movable(n) && (!armed || pieceOf(n) !== armed)) {
        armed = n; setCursor(n); say(`${n.dataset.pick}: now tap where it goes`);
        e.stopPropagation();
        return;
      }
      if (armed) {
        e.stopPropagation();
        const g = { kind: "drag", piece: armed, hexes: [armed.dataset.hex].filter(Boolean) };
        armed = null;
        finishDrag(g, e, n && n.dataset.hex ? n : null);
        return;
      }
    }
    if (n && board.contains(n)) pick(n);
    else if (info.hand && info.hand.kind !== "hex" && svg()) {
      const p = world(e);
      if (p) document.dispatchEvent(new CustomEvent("vedette:pick", { detail: { kind: "point", value: [Math.round(p[0]), Math.round(p[1])] } }));
    }
  }
  let armed = null;

  // -- the keyboard cursor: one tab stop; arrows move between picks, Enter picks -----------------
  function untab() {
    board.querySelectorAll("[data-pick]").forEach((n) => n.setAttribute("tabindex", "-1"));
  }
  // the board replaced by someone else (the page after an action): untab it, and bring the
  // legend, roster and highlight up to date with it
  let selfUpdate = false;
  let reloadTimer = null;
  new MutationObserver(() => {
    untab();
    if (selfUpdate) { selfUpdate = false; decorate(); return; }
    decorate();
    clearTimeout(reloadTimer);
    reloadTimer = setTimeout(() => load(false), 50);
  }).observe(board, { childList: true });
  function setCursor(n) {
    if (cursor && cursor !== n) cursor.classList.remove("cursor");
    cursor = n;
    if (n) {
      n.classList.add("cursor");
      const t = n.querySelector("title");
      say(`${n.dataset.pick}${t ? ": " + t.textContent : ""}`);
    }
  }
  viewport.addEventListener("keydown", (e) => {
    const dirs = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };
    if (dirs[e.key]) {
      e.preventDefault();
      const all = [...board.querySelectorAll("[data-pick]")];
      if (!all.length) return;
      if (!cursor || !board.contains(cursor)) { setCursor(all[0]); return; }
      const best = neighbour(cursor, e.key, all);
      if (best) setCursor(best);
    } else if ((e.key === "Enter" || e.key === " ") && cursor) {
      e.preventDefault();
      cursor.dispatchEvent(new MouseEvent("click", { bubbles: true }));
    } else if (e.key === "+" || e.key === "=") zoomAt(1.4, ...centre());
    else if (e.key === "-") zoomAt(1 / 1.4, ...centre());
    else if (e.key === "0") reset();
    else if (e.key === "Escape") { cancelMove(); armed = null; }
  });
  const mid = (n) => { const r = n.getBoundingClientRect(); return [r.left + r.width / 2, r.top + r.height / 2]; };
  // the pick an arrow key goes to from ``from`` (issue 26.5): the nearest pick within 60 degrees
  // of the arrow's direction (the adjacent hex column, offset half a hex, before the one after
  // it); a piece fanned a few pixels off another counts, so every piece is reached. Else the
  // least off-line pick in that direction. A piece comes before the hex under it.
  function neighbour(from, key, all = [...board.querySelectorAll("[data-pick]")]) {
    const dirs = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };
    const [dx, dy] = dirs[key];
    const c = mid(from);
    let best = null;
    let bestScore = Infinity;
    let wide = null;
    let wideScore = Infinity;
    for (const n of all) {
      if (n === from) continue;
      const m = mid(n);
      const along = (m[0] - c[0]) * dx + (m[1] - c[1]) * dy;
      if (along <= 0.5) continue;
      const across = Math.abs((m[0] - c[0]) * dy + (m[1] - c[1]) * dx);
      // a piece before the hex it stands on (their centres meet)
      const dist = Math.hypot(along, across) - (n.matches(".piece, .stack, .unit, .general") ? 3 : 0);
      if (across <= along * 1.74 && dist < bestScore) { bestScore = dist; best = n; }
      const score = along + 2 * across;
      if (score < wideScore) { wideScore = score; wide = n; }
    }
    return best || wide;
  }
  window.vedetteKeys = { neighbour: (from, key) => neighbour(from, key) };

  // -- table-top coordinates (mm, y north) from a pointer ----------------------------------------
  function world(e) {
    const s = svg();
    if (!s || !s.dataset.depth) return null;
    const pt = new DOMPoint(e.clientX, e.clientY).matrixTransform(s.getScreenCTM().inverse());
    return [pt.x, Number(s.dataset.depth) - (pt.y - Number(s.dataset.top))];
  }
  function toSvg(x, y) {
    const s = svg();
    return [x, Number(s.dataset.depth) - y + Number(s.dataset.top)];
  }
  function movable(n) {
    if (!info.hand) return false;
    if (info.hand.kind === "hex") return n.matches(".piece");
    return n.matches(".unit") && n.dataset.x !== undefined;
  }

  // -- hand moves: ghost, ruler, the rules' check, then confirm ----------------------------------
  let checkTicket = 0;
  function clearGhost() { svg()?.querySelectorAll(".ghost").forEach((n) => n.remove()); }
  function requestFor(g, e, hexEl) {
    const id = g.piece.dataset.pick;
    if (info.hand.kind === "hex") {
      const hx = hexEl ? hexEl.dataset.hex : hexAt(e);
      if (!hx) return null;
      const req = { force: id, to: [hx] };
      const path = g.hexes && g.hexes.length > 1 && g.hexes[g.hexes.length - 1] === hx ? g.hexes : null;
      if (path) req.path = path;
      return req;
    }
    const p = world(e);
    if (!p) return null;
    const x0 = Number(g.piece.dataset.x);
    const y0 = Number(g.piece.dataset.y);
    if (info.hand.kind === "point") return { unit: id, to: [round1(p[0]), round1(p[1])] };
    const bearing = (Math.atan2(p[0] - x0, p[1] - y0) * 180) / Math.PI;
    const facing = Number(g.piece.dataset.facing || 0);
    return {
      unit: id,
      distance: round1(Math.hypot(p[0] - x0, p[1] - y0)),
      direction: round1((((bearing - facing) % 360) + 360) % 360),
    };
  }
  const round1 = (v) => Math.round(v * 10) / 10;
  function hexAt(e) {
    for (const n of document.elementsFromPoint(e.clientX, e.clientY)) {
      if (n.dataset && n.dataset.hex && n.matches(".hex")) return n.dataset.hex;
    }
    return null;
  }
  function dragTo(g, e) {
    const s = svg();
    if (!s) return;
    clearGhost();
    if (info.hand.kind === "hex") {
      const hx = hexAt(e);
      if (hx && g.hexes[g.hexes.length - 1] !== hx) {
        const back = g.hexes.indexOf(hx);
        if (back >= 0) g.hexes = g.hexes.slice(0, back + 1);
        else g.hexes.push(hx);
      }
      const pts = g.hexes.map((h) => s.querySelector(`.hex[data-hex="${CSS.escape(h)}"]`)).filter(Boolean).map(hexCentre);
      if (pts.length > 1) s.append(svgEl("polyline", { class: "ghost ruler", points: pts.map((p) => p.join(",")).join(" ") }));
    } else {
      const p = world(e);
      if (!p) return;
      const a = toSvg(Number(g.piece.dataset.x), Number(g.piece.dataset.y));
      const b = toSvg(p[0], p[1]);
      s.append(svgEl("line", { class: "ghost ruler", x1: a[0], y1: a[1], x2: b[0], y2: b[1] }));
      s.append(svgEl("circle", { class: "ghost target", cx: b[0], cy: b[1], r: 6 }));
      const mm = Math.hypot(p[0] - Number(g.piece.dataset.x), p[1] - Number(g.piece.dataset.y));
      const per = info.hand.mm_per_unit || (info.hand.kind === "point" ? 19.05 : 10);
      const unit = info.hand.kind === "point" ? `[${(mm / per).toFixed(1)}]` : `${(mm / 10).toFixed(1)} cm`;
      say(`${g.piece.dataset.pick}: ${unit}`);
    }
    const req = requestFor(g, e);
    if (!req) return;
    const key = JSON.stringify(req);
    if (key === g.lastKey) return;
    g.lastKey = key;
    clearTimeout(g.timer);
    g.timer = setTimeout(() => check(req, false), 120);
  }
  function hexCentre(poly) {
    const pts = poly.getAttribute("points").trim().split(/\s+/).map((p) => p.split(",").map(Number));
    return [pts.reduce((a, p) => a + p[0], 0) / pts.length, pts.reduce((a, p) => a + p[1], 0) / pts.length];
  }
  async function check(req, final) {
    const ticket = ++checkTicket;
    try {
      const res = await post(`${api}/move-check`, { procedure: info.hand.procedure, request: req });
      if (ticket !== checkTicket) return res;
      if (res.ok) {
        if (res.mm_per_unit) info.hand.mm_per_unit = res.mm_per_unit;
        say(res.text || "legal");
        markZoc(res.zoc || []);
      } else say(`refused: ${res.error}`);
      return res;
    } catch (err) {
      if (ticket === checkTicket) say(`refused: ${err.message}`);
      return { ok: false, error: err.message };
    } finally {
      if (final) { /* nothing more: the caller shows the confirmation */ }
    }
  }
  function markZoc(ids) {
    board.querySelectorAll(".zoc-entered").forEach((n) => n.classList.remove("zoc-entered"));
    for (const id of ids) board.querySelectorAll(`[data-pick="${CSS.escape(id)}"]`).forEach((n) => n.classList.add("zoc-entered"));
  }
  async function finishDrag(g, e, hexEl) {
    let req = requestFor(g, e, hexEl);
    if (!req) { clearGhost(); say("drop it on the board"); return; }
    let res = await check(req, true);
    if (!res.ok && req.path && /path/.test(res.error || "")) {
      delete req.path; // a fast drag skipped a hex: the cheapest path instead
      res = await check(req, true);
    }
    if (!res.ok) { clearGhost(); return; }
    pending = { procedure: info.hand.procedure, request: req };
    if (confirmBox) {
      confirmText.textContent = res.text || "legal";
      confirmBox.hidden = false;
      document.getElementById("move-ok").focus();
    }
  }
  function cancelMove() {
    pending = null;
    if (confirmBox) confirmBox.hidden = true;
    clearGhost();
    markZoc([]);
  }
  document.getElementById("move-ok")?.addEventListener("click", () => {
    if (!pending) return;
    const detail = pending;
    cancelMove();
    document.dispatchEvent(new CustomEvent("vedette:perform", { detail }));
  });
  document.getElementById("move-cancel")?.addEventListener("click", () => { cancelMove(); say("move cancelled"); });

  // -- rings around the unit picked last ---------------------------------------------------------
  function drawRing() {
    const s = svg();
    if (!s) return;
    s.querySelectorAll(".ring").forEach((n) => n.remove());
    const v = ringSel ? ringSel.value : "";
    // a number is mm; a name is a per-unit distance carried on the unit (data-half-move)
    const mm = !v ? 0 : /^[\d.]+$/.test(v) ? Number(v) : Number(selected?.getAttribute(`data-${v}`) || 0);
    if (!mm || !selected || selected.dataset.x === undefined || !s.dataset.depth) return;
    const [cx, cy] = toSvg(Number(selected.dataset.x), Number(selected.dataset.y));
    s.append(svgEl("circle", { class: "ring", cx, cy, r: mm, "pointer-events": "none" }));
  }
  ringSel?.addEventListener("change", drawRing);

  // -- legend, roster, highlight ------------------------------------------------------------------
  function swatch(entry) {
    const s = svgEl("svg", { width: 28, height: 18, viewBox: "0 0 28 18", "aria-hidden": "true" });
    const p = entry.paint || {};
    let shape;
    if (entry.shape === "line") shape = svgEl("line", { x1: 2, y1: 9, x2: 26, y2: 9, "stroke-width": 4, ...p });
    else if (entry.shape === "circle") shape = svgEl("circle", { cx: 14, cy: 9, r: 7, ...p });
    else if (entry.shape === "ring") shape = svgEl("rect", { x: 3, y: 2, width: 22, height: 14, rx: 2, "stroke-width": 2, ...p });
    else if (entry.shape === "none") return null;
    else shape = svgEl("rect", { x: 3, y: 2, width: 22, height: 14, rx: 2, ...p });
    s.append(shape);
    return s;
  }
  function renderInfo() {
    const ul = document.getElementById("board-legend");
    if (ul) {
      ul.replaceChildren();
      for (const entry of info.legend) {
        const li = document.createElement("li");
        const sw = swatch(entry);
        if (sw) li.append(sw);
        li.append(document.createTextNode(" " + entry.label));
        ul.append(li);
      }
    }
    const table = document.getElementById("board-roster");
    if (table) {
      table.replaceChildren();
      const cols = [];
      for (const row of info.roster) for (const k of Object.keys(row)) if (!cols.includes(k)) cols.push(k);
      const head = document.createElement("tr");
      for (const c of cols) { const th = document.createElement("th"); th.textContent = c; th.scope = "col"; head.append(th); }
      const thead = document.createElement("thead");
      thead.append(head);
      const tbody = document.createElement("tbody");
      for (const row of info.roster) {
        const tr = document.createElement("tr");
        tr.dataset.unit = row.id;
        for (const c of cols) {
          const td = document.createElement("td");
          if (c === "id") {
            const b = document.createElement("button");
            b.type = "button"; b.className = "linklike"; b.textContent = row.id;
            b.addEventListener("click", () => {
              const n = board.querySelector(`[data-pick="${CSS.escape(row.id)}"]`);
              if (n) pick(n);
              else document.dispatchEvent(new CustomEvent("vedette:pick", { detail: { kind: "unit", value: row.id } }));
            });
            td.append(b);
          } else td.textContent = row[c] === undefined ? "" : String(row[c]);
          tr.append(td);
        }
        tbody.append(tr);
      }
      table.append(thead, tbody);
    }
    if (ringSel) {
      const keep = ringSel.value;
      ringSel.replaceChildren(new Option("no ring", ""));
      for (const [label, mm] of Object.entries(info.rings || {})) ringSel.append(new Option(label, String(mm)));
      ringSel.value = keep;
      ringSel.hidden = !Object.keys(info.rings || {}).length;
    }
    document.querySelectorAll('[data-board="move-mode"]').forEach((b) => { b.hidden = !info.hand; });
    decorate();
  }
  function decorate() {
    const hl = new Set(info.highlight || []);
    board.querySelectorAll("[data-pick]").forEach((n) => {
      n.classList.toggle("changed", hl.has(n.dataset.pick));
      if (n.matches(".unit, .piece") && info.hand && movable(n)) n.classList.add("movable");
    });
    if (selected && !board.contains(selected)) {
      selected = board.querySelector(`[data-pick="${CSS.escape(selected.dataset.pick)}"]`);
    }
    drawRing();
  }
  function show(data) {
    info = data;
    untab();
    renderInfo();
    root.dataset.boardReady = String((Number(root.dataset.boardReady) || 0) + 1);
  }
  async function load(replaceSvg) {
    try {
      // the page has drawn the board already: the rest only, unless asked for the SVG too
      const r = await fetch(replaceSvg ? `${api}/board` : `${api}/board?svg=false`, { credentials: "same-origin" });
      if (!r.ok) return;
      const data = await r.json();
      if (replaceSvg) { selfUpdate = true; board.innerHTML = data.svg; } // the server's escaped SVG
      show(data);
    } catch (err) {
      say(`board: ${err.message}`);
    }
  }
  // the phone's sheet folded or unfolded (app.js): the board refits the height it has
  document.addEventListener("vedette:sheet", reset);
  // a group of the phone's Next index opened (app.js: ``ids``, the pieces its lines are
  // about): those pieces panned into the board's part the taller sheet leaves in view, the
  // zoom kept; nothing moves when they are in it already
  document.addEventListener("vedette:pieces", (e) => {
    const ids = new Set((e.detail && e.detail.ids) || []);
    const boxes = [...board.querySelectorAll("[data-pick]")].filter((n) => ids.has(n.dataset.pick))
      .map((n) => n.getBoundingClientRect()).filter((r) => r.width || r.height);
    if (!boxes.length) return;
    const vr = viewport.getBoundingClientRect();
    const sheet = document.querySelector(".panel");
    const bottom = Math.min(vr.bottom, sheet ? sheet.getBoundingClientRect().top : vr.bottom, innerHeight);
    const top = Math.max(vr.top, 0);
    if (bottom - top < 24) return; // (no board in view to bring them into)
    const [l, t, r, b] = [Math.min(...boxes.map((x) => x.left)), Math.min(...boxes.map((x) => x.top)),
      Math.max(...boxes.map((x) => x.right)), Math.max(...boxes.map((x) => x.bottom))];
    if (t >= top && b <= bottom && l >= vr.left && r <= vr.right) return;
    view.x += (vr.left + vr.right - l - r) / 2;
    view.y += (top + bottom - t - b) / 2;
    clamp();
    fitted = false;
    apply();
  });
  // an action's answer carries the board's legend, roster and highlights (app.js passes them)
  document.addEventListener("vedette:changed", (e) => (e.detail && e.detail.board ? show(e.detail.board) : load(false)));
  untab();
  reset();
  // the viewport's box changed (a phone: the tools above it grew, the sheet's room with them):
  // a view the player has not moved is fitted again
  if (window.ResizeObserver) new ResizeObserver(() => { if (fitted) reset(); }).observe(viewport);
  load(false);
})();
