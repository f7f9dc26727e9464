// vedette web: a thin page over the JSON API. No framework, no third-party code.
"use strict";

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

function el(tag, attrs, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (k === "class") e.className = v;
    else if (k === "style") e.style.cssText = v; // CSSOM: allowed by the CSP, unlike a style attribute
    else e.setAttribute(k, v);
  }
  for (const c of children) e.append(c instanceof Node ? c : document.createTextNode(String(c)));
  return e;
}

// -- the new-game form: scenarios follow the chosen ruleset ------------------------------
function initIndex() {
  const rs = document.getElementById("ruleset");
  const sc = document.getElementById("scenario");
  if (!rs || !sc) return;
  const fill = () => {
    const opt = rs.options[rs.selectedIndex];
    sc.replaceChildren(...(opt.dataset.scenarios || "").split(",").filter(Boolean)
      .map((s) => el("option", { value: s }, s)));
  };
  rs.addEventListener("change", fill);
  fill();
}

// -- the game page ---------------------------------------------------------------------------
function initGame() {
  const root = document.getElementById("game");
  if (!root) return;
  const game = root.dataset.game;
  const api = `/api/games/${encodeURIComponent(game)}`;
  const sel = document.getElementById("procedure");
  const oddsBox = document.getElementById("odds");
  const result = document.getElementById("result");
  let lastField = null;

  const form = () => document.querySelector(`form.proc[data-proc="${CSS.escape(sel.value)}"]`);
  const show = () => {
    document.querySelectorAll("form.proc").forEach((f) => { f.hidden = f !== form(); });
    lastField = null;
    refreshOdds();
  };
  const request = () => {
    const out = {};
    for (const i of form().querySelectorAll("input")) if (i.value.trim() !== "") out[i.name] = i.value.trim();
    return out;
  };

  function renderOdds(list) {
    oddsBox.replaceChildren();
    for (const o of list) {
      const title = `${o.label || "odds"} ${o.expression || ""}${o.note ? " (" + o.note + ")" : ""}`;
      const box = el("div", { class: "odds" }, el("h3", {}, title));
      const bmods = o.b_modifiers || [];
      if (o.modifiers.length || bmods.length) {
        const ul = el("ul", { class: "mods" });
        const side = bmods.length ? "A " : "";
        for (const m of o.modifiers) ul.append(el("li", {}, `${side}${m.value >= 0 ? "+" : ""}${m.value} ${m.reason}${m.rule ? " (" + m.rule + ")" : ""}`));
        for (const m of bmods) ul.append(el("li", {}, `B ${m.value >= 0 ? "+" : ""}${m.value} ${m.reason}${m.rule ? " (" + m.rule + ")" : ""}`));
        for (const m of o.superseded || []) ul.append(el("li", { class: "superseded" }, `not counted: ${m.value >= 0 ? "+" : ""}${m.value} ${m.reason}`));
        box.append(ul);
      }
      const chart = el("div", { class: "chart", role: "img", "aria-label": "odds chart" });
      for (const r of o.rows) {
        chart.append(el("div", { class: "row", "data-key": r.key },
          el("span", { class: "label" }, (r.range ? `[${r.range}] ` : "") + r.result),
          el("span", { class: "bar", style: `width:${Math.max(r.percent, 0.5)}%` }),
          el("span", { class: "p" }, `${r.percent.toFixed(2)}% (${r.p})`)));
      }
      box.append(chart);
      oddsBox.append(box);
    }
    if (!list.length) oddsBox.append(el("p", { class: "muted" }, "no dice for this action"));
  }

  let pending = 0;
  async function refreshOdds() {
    const f = form();
    if (!f || f.dataset.odds !== "yes") { oddsBox.replaceChildren(); return; }
    const ticket = ++pending;
    try {
      const data = await post(`${api}/odds`, { procedure: sel.value, request: request() });
      if (ticket === pending) renderOdds(data.odds);
    } catch (e) {
      if (ticket === pending) oddsBox.replaceChildren(el("p", { class: "muted" }, `odds: ${e.message}`));
    }
  }

  function renderLog(log) {
    const ol = document.getElementById("log");
    ol.replaceChildren();
    for (const item of log) {
      const details = el("details", {}, el("summary", {}, `#${item.seq} ${item.procedure}${item.undone ? " [undone]" : ""}`));
      for (const line of item.lines) details.append(el("div", { class: "line" }, line));
      details.append(el("pre", { class: "record" }, JSON.stringify(item.record, null, 2)));
      const li = el("li", { class: item.undone ? "undone" : "", "data-seq": item.seq }, details);
      ol.append(li);
    }
  }

  function update(view) {
    document.getElementById("board").innerHTML = view.board;
    renderLog(view.log);
    bindBoard();
  }

  function bindBoard() {
    document.querySelectorAll("#board [data-pick]").forEach((n) => {
      n.setAttribute("tabindex", "0");
      const pick = () => {
        // the field last focused if it is empty, else the first empty one, else the last focused
        const mine = lastField && form().contains(lastField) ? lastField : null;
        const empty = [...form().querySelectorAll("input")].find((i) => !i.value);
        const f = mine && !mine.value ? mine : empty || mine;
        if (f) { f.value = n.dataset.pick; f.dispatchEvent(new Event("input")); f.focus(); }
      };
      n.addEventListener("click", pick);
      n.addEventListener("keydown", (e) => { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); pick(); } });
    });
  }

  async function act() {
    result.replaceChildren();
    try {
      const dice = document.getElementById("dice").value.trim();
      const data = await post(`${api}/perform`, { procedure: sel.value, request: request(), dice });
      result.append(...data.lines.map((l) => el("div", { class: "line" }, l)));
      document.getElementById("dice").value = "";
      update(data);
      refreshOdds();
    } catch (e) {
      result.append(el("p", { class: "error", role: "alert" }, e.message));
    }
  }

  async function undo() {
    result.replaceChildren();
    try {
      const data = await post(`${api}/undo`, {});
      result.append(el("div", { class: "line" }, `undid #${data.undone}`));
      update(data);
      refreshOdds();
    } catch (e) {
      result.append(el("p", { class: "error", role: "alert" }, e.message));
    }
  }

  sel.addEventListener("change", show);
  document.querySelectorAll("form.proc input").forEach((i) => {
    i.addEventListener("focus", () => { lastField = i; });
    i.addEventListener("input", () => { clearTimeout(i._t); i._t = setTimeout(refreshOdds, 150); });
  });
  document.querySelectorAll("form.proc").forEach((f) => f.addEventListener("submit", (e) => { e.preventDefault(); act(); }));
  document.getElementById("odds-btn").addEventListener("click", refreshOdds);
  document.getElementById("roll-btn").addEventListener("click", act);
  document.getElementById("undo-btn").addEventListener("click", undo);
  renderLog(JSON.parse(document.getElementById("log-data").textContent));
  bindBoard();
  show();
}

initIndex();
initGame();
