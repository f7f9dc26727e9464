// vedette web: a thin page over the JSON API. No framework, no third-party code.
"use strict";

const meta = () => document.querySelector('meta[name="csrf-token"]');
const csrf = () => meta().content;

class ApiError extends Error {
  constructor(message, status) { super(message); this.status = status; }
}

function note(text) {
  let n = document.getElementById("page-note");
  if (!n) {
    n = el("p", { id: "page-note", class: "note", role: "status" });
    document.querySelector("main").prepend(n);
  }
  n.textContent = text;
}

async function send(url, body) {
  const r = await fetch(url, {
    method: "POST",
    headers: { "Content-Type": "application/json", "X-CSRF-Token": csrf() },
    body: JSON.stringify(body || {}),
    credentials: "same-origin",
  });
  const data = await r.json().catch(() => ({ error: "bad response" }));
  if (!r.ok) throw new ApiError(data.error || r.statusText, r.status);
  return data;
}

// A stale token (the server restarted since the page loaded): fetch a fresh one (and its
// cookie) and retry once; if that fails too, reload the page, saying why.
async function post(url, body) {
  try {
    return await send(url, body);
  } catch (e) {
    if (!(e instanceof ApiError) || e.status !== 403 || !/CSRF/.test(e.message)) throw e;
    try {
      const r = await fetch("/api/csrf", { credentials: "same-origin" });
      meta().content = (await r.json()).token;
      document.querySelectorAll('input[name="csrf"]').forEach((i) => { i.value = meta().content; });
      note("the server was restarted: the page renewed its token and tried again");
      return await send(url, body);
    } catch (again) {
      note("the server was restarted: reloading the page…");
      setTimeout(() => location.reload(), 800);
      throw again;
    }
  }
}

async function get(url) {
  const r = await fetch(url, { credentials: "same-origin" });
  const data = await r.json().catch(() => ({ error: "bad response" }));
  if (!r.ok) throw new ApiError(data.error || r.statusText, r.status);
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
    const titles = JSON.parse(opt.dataset.titles || "{}");
    sc.replaceChildren(...(opt.dataset.scenarios || "").split(",").filter(Boolean)
      .map((s) => el("option", { value: s }, titles[s] ? `${titles[s]} (${s})` : s)));
    if (sc.dataset.kept && [...sc.options].some((o) => o.value === sc.dataset.kept)) sc.value = sc.dataset.kept;
  };
  rs.addEventListener("change", () => { sc.dataset.kept = ""; fill(); });
  fill();
}

// a value as a form field shows it (lists and objects as JSON, which the server parses back)
const fieldText = (v) => (typeof v === "string" ? v : JSON.stringify(v));

// -- the game page ---------------------------------------------------------------------------
function initGame() {
  const root = document.getElementById("game");
  if (!root) return;
  const game = root.dataset.game;
  const api = `/api/games/${encodeURIComponent(game)}`;
  const sel = document.getElementById("procedure");
  const oddsBox = document.getElementById("odds");
  const result = document.getElementById("result");
  const picked = document.getElementById("picked");
  const initial = JSON.parse(document.getElementById("page-data").textContent);
  let seq = initial.seq;
  let oldest = null;
  let lastField = null;

  const form = () => document.querySelector(`form.proc[data-proc="${CSS.escape(sel.value)}"]`);
  const fields = (f) => [...(f || form()).querySelectorAll("input, select")];
  const show = () => {
    document.querySelectorAll("form.proc").forEach((f) => { f.hidden = f !== form(); });
    lastField = null;
    clearErrors();
    refreshOdds(true);
    sheetLine();
  };
  const request = (f) => {
    const out = {};
    for (const i of fields(f)) if (i.value.trim() !== "") out[i.name] = i.value.trim();
    return out;
  };
  // (a field of the open form is there to pick into while the phone's sheet is folded away)
  const visible = (i) => (i.offsetParent !== null || (document.querySelector(".panel.folded") && !i.closest("form[hidden]")))
    && !i.closest("details:not([open])");

  function clearErrors() {
    document.querySelectorAll(".field-error").forEach((s) => { s.hidden = true; s.textContent = ""; });
    document.querySelectorAll(".field.invalid, .open-choices.invalid").forEach((l) => l.classList.remove("invalid"));
  }

  // a Next entry's part (its choices) in the Next list's view; on a phone the sheet at its
  // top too: the result (compact), the Next entries under it, Roll held at the sheet's bottom
  // (it was scrolled to a result below the form: the choices above its view)
  const phone = () => matchMedia("(max-width: 700px)").matches;
  function inReach(part) {
    const ol = document.getElementById("next");
    const li = part?.closest("li");
    if (!li) return;
    fitNext(); // (a result just shown above the list takes from its room)
    const at = ol.getBoundingClientRect();
    const box = part.getBoundingClientRect();
    const top = li.getBoundingClientRect().top - at.top;
    // (the phase's end held at the list's bottom edge covers what is under it)
    const held = ol.querySelector("li.ends");
    const under = held && held !== li ? held.getBoundingClientRect().height : 0;
    const bottom = box.bottom - at.bottom + under;
    // the entry's top at the list's top, unless that leaves the part's end below its view:
    // then that end at the list's bottom, never the part's start above the list's top
    ol.scrollTop += bottom > top ? Math.min(bottom, box.top - at.top) : top;
    if (phone() && !document.querySelector(".panel.folded")) document.querySelector(".panel").scrollTop = 0;
    else part.scrollIntoView({ block: "nearest" });
  }

  // an error naming a field of the open form (or of the sequence's) is shown beside it (the
  // form is kept)
  function fieldError(message, f = form()) {
    if (!f) return false;
    const names = fields(f).map((i) => i.name).sort((a, b) => b.length - a.length);
    // a field named as the server's messages name one: 'to', distance=..., "band must ..."
    const esc = (n) => n.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
    const hit = names.find((n) => new RegExp(`'${esc(n)}'|\\b${esc(n)}=|^${esc(n)} must`).test(message));
    if (!hit) return false;
    // a field the chosen Next entry offers choices for (a stated move's distance): said by
    // its choices, brought into view with Roll, one tap away (not its typed box opened in
    // the form's "more", the choices out of the sheet's view)
    const row = phone() && f === form() && chosenItem?.procedure === sel.value
      ? chosenItem._li?.querySelector(`.open-choices[data-field="${CSS.escape(hit)}"]`) : null;
    if (row) {
      row.classList.add("invalid");
      result.append(el("p", { class: "error", role: "alert" }, message));
      inReach(row);
      return true;
    }
    const label = f.querySelector(`.field[data-field="${CSS.escape(hit)}"]`);
    const details = label.closest("details");
    if (details) details.open = true;
    label.classList.add("invalid");
    const span = label.querySelector(".field-error");
    span.textContent = message;
    span.hidden = false;
    label.scrollIntoView({ block: "nearest" }); // where the eye is: on a phone it may be out of the sheet's view
    return true;
  }

  // a game played with the player's own dice: one tap per face, no typing; the tap that gives
  // the last face the step takes does it (no Roll: the entry, its choices, the faces). How
  // many it takes: the odds' answer for the form as it is (the dice it rolls whatever the
  // faces), or a refusal's (a face that called for one more die, asked for then)
  const diceAsk = document.getElementById("dice-ask");
  let ownNeed = null; // { key: the step and its fields as asked, n: faces }
  let askedMore = null; // (the same, from the refusal)
  const stepKey = (procedure, req) => JSON.stringify([procedure, req]);
  const facesGiven = () => document.getElementById("dice").value.trim().split(/\s+/).filter(Boolean).length;
  const needed = (key) => (askedMore?.key === key ? askedMore.n : ownNeed?.key === key ? ownNeed.n : 0);
  async function diceTapped() {
    showFaces();
    sheetLine();
    if (digit !== null) return; // (a percentile die's tens: its units to come)
    // a field just changed: the odds of the step as it is now first
    if (!needed(stepKey(sel.value, request()))) await refreshOdds();
    const n = needed(stepKey(sel.value, request()));
    if (n && digit === null && facesGiven() === n) act();
  }
  document.querySelectorAll(".dice-pad .face").forEach((b) => b.addEventListener("click", () => {
    const box = document.getElementById("dice");
    box.value = `${box.value.trim()} ${b.dataset.face}`.trim();
    digit = null;
    showFaces();
    diceTapped();
  }));
  document.querySelector(".dice-pad .face-clear")?.addEventListener("click", () => {
    document.getElementById("dice").value = "";
    digit = null;
    askedMore = null;
    if (diceAsk) diceAsk.hidden = true;
    showFaces();
    sheetLine();
  });
  // a step whose one roll is a check of the total of two like dice (2d6: a table read on the
  // sum, no die told from the other): both faces in one tap, one button per pair the dice can
  // show (the faces kept, smaller first); a tap replaces the dice box (a slip is one more tap).
  // Any other roll keeps the face buttons, one tap per face (the rule may read each face).
  const pairPad = document.querySelector(".dice-pairs");
  const facePad = document.querySelector(".dice-pad");
  function dicePairs(list) {
    if (!pairPad) return;
    const m = list.length === 1 ? /^2d([2-6])$/.exec((list[0].expression || "").trim()) : null;
    const sides = m ? Number(m[1]) : 0;
    if (String(sides) === pairPad.dataset.sides) return;
    pairPad.dataset.sides = String(sides);
    const buttons = [];
    for (let a = 1; a <= sides; a++) {
      for (let b = a; b <= sides; b++) {
        const pair = el("button", { type: "button", class: "pair", "data-faces": `${a} ${b}`, "aria-label": `${a} and ${b}` }, `${a}+${b}`);
        pair.addEventListener("click", () => { document.getElementById("dice").value = `${a} ${b}`; diceTapped(); });
        buttons.push(pair);
      }
    }
    pairPad.replaceChildren(...buttons);
    pairPad.hidden = !sides;
    facePad.hidden = !!sides;
  }

  // a step whose dice depend on its faces (O'Leary 6.1: a 6 on the bore-sight die calls for a
  // direction die and a distance die): every sequence of faces to the step's end, one tap each
  // (the server's own_paths), in the pairs' place. A row per faces before the last die, its
  // buttons that die's faces: "d6: 1 2 3 4 5", then "6 1: 1 ... 6" (a 6, direction 1, then the
  // distance die); each button's name says the whole sequence and the dice
  function dicePaths(paths) {
    if (!pairPad || !paths || !paths.length) return false;
    const key = JSON.stringify(paths.map((p) => p.faces));
    if (pairPad.dataset.sides !== `paths ${key}`) {
      pairPad.dataset.sides = `paths ${key}`;
      const rows = new Map();
      for (const p of paths) {
        const head = p.faces.slice(0, -1).join(" ");
        if (!rows.has(head)) {
          const name = p.names[p.names.length - 1];
          const label = head ? `${head}, ${name}:` : `${name}:`;
          rows.set(head, el("div", { class: "dice-row path-row", role: "group", "aria-label": label }, el("span", { class: "dice-name" }, head ? `${head}:` : `${name}:`)));
        }
        const words = p.faces.map((f, i) => `${p.names[i]} ${f}`).join(", ");
        const b = el("button", { type: "button", class: "pair path", "data-faces": p.faces.join(" "), "aria-label": words, title: words }, `${p.faces[p.faces.length - 1]}`);
        b.addEventListener("click", () => { document.getElementById("dice").value = p.faces.join(" "); sheetLine(); act(); });
        rows.get(head).append(b);
      }
      pairPad.replaceChildren(...rows.values());
    }
    pairPad.hidden = false;
    facePad.hidden = true;
    return true;
  }

  // a die the face buttons (1-10) cannot show, rolled by the step: a pad of its own faces
  // (Kuryakin's dK8/dK12 movement dice, +3 to -3 and +5 to -5); percentile dice (faces 0-99,
  // two d10s read 00-99) as two digit taps, the tens die then the units die. The face buttons
  // keep only the faces of the largest plain die the step rolls (one row for a d6)
  const customPad = document.querySelector(".dice-custom");
  let digit = null; // the tens digit of a percentile roll, waiting for its units
  const isOdd = (d) => d.faces.some((f) => f < 1 || f > 10);
  // the step's dice (their faces), and the order their faces are given in (names; the first
  // of them for the face given at 'from': a die asked for after the faces given)
  let knownDice = [];
  let diceOrder = { names: [], from: 0 };
  // the face buttons: only the faces of the die asked next (a shuffle's d10, d9 ... d2 in
  // turn: a d4's 1-4, never a 5 it cannot show); past the dice known, those of the largest
  // plain die the step rolls; nothing known of the step's dice: every face button
  const diceNext = document.getElementById("dice-next"); // (the card asked next, by name)
  function showFaces() {
    const k = facesGiven() - diceOrder.from;
    const name = diceOrder.names[k];
    const gone = dealt(k);
    if (diceNext) {
      const card = knownDice.find((d) => d.name === name && d.deck);
      diceNext.textContent = card ? `next: ${name} (${k + 1} of ${diceOrder.names.length})` : "";
    }
    customPad?.querySelectorAll(".face[data-deck]").forEach((b) => { b.hidden = gone.has(Number(b.dataset.value)); });
    if (!facePad) return;
    const plain = knownDice.filter((d) => !isOdd(d));
    const die = plain.find((d) => d.name === name);
    // (a card of a deck of more than ten: its row's buttons only)
    const top = knownDice.some((d) => d.name === name && d.deck) ? 0
      : knownDice.length ? Math.max(0, ...plain.flatMap((d) => d.faces)) : 10;
    facePad.querySelectorAll(".face").forEach((b) => {
      const f = Number(b.dataset.face);
      b.hidden = die ? !die.faces.includes(f) || gone.has(f) : f > top;
    });
  }
  // a real deck's deal (Kuryakin, K80): the cards turned up so far from the deck of the card
  // asked next (the ``k``th of the step's dice), out of its faces: every card is given on
  // this page, the deal sent once with the last (it was a round trip per card)
  function dealt(k) {
    const deck = knownDice.find((d) => d.name === diceOrder.names[k])?.deck;
    const out = new Set();
    if (!deck) return out;
    const given = document.getElementById("dice").value.trim().split(/\s+/).filter(Boolean);
    for (let i = 0; i < k; i++) {
      if (knownDice.find((d) => d.name === diceOrder.names[i])?.deck === deck) out.add(Number(given[i + diceOrder.from]));
    }
    return out;
  }
  function customDice(dice, order = [], known = false) {
    knownDice = dice;
    diceOrder = Array.isArray(order) ? { names: order, from: 0 } : order;
    // (a step the odds say rolls no dice: no face buttons, their room the Next list's)
    if (facePad) facePad.hidden = (known && !dice.length) || Number(pairPad?.dataset.sides || 0) > 0;
    showFaces();
    if (!customPad) return;
    // the step rolls the player's dice: the folded phone sheet shows their buttons (its pad,
    // pairs or own faces) over its line, so no tap is spent unfolding it to give them
    const needs = dice.length > 0;
    const was = root.classList.contains("sheet-dice");
    root.classList.toggle("sheet-dice", needs);
    if (needs !== was) sheetLine(); // (the faces given said in it, or not)
    if (needs && !was) boardUp();
    const odd = dice.filter(isOdd);
    const key = odd.map((d) => d.name).join(" ");
    if (key === (customPad.dataset.dice || "")) return;
    customPad.dataset.dice = key;
    const box = () => document.getElementById("dice");
    const add = (v) => { box().value = `${box().value.trim()} ${v}`.trim(); };
    const groups = [];
    const decks = new Set();
    for (const d of odd) {
      // (a deck of more than ten cards: one row for the deck, its cards turned up hidden)
      if (d.deck && decks.has(d.deck)) continue;
      if (d.deck) decks.add(d.deck);
      const button = (text, title, click) => {
        const b = el("button", { type: "button", class: "face", "data-die": d.name, "data-value": text, "aria-label": title }, text);
        if (d.deck) b.dataset.deck = d.deck;
        b.addEventListener("click", () => { click(); diceTapped(); });
        return b;
      };
      // (numbered cards left in a deck, a real deck's deal: in their order, no sign)
      const counting = d.faces.every((f) => f >= 1);
      const faces = [...new Set(d.faces)].sort((a, b) => (counting ? a - b : b - a));
      let buttons;
      let label = d.deck ? `${d.deck} cards` : d.name;
      if (d.faces.length === 100 && faces[0] === 99 && faces[faces.length - 1] === 0) {
        label = `${d.name}: tens, units`;
        buttons = [...Array(10).keys()].map((t) => button(`${t}`, `${d.name} digit ${t}`, () => {
          if (digit === null) { add(t); digit = t; return; }
          const parts = box().value.trim().split(/\s+/);
          parts[parts.length - 1] = String(digit * 10 + t);
          box().value = parts.join(" ");
          digit = null;
        }));
      } else {
        buttons = faces.map((f) => button(f > 0 && !counting ? `+${f}` : `${f}`, `${d.name} face ${f}`, () => { add(f); digit = null; }));
      }
      groups.push(el("div", { class: "dice-row", role: "group", "aria-label": label }, el("span", { class: "dice-name" }, label), ...buttons));
    }
    customPad.replaceChildren(...groups);
    customPad.hidden = !odd.length;
    showFaces(); // (a deck's cards turned up: hidden in its new row too)
  }

  // -- the "next" panel: obligations first, then what is open now ---------------------------
  let chosenItem = null;
  function choose(item) {
    chosenItem = item;
    sel.value = item.procedure;
    if (sel.value !== item.procedure) return;
    document.querySelectorAll("form.proc").forEach((f) => { f.hidden = f !== form(); });
    clearErrors();
    const f = form();
    for (const i of fields(f)) i.value = "";
    // the request's fields, an open field with a single choice (nothing left to pick), and
    // each open field after the first set to its first offered choice (issue 26.2: the full
    // distance, straight ahead ...; shown chosen, one tap changes it): the entry, one tap on
    // the first field's choice (or the board) and Roll
    const open = Object.entries(item.open || {});
    const one = open.filter(([, cs]) => cs.length === 1).map(([k, cs]) => [k, cs[0]]);
    const rest = open.filter(([, cs], j) => j > 0 && cs.length > 1).map(([k, cs]) => [k, cs[0]]);
    for (const [k, v] of rest) {
      const row = item._li?.querySelector(`.open-choices[data-field="${CSS.escape(k)}"]`);
      row?.querySelectorAll(".choice").forEach((b) => b.classList.toggle("chosen", b.dataset.value === fieldText(v)));
    }
    for (const [k, v] of [...Object.entries(item.request || {}), ...one, ...rest]) {
      const i = f.querySelector(`[name="${CSS.escape(k)}"]`);
      if (!i) continue;
      i.value = fieldText(v);
      const details = i.closest("details");
      if (details) details.open = true;
    }
    lastField = null;
    refreshOdds(true);
    prefill();
    sheetLine();
    fitNext(); // (the chosen entry's room, the held end's)
  }

  let shownTodo = [];
  // one Next entry: its button (a tap chooses it and fills the form), its choices
  // an entry of Next; ``text``: its words when not the item's own (a unit's later entry)
  function entry(item, n, cls, text = null) {
    const ol = document.getElementById("next");
    // (``data-todo``: its place in todo, the same in the list, the index and a piece's lines)
    const at = shownTodo.findIndex((t) => t === item || (t.procedure === item.procedure && t.text === item.text));
    const btn = el("button", { type: "button", class: "next-item", "data-procedure": item.procedure, "data-n": n, "data-todo": at },
      el("span", { class: "next-text" }, ...(text || [item.owed ? `owed: ${item.text}` : item.text])));
    if (item.rule) btn.append(el("span", { class: "rule" }, ` (${item.rule})`));
    btn.addEventListener("click", () => {
      ol.querySelectorAll(".chosen").forEach((b) => b.classList.remove("chosen"));
      btn.classList.add("chosen");
      choose(item);
      if (phone()) inReach(li); // (its choices in the list's view: a tap each)
    });
    const li = el("li", { class: cls }, btn);
    item._li = li;
    openChoices(item, btn, li);
    return li;
  }
  // a piece tapped on the board: its entries at the Next list's top while it is the one
  // tapped, each one tap, then Roll (three taps in all, from the piece itself, never a scroll
  // down a long list): the player's own reports on it (ASL: reveal, drop, a fortification's
  // CA; not in Next: losing concealment is the player's report, not a suggestion), then the
  // Next entries about it (the ruleset's pick fields name it: ``pieces``), as todo gives
  // them (same words, request and choices: what plan accepts)
  let counters = initial.counters || {};
  function showCounter(id) {
    const own = Object.hasOwn(counters, id) ? counters[id] : []; // (an id "toString": not the object's)
    const about = shownTodo.filter((t) => !t.refused && (t.pieces || []).includes(id)).map((t) => ({ ...t }));
    showEntries([...own, ...about], id);
  }
  // (the sheet back to its own height: a piece's or a group's lines gone; the page as it was
  // before the group lifted the board, unless the player scrolled it since)
  let lifted = null;
  const ungrow = () => {
    const p = document.querySelector(".panel");
    p?.classList.remove("piece", "grown");
    if (p) p.style.maxHeight = "";
    if (lifted && Math.abs(scrollY - lifted.to) < 2) scrollTo(0, lifted.from);
    lifted = null;
  };
  // a group opened, its sheet taller: the page scrolled just enough to bring the board's box
  // out from under it (at most the box's top to the screen's top: the game's title and the
  // board's tools above it, a scroll back away), and the group's pieces panned into the
  // board's part in view (board.js). An opened unit of ten lines took 80% of the screen: the
  // board under it, the unit its lines are about out of sight
  function lift(items) {
    const vp = document.getElementById("board-viewport");
    if (!vp) return;
    const box = vp.getBoundingClientRect();
    const by = Math.max(0, Math.min(box.top, box.bottom - document.querySelector(".panel").getBoundingClientRect().top));
    if (by >= 1) {
      const from = scrollY;
      scrollTo(0, from + by);
      lifted = { from, to: scrollY };
    }
    const ids = [...new Set(items.flatMap((t) => t.pieces || []))];
    document.dispatchEvent(new CustomEvent("vedette:pieces", { detail: { ids } }));
  }
  // ``items`` at the Next list's top (a piece's, or a group of the list's index: ``opened``,
  // each with its first row of choices in view, a choice's tap choosing its entry too, and
  // the sheet taller if they need it: the group, a choice or a line, Roll)
  function showEntries(items, id = null, opened = false) {
    const ol = document.getElementById("next");
    ol.querySelectorAll("li.counter").forEach((li) => li.remove());
    const lis = [];
    ungrow();
    // (its name said by the board: each line's words after it, its rule once chosen)
    const cls = (same, split) => "counter" + (opened ? " opened" : "") + (same ? " same" : split ? " lead" : "");
    lines(items, (item, n, same, split) => lis.push(entry(item, `c${n}`, cls(same, split), split)), id);
    if (!lis.length) return;
    ol.prepend(...lis);
    ol.scrollTop = 0;
    if (phone()) {
      if (document.querySelector(".panel.folded")) fold(false);
      document.querySelector(".panel").classList.add("piece");
      if (opened) document.querySelector(".panel").classList.add("grown");
      document.querySelector(".panel").scrollTop = 0;
      fitNext(); // (the list's room: the answer above it shortened)
      if (opened) lift(items);
    }
  }
  // the Next entries as lines: ``each(item, n, same, split)``, ``same`` for a unit's entries
  // after its first ("IR 49 Hiller may wheel left", "... may turn left"): short buttons side
  // by side under it, its name said once (kept in the text, for a screen reader and the
  // chosen entry; shown once chosen; ``split``: the name and the rest of the words); ten lines
  // a unit were two screens of 2 by 2's list
  // (grouped by the unit the request names as well as by the words: two units whose names
  // hold " may " ("Garde may A", "Garde may B") never join one group); ``id``: the piece
  // tapped, its entries' words led by its id said once too ("F3 moves", "F3 fires at A1")
  function lines(items, each, id = null) {
    let who = null;
    const led = (t) => (id !== null && t.startsWith(`${id} `) ? [t, `${id} `, t.slice(id.length + 1)] : null);
    for (const [n, item] of items.entries()) {
      const said = item.owed ? null : /^(.{2,}? may )(.+)$/s.exec(item.text) || led(item.text);
      const key = said ? JSON.stringify([said[1], item.request ? item.request.unit ?? null : null]) : null;
      const same = !!key && key === who;
      who = key;
      each(item, n, same, said ? [el("span", { class: "next-who" }, said[1]), said[2]] : null);
    }
  }
  // how the battle stands by a study's end that is no rule of the text (Ruleset.standing, the
  // line ``show`` and ``todo`` print): one muted line beside the Next title, its label ("army
  // morale (...): ") apart, so its one folded line shows the counts; a tap unfolds it
  function renderStanding(standing) {
    const p = document.getElementById("standing");
    if (!p) return;
    const text = standing ? String(standing.text || "") : "";
    p.hidden = !text;
    const cut = text.indexOf(": ") + 1;
    // folded: the short form where the ruleset gives one (every side's count at a glance),
    // else the words' start; a tap shows the whole text
    const short = standing && standing.short ? String(standing.short) : "";
    p.replaceChildren(
      ...(short ? [el("span", { class: "standing-short" }, short)] : []),
      ...(cut > 0 ? [el("span", { class: "standing-label" }, text.slice(0, cut) + " ")] : []),
      el("span", { class: "standing-words" }, text.slice(cut).trim())
    );
    p.classList.toggle("has-short", !!short);
    p.title = text;
  }
  document.getElementById("standing")?.addEventListener("click", (e) => {
    e.currentTarget.classList.toggle("open");
  });
  function renderNext(todo) {
    shownTodo = todo;
    ungrow(); // (a new answer: in full)
    const ol = document.getElementById("next");
    ol.replaceChildren();
    ol.classList.remove("tight");
    const lastEnd = todo.findLastIndex((t) => t.phase_end && !t.owed);
    lines(todo, (item, n, same, split) => {
      const text = same ? split : null;
      // the phase's end (its last entry, not owed): held at the list's bottom edge in view,
      // however long the list (a tap, never a scroll through 60 entries to reach it)
      const ends = n === lastEnd ? " ends" : "";
      const li = entry(item, n, (item.owed ? "owed" : "open") + ends + (same ? " same" : ""), text);
      if (item.refused) li.append(el("div", { class: "refused" }, `refused now: ${item.refused}`));
      if (item.owed && item.obligation) {
        const waive = el("button", { type: "button", class: "waive", "data-obligation": item.obligation }, "waive…");
        waive.addEventListener("click", async () => {
          if (!confirm(`Waive "${item.text}" (${item.rule || "the rules"})? It will not be done, and the log will say it was waived.`)) return;
          await perform("waive", { obligation: item.obligation }, "");
        });
        li.append(" ", waive);
      }
      ol.append(li);
    });
    if (!todo.length) ol.append(el("li", { class: "muted" }, "the referee owes nothing and suggests nothing: pick an action below"));
    if (phone() && !panel.classList.contains("folded")) {
      // (measured as it is shown: the first entry chosen, all its choices in view)
      ol.querySelector(".next-item")?.classList.add("chosen");
      fitNext();
      if (ol.scrollHeight > ol.clientHeight + 1) indexNext(todo, lastEnd);
    }
  }
  // a phone's Next list longer than its room (2 by 2's sixty lines, six units of ten): its
  // first view is an index, every entry three taps away with no scroll (11 of 50 entries of
  // an evening's walk lay below the fold): the entries owed, the one chosen first and the
  // phase's end as ever; every other unit's lines (or a line of its own) one button each,
  // side by side; its tap brings them to the list's top, each with its choices (then a
  // choice, or a line without any, and Roll). A piece tapped on the board does the same.
  // The lines that were in the list's view stay as they were, above the index (one tap, then
  // a choice or Roll: a group's tap made them three), as many as leave the index in view
  function indexNext(todo, lastEnd) {
    const ol = document.getElementById("next");
    const kept = inView(ol);
    const runs = [];
    lines(todo, (item, n, same, split) => {
      if (!same || !runs.length) runs.push({ who: split ? split[0].textContent.replace(/ may $/, "") : null, items: [] });
      runs[runs.length - 1].items.push([n, item, same, split]);
    });
    const build = (tight) => {
      ol.replaceChildren();
      ol.classList.toggle("tight", tight);
      const index = el("li", { class: "index" });
      let end = null;
      for (const run of runs) {
        const rest = [];
        for (const [n, item, same, split] of run.items) {
          if (item.owed || n === 0 || n === lastEnd || kept.includes(n)) {
            const cls = n === lastEnd ? " ends" : n === 0 && !item.owed ? " first" : same && n > 0 ? " same" : "";
            const li = entry(item, n, (item.owed ? "owed" : "open") + cls, cls === " same" ? split : null);
            if (item.refused) li.append(el("div", { class: "refused" }, `refused now: ${item.refused}`));
            if (n === lastEnd) end = li;
            else ol.append(li);
          } else rest.push(item);
        }
        if (rest.length) index.append(group(rest, run.who));
      }
      if (index.childElementCount) ol.append(index);
      if (end) ol.append(end);
      ol.querySelector(".next-item")?.classList.add("chosen");
      fitNext();
    };
    // (the index out of the list's view: three buttons a row, then the last line kept goes
    // into it, until it is in view)
    const over = () => ol.scrollHeight > ol.clientHeight + 1;
    for (;;) {
      build(false);
      if (!over()) break;
      build(true);
      if (!over() || !kept.length) break;
      kept.pop();
    }
    squeeze();
  }
  // the lines of the list (laid out whole) wholly in its view, from its top, in order (the
  // phase's end held at its bottom edge covers what is under it): their todo places
  function inView(ol) {
    const held = ol.querySelector("li.ends");
    const bottom = ol.getBoundingClientRect().top + ol.clientHeight - (held ? held.offsetHeight : 0);
    const out = [];
    for (const li of ol.children) {
      if (li === held) continue;
      const b = li.querySelector(":scope > .next-item");
      if (!b || li.getBoundingClientRect().bottom > bottom + 1) break;
      out.push(Number(b.dataset.n));
    }
    return out;
  }
  // an index still longer than its room: the step chosen first on one line, three buttons a
  // row; then (the step with more choices than fit: a Napoleon At Bay move's hexes) its first
  // row of them, and a button of its own in the index for them all
  function squeeze() {
    const ol = document.getElementById("next");
    const over = () => ol.scrollHeight > ol.clientHeight + 1;
    if (!ol.classList.contains("tight")) ol.classList.toggle("tight", over());
    const first = ol.querySelector("li.first:not(.part)");
    if (over() && first && first.querySelector(".open-choices") && shownTodo[0]) {
      first.classList.add("part");
      // (only if that hides some of them)
      const rows = [...first.querySelectorAll(".open-choices")];
      if (rows.length < 2 && rows.every((r) => r.scrollHeight <= r.clientHeight + 1)) { first.classList.remove("part"); return; }
      let index = ol.querySelector("li.index");
      if (!index) ol.insertBefore(index = el("li", { class: "index" }), ol.querySelector("li.ends")); // (its only button)
      index.prepend(group([shownTodo[0]], null));
    }
  }
  // the list's room changed after it was laid out (the player's dice buttons shown under it
  // once the step's odds say what it rolls, or put away): laid out again, the index then, or
  // a tighter one, or the lines its new room holds (the entry chosen first still the one
  // chosen, as the player left its choices; another entry chosen: the list as it is)
  function reindex() {
    const ol = document.getElementById("next");
    if (!phone() || panel.classList.contains("folded") || ol.querySelector("li.counter")) return;
    if (!shownTodo.length) return;
    const over = ol.scrollHeight > ol.clientHeight + 1;
    // (an index with room for a line more than it keeps)
    const spare = !over && !!ol.querySelector("li.index") && parseFloat(ol.style.maxHeight) - ol.scrollHeight >= 44;
    if (!over && !spare) return;
    if (chosenItem !== shownTodo[0]) { if (over && ol.querySelector("li.index")) squeeze(); return; }
    renderNext(shownTodo);
    const f = form();
    for (const row of chosenItem._li?.querySelectorAll(".open-choices") || []) {
      const i = f?.querySelector(`[name="${CSS.escape(row.dataset.field)}"]`);
      row.querySelectorAll(".choice").forEach((b) => b.classList.toggle("chosen", !!i && b.dataset.value === i.value));
    }
  }
  // a button of the index: ``items`` (a unit's lines, or a line of its own) at the list's top
  function group(items, who) {
    const ol = document.getElementById("next");
    const words = items.length > 1 && who ? `${who} (${items.length})` : items.length > 1 ? `${items.length} more` : items[0].text;
    const b = el("button", { type: "button", class: "next-group", title: items.map((t) => t.text).join("\n"),
      "data-todo": items.map((t) => shownTodo.indexOf(t)).join(" ") }, words);
    b.addEventListener("click", () => {
      showEntries(items, null, true);
      // a line of its own: chosen at once (its choices, or Roll, next)
      if (items.length === 1) ol.querySelector("li.counter > .next-item")?.click();
    });
    return b;
  }

  // an open entry (issue 22): each field the state leaves to the player, with the choices the
  // referee accepts, one tap each (a long list: the first ones, then a pick of the rest)
  const SHOWN_CHOICES = 12;
  // a choice's words: the label its form's list shows for that value ("dummy HIP counter" for
  // dummy_hip), a list's items ("none" when empty: 2 by 2's stated contagion, a follow-up's
  // contact), else the value itself
  const words = (procedure, k, v) => {
    // (a pair of a list: ASL's 2.4.2 group, the stacks or locations exchanged, "4N3 <-> 4P5")
    const item = (x) => (Array.isArray(x) && x.length === 2 ? x.map(fieldText).join(" <-> ") : fieldText(x));
    if (Array.isArray(v)) return v.length ? v.map(item).join(" + ") : "none";
    const text = fieldText(v);
    const sel = document.querySelector(`form.proc[data-proc="${CSS.escape(procedure)}"] select[name="${CSS.escape(k)}"]`);
    const opt = sel ? [...sel.options].find((o) => o.value === text) : null;
    return opt && opt.textContent ? opt.textContent : text;
  };
  function openChoices(item, btn, li) {
    for (const [k, choices] of Object.entries(item.open || {})) {
      const row = el("div", { class: "open-choices", "data-field": k }, el("span", { class: "choice-label" }, `${k}:`));
      const pick = (v, chip) => {
        if (chosenItem !== item) {
          document.querySelectorAll("#next .chosen").forEach((b) => b.classList.remove("chosen"));
          btn.classList.add("chosen");
          choose(item);
        }
        const i = form()?.querySelector(`[name="${CSS.escape(k)}"]`);
        if (!i) return;
        i.value = fieldText(v);
        row.querySelectorAll(".choice.chosen").forEach((b) => b.classList.remove("chosen"));
        if (chip) chip.classList.add("chosen");
        refreshOdds(true);
        sheetLine();
      };
      for (const v of choices.slice(0, SHOWN_CHOICES)) {
        const chip = el("button", { type: "button", class: "choice", "data-value": fieldText(v) }, words(item.procedure, k, v));
        chip.addEventListener("click", () => pick(v, chip));
        row.append(chip);
      }
      if (choices.length > SHOWN_CHOICES) {
        const more = el("select", { class: "choice-more", "aria-label": `more choices of ${k}` },
          el("option", { value: "" }, `${choices.length - SHOWN_CHOICES} more…`),
          ...choices.slice(SHOWN_CHOICES).map((v, j) => el("option", { value: String(j + SHOWN_CHOICES) }, words(item.procedure, k, v))));
        more.addEventListener("change", () => { if (more.value) pick(choices[Number(more.value)], null); });
        row.append(more);
      }
      li.append(row);
    }
  }

  // -- odds ------------------------------------------------------------------------------------
  // the quick-reference sheet's part for this action (issue 26.7): its numbers, folded
  function referenceBox(sections) {
    const box = el("details", { class: "ref-beside" },
      el("summary", {}, `quick reference: ${sections.map((s) => s.title).join(", ")}`));
    const add = (s, depth) => {
      const part = el("div", { class: "ref-part", "data-path": s.path }, el(depth ? "h5" : "h4", {}, s.title));
      for (const e of s.entries) {
        part.append(el("div", { class: "ref-entry" + (e.house ? " house" : "") }, `${e.label}: ${e.value}`,
          e.note ? el("span", { class: "muted" }, ` (${e.note})`) : ""));
      }
      for (const g of s.grids) {
        part.append(el("table", { class: "ref-grid" },
          el("thead", {}, el("tr", {}, ...g.columns.map((c) => el("th", {}, c)))),
          el("tbody", {}, ...g.rows.map((r) => el("tr", {}, ...r.map((c) => el("td", {}, c)))))));
      }
      box.append(part);
      for (const sub of s.sections) add(sub, depth + 1);
    };
    for (const s of sections) add(s, 0);
    box.append(el("a", { href: `/help/${encodeURIComponent(document.getElementById("game").dataset.ruleset || "")}/tables` }, "the whole sheet"));
    return box;
  }

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
  // clear: another action or another form (never an old chart or error under new fields);
  // a field edited keeps the chart until the new one arrives
  async function refreshOdds(clear) {
    const ticket = ++pending;
    ownNeed = null;
    if (clear === true) oddsBox.replaceChildren();
    const f = form();
    if (!f || f.dataset.odds !== "yes") { oddsBox.replaceChildren(); dicePairs([]); customDice([]); return; }
    // a form not yet filled in is not an error: say what the odds wait for
    const missing = fields(f).filter((i) => i.dataset.required === "yes" && i.value.trim() === "").map((i) => i.name);
    if (missing.length) {
      oddsBox.replaceChildren(el("p", { class: "muted odds-wait" }, `odds once ${missing.join(", ")} ${missing.length > 1 ? "are" : "is"} filled in`));
      dicePairs([]);
      // (no faces either: none can do the step before the field is filled; their room the
      // Next list's, and the field's choice tapped shows the ones its dice take)
      customDice([], [], true);
      return;
    }
    try {
      const key = stepKey(sel.value, request());
      const data = await post(`${api}/odds`, { procedure: sel.value, request: request(), refusal: "answer" });
      if (ticket !== pending) return;
      ownNeed = data.own_needed ? { key, n: data.own_needed } : null;
      dicePairs(data.refused ? [] : data.odds);
      // (a step refused as it stands: no faces either, none can do it; its room the list's)
      customDice(data.own_dice || [], data.own_order || [], !!data.refused || Array.isArray(data.own_dice));
      if (!data.refused) dicePaths(data.own_paths);
      if (data.refused) oddsBox.replaceChildren(el("p", { class: "muted" }, `odds: ${data.refused}`));
      else renderOdds(data.odds);
      if (data.reference && data.reference.length) oddsBox.append(referenceBox(data.reference));
      // the dice pads shown shrink the Next list (O'Leary 6.1's seven rows of faces): on a
      // phone the chosen entry's chosen choice (the target the dice are for) is kept in its view
      const pads = document.querySelector(".dice-pairs:not([hidden]), .dice-custom:not([hidden])");
      const picked = chosenItem?._li?.querySelector(".open-choices .choice.chosen");
      if (phone() && pads && picked) inReach(picked);
    } catch (e) {
      if (ticket === pending) oddsBox.replaceChildren(el("p", { class: "muted" }, `odds: ${e.message}`));
    }
  }

  // -- the odds of a whole sequence (issue 17): GET sequences is rendered in the page, POST
  // chances computes; exact fractions, or sampled with 95% intervals, said in words -----------
  const seqPart = document.getElementById("sequences");
  const seqSel = document.getElementById("sequence");
  const seqBtn = document.getElementById("seq-btn");
  const seqOut = document.getElementById("seq-result");
  const seqForm = () => (seqSel ? document.querySelector(`form.seq[data-seq="${CSS.escape(seqSel.value)}"]`) : null);
  let seqBusy = false;

  // the sequence's empty fields take the open action's values of the same name (the unit,
  // the target); a choice naming the open action (2 by 2's attack: shoot or melee) takes it
  function prefill() {
    const f = seqForm();
    const from = form();
    if (!f || !seqPart.open) return;
    // a sequence's "unit" (the one acting: 2 by 2's attack) is the open action's first field
    // taking a unit that the sequence names otherwise (a shot's firer, a melee's attacker)
    const named = new Set(fields(f).map((i) => i.name));
    const actor = from ? fields(from).find((i) => !named.has(i.name) && i.value.trim() !== ""
      && (i.dataset.pick || "").split(" ").includes("unit")) : null;
    for (const i of fields(f)) {
      if (i.value.trim() !== "") continue;
      const same = from?.querySelector(`[name="${CSS.escape(i.name)}"]`);
      if (same && same.value.trim() !== "") i.value = same.value.trim();
      else if (i.name === "unit" && actor) i.value = actor.value.trim();
      else if (i.tagName === "SELECT" && [...i.options].some((o) => o.value === sel.value)) i.value = sel.value;
    }
  }

  function showSeq() {
    document.querySelectorAll("form.seq").forEach((f) => { f.hidden = f !== seqForm(); });
    seqOut.replaceChildren();
    prefill();
  }

  const pct = (x) => `${(100 * x).toFixed(2)}%`;

  function chanceTable(rows, sampled, caption) {
    const head = el("tr", {}, el("th", { scope: "col" }, caption), el("th", { scope: "col" }, "chance"),
      el("th", { scope: "col" }, "percent"));
    if (sampled) head.append(el("th", { scope: "col" }, "95% interval"));
    const body = el("tbody");
    for (const r of rows) {
      const tr = el("tr", { "data-result": r.result },
        el("td", { class: "end" }, r.result),
        el("td", { class: "frac" }, r.p),
        el("td", { class: "pct" },
          el("span", { class: "track" }, el("span", { class: "bar", style: `width:${Math.max(100 * r.float, 0.5)}%` })),
          el("span", { class: "num" }, pct(r.float))));
      if (sampled) tr.append(el("td", { class: "interval" }, r.low === null ? "" : `${pct(r.low)} – ${pct(r.high)}`));
      body.append(tr);
    }
    return el("table", { class: "chances" }, el("thead", {}, head), body);
  }

  function renderChances(name, data) {
    const sampled = !data.exact;
    const box = el("div", { class: "chances-box", "data-exact": data.exact ? "yes" : "no" },
      el("h3", {}, `${name}: ${sampled ? "sampled" : "exact"} odds of each end state`));
    if (sampled) {
      box.append(el("p", { class: "note sampled", role: "note" },
        `Sampled, not exact (${data.note}): the fractions count ${data.leaves} runs of the sequence with random dice; the 95% interval of each is shown.`));
    } else box.append(el("p", { class: "muted" }, `exact: all ${data.leaves} dice branches enumerated`));
    const rows = [...data.outcomes].sort((a, b) => b.float - a.float); // most likely first
    box.append(chanceTable(rows, sampled, "end state"));
    if (data.each.length) {
      box.append(el("h4", {}, "each, whatever else happens"), chanceTable(data.each, sampled, "event"));
    }
    seqOut.replaceChildren(box);
  }

  async function computeSeq() {
    const f = seqForm();
    if (seqBusy || !f) return; // one computation at a time
    seqBusy = true;
    seqBtn.disabled = true;
    seqPart.setAttribute("aria-busy", "true");
    clearErrors();
    const name = seqSel.value;
    seqOut.replaceChildren(el("p", { class: "busy", role: "status" }, `computing the odds of ${name}… (every die of the whole sequence)`));
    const body = { procedure: name, request: request(f), refusal: "answer" };
    const limit = document.getElementById("seq-limit").value.trim();
    if (limit !== "") body.limit = Number(limit);
    try {
      const data = await post(`${api}/chances`, body);
      if (data.refused) throw new ApiError(data.refused, 400); // shown beside its field, below
      renderChances(name, data);
    } catch (e) {
      seqOut.replaceChildren();
      if (!fieldError(e.message, f)) seqOut.append(el("p", { class: "error", role: "alert" }, `${name}: ${e.message}`));
    } finally {
      seqBusy = false;
      seqBtn.disabled = false;
      seqPart.removeAttribute("aria-busy");
    }
  }

  if (seqPart) {
    seqSel.addEventListener("change", showSeq);
    seqPart.addEventListener("toggle", () => { if (seqPart.open) prefill(); });
    seqBtn.addEventListener("click", computeSeq);
    document.querySelectorAll("form.seq").forEach((f) => {
      f.addEventListener("submit", (e) => { e.preventDefault(); computeSeq(); });
      fields(f).forEach((i) => {
        i.addEventListener("focus", () => { lastField = i; });
        // new fields: the old answer is not theirs (unless it is still being computed)
        i.addEventListener("input", () => { if (!seqBusy) seqOut.replaceChildren(); });
        i.addEventListener("keydown", (e) => { if (e.key === "Enter") { e.preventDefault(); computeSeq(); } });
      });
    });
    document.getElementById("seq-limit").addEventListener("keydown", (e) => { if (e.key === "Enter") { e.preventDefault(); computeSeq(); } });
    showSeq();
  }

  // -- the log: one line per entry, the record on demand, paged --------------------------------
  function recordTable(rows) {
    const table = el("table", { class: "record" });
    const body = el("tbody");
    for (const r of rows) {
      const key = el("th", { scope: "row" }, r.key);
      key.style.paddingLeft = `${0.3 + r.depth}em`;
      body.append(el("tr", { class: r.value === "" ? "group" : "" }, key, el("td", {}, r.value)));
    }
    table.append(body);
    return table;
  }

  function logItem(item) {
    const summary = el("summary", {}, `#${item.seq} ${item.line}`);
    if (item.undone) summary.append(el("span", { class: "undone-mark" }, " [undone]"));
    const details = el("details", {}, summary);
    details.addEventListener("toggle", async () => {
      if (!details.open || details.dataset.filled) return;
      details.dataset.filled = "yes";
      for (const line of item.lines) details.append(el("div", { class: "line" }, line));
      try {
        details.append(recordTable((await get(`${api}/log/${item.seq}`)).rows));
      } catch (e) {
        details.append(el("p", { class: "error" }, e.message));
      }
    });
    return el("li", { class: item.undone ? "undone" : "", "data-seq": item.seq }, details);
  }

  function addLog(entries, where) {
    const ul = document.getElementById("log");
    const items = entries.map(logItem);
    if (where === "top") ul.prepend(...items);
    else ul.append(...items);
    for (const e of entries) if (oldest === null || e.seq < oldest) oldest = e.seq;
  }

  // an undone action stays undone: the server sends the ones newly undone (or in its page)
  function markUndone(undone) {
    const set = new Set(undone);
    document.querySelectorAll("#log li[data-seq]").forEach((li) => {
      const was = li.classList.contains("undone");
      const now = was || set.has(Number(li.dataset.seq));
      if (was === now) return;
      li.classList.toggle("undone", now);
      const s = li.querySelector("summary");
      if (now) s.append(el("span", { class: "undone-mark" }, " [undone]"));
      else s.querySelector(".undone-mark")?.remove();
    });
  }

  // the whole board, its map drawn in (a page whose map is not the one of the answer)
  async function reloadBoard() {
    const data = await get(`${api}/board`);
    const board = document.getElementById("board");
    if (board) board.innerHTML = data.svg;
  }

  // older entries, 200 at a time (a 340-action game pages back in two taps)
  const LOG_MORE = 200;
  async function olderLog() {
    const data = await get(`${api}/log?before=${oldest}&limit=${LOG_MORE}`);
    addLog(data.entries, "bottom");
    document.getElementById("log-more").hidden = !data.more;
  }

  function update(view) {
    const board = document.getElementById("board");
    if (board && view.board !== undefined) {
      // an answer to a page that sent its seq leaves the map (a static layer) as an empty
      // slot of the same key: the map this page shows already goes back into it
      const shown = board.querySelector("#map-layer[data-layer]");
      board.innerHTML = view.board;
      const slot = board.querySelector("#map-layer[data-layer]");
      if (slot && !slot.hasChildNodes()) {
        if (shown && shown.dataset.layer === slot.dataset.layer) slot.replaceWith(shown);
        else reloadBoard();
      }
    }
    addLog(view.log, "top");
    markUndone(view.undone_seqs);
    seq = view.seq;
    counters = view.counters || {};
    renderStanding(view.standing);
    renderNext(view.todo);
    bindBoard();
    if (seqOut) seqOut.replaceChildren(); // odds of the game as it was: gone
    // the board's legend, roster and highlights come with an action's answer (board.js)
    document.dispatchEvent(new CustomEvent("vedette:changed", { detail: { seq, board: view.board_info } }));
  }

  // -- board picks: only a visible field of the open form that takes that kind ---------------
  let lastPick = { key: "", at: 0 };
  // ``under``: where a picked piece stands ({kind: "hex"|"location", value}): a piece no open
  // field takes picks the hex or location it stands on (a place under a counter is tapped
  // through it: the stack drawn over it covers most of it)
  // the field a pick filled is the one the next pick goes to: focused with a mouse (Enter
  // then does it); on a touch screen only remembered (a focused box opens the phone's keyboard
  // over the board, for a value tapped, not typed)
  const aim = (i) => {
    if (matchMedia("(pointer: fine)").matches) i.focus();
    else lastField = i;
  };
  function onPick(kind, value, under) {
    const key = `${kind}:${JSON.stringify(value)}`;
    if (key === lastPick.key && Date.now() - lastPick.at < 100) return; // one pick, told twice
    lastPick = { key, at: Date.now() };
    const text = fieldText(value);
    // the field of the chosen Next entry that offers this very choice (Kuryakin's chance card
    // 'on' a unit, a general riding 'to' one: fields whose names say nothing of the board),
    // the first of them still empty
    const sf = seqPart && seqPart.open ? seqForm() : null;
    const af = form();
    if (!sf && af && chosenItem && chosenItem.procedure === sel.value) {
      const offering = Object.entries(chosenItem.open || {})
        .filter(([k, cs]) => cs.some((c) => fieldText(c) === text))
        .map(([k]) => af.querySelector(`[name="${CSS.escape(k)}"]`)).filter(Boolean);
      const into = offering.find((i) => !i.value) || offering[0];
      if (into) {
        picked.textContent = "";
        into.value = text;
        chosenItem._li?.querySelectorAll(`.open-choices[data-field="${CSS.escape(into.name)}"] .choice`)
          .forEach((b) => b.classList.toggle("chosen", b.dataset.value === text));
        into.dispatchEvent(new Event("input"));
        aim(into);
        return;
      }
    }
    // a piece tapped that is not the chosen entry's choice: its own entries first (a
    // fortification or a minefield is picked as a place: its id names it all the same)
    if (kind === "unit" || Object.hasOwn(counters, text)) showCounter(text);
    // the form the player works in first: the one of the field last focused, else the
    // sequence's while that part is open, else the action's
    const order = sf && !(lastField && form()?.contains(lastField)) ? [sf, form()] : [form(), sf];
    for (const f of order.filter(Boolean)) {
      let takes = fields(f).filter((i) => visible(i) && (i.dataset.pick || "").split(" ").includes(kind));
      // a point on the table for a position given as optional x and y (folded away): unfold it
      const fx = f.querySelector('[name="x"]');
      if (!takes.length && kind === "point" && fx && !f.hidden && f.querySelector('[name="y"]')) {
        const d = fx.closest("details");
        if (d) d.open = true;
        takes = [fx];
      }
      // a list field of a sequence (the movers, their hexes) collects picks in order
      const list = (i) => f === sf && i.dataset.kind === "list";
      const mine = lastField && takes.includes(lastField) ? lastField : null;
      const empty = takes.find((i) => !i.value);
      const into = mine && (!mine.value || list(mine)) ? mine : empty || takes.find(list) || mine;
      if (!into) continue;
      picked.textContent = "";
      // a point on the table into a position given as x and y (2 by 2's reinforcement, in mm):
      // each coordinate in its own field (issue 26.2)
      const y = f.querySelector('[name="y"]');
      if (kind === "point" && into.name === "x" && y && Array.isArray(value)) {
        into.value = String(value[0]);
        y.value = String(value[1]);
        into.dispatchEvent(new Event("input"));
        y.dispatchEvent(new Event("input"));
        aim(into);
        return;
      }
      into.value = list(into) && into.value ? `${into.value},${text}` : text;
      into.dispatchEvent(new Event("input"));
      aim(into);
      return;
    }
    if (under && under.value) { onPick(under.kind, under.value); return; }
    picked.textContent = `picked ${kind} ${text} (no open field of this action${sf ? " or sequence" : ""} takes a ${kind})`;
  }
  document.addEventListener("vedette:pick", (e) => onPick(e.detail.kind, e.detail.value, e.detail.under));
  // does the form shown still ask for a pick of this kind in an empty field? (board.js: a tap
  // off a piece picks it unless a point is asked for; a position given as optional x and y,
  // folded away, asks for a point as well)
  window.vedetteAsks = (kind) => [form(), seqPart && seqPart.open ? seqForm() : null]
    .some((f) => f && !f.hidden && fields(f).some((i) => !i.value
      && (i.dataset.pick || "").split(" ").includes(kind) && (visible(i) || i.name === "x")));
  document.addEventListener("vedette:perform", (e) => perform(e.detail.procedure, e.detail.request, ""));

  // without the boards' own script, a click on a pickable element is a pick
  function pickKind(n) {
    const d = n.dataset;
    if (d.piece || d.unit || d.stack || d.fort || d.mines) return "unit";
    if (d.loc) return "location";
    if (d.hex) return "hex";
    return "unit";
  }
  const underOf = (n) => (n.dataset.loc ? { kind: "location", value: n.dataset.loc }
    : n.dataset.hex ? { kind: "hex", value: n.dataset.hex } : null);
  function bindBoard() {
    if (window.vedetteBoard) return;
    document.querySelectorAll("#board [data-pick]").forEach((n) => {
      n.addEventListener("click", (ev) => {
        if (window.vedetteBoard) return; // board.js loaded after this bound: it picks
        ev.stopPropagation();
        document.dispatchEvent(new CustomEvent("vedette:pick", { detail: { kind: pickKind(n), value: n.dataset.pick, under: underOf(n) } }));
      });
    });
  }

  // -- actions ---------------------------------------------------------------------------------
  let lastDone = null;
  // one write at a time: a second tap while the first is on its way (a double tap on Roll or
  // Undo, a face tapped as its step is sent) is not a second action or undo
  let writing = false;
  const once = (work) => async (...args) => {
    if (writing) return false;
    writing = true;
    try { return await work(...args); } finally { writing = false; }
  };
  const perform = once(async (procedure, req, dice) => {
    result.replaceChildren();
    askedMore = null;
    if (diceAsk) diceAsk.hidden = true;
    clearErrors();
    try {
      // a refusal comes back as an answer (no 4xx in the console): shown below, in place
      const data = await post(`${api}/perform`, { procedure, request: req, dice, since: seq, refusal: "answer" });
      // a face that calls for one more die (a failed morale test's chart d10): its pad now,
      // and its tap does the step
      if (data.refused && data.own_dice) customDice(data.own_dice, { names: data.own_order || [], from: data.own_from || 0 });
      askedMore = data.dice_needed && dice ? { key: stepKey(procedure, req), n: data.dice_needed } : null;
      if (data.refused) throw new ApiError(data.refused, 400);
      result.append(...data.lines.map((l) => el("div", { class: "line" }, l)));
      if (data.table_changes && data.table_changes.length) {
        result.append(el("h3", {}, "on the table"),
          el("ul", { class: "table-changes" }, ...data.table_changes.map((c) => el("li", {}, c))));
      }
      document.getElementById("dice").value = "";
      digit = null;
      showFaces();
      // what was done, as the form had it: an Undo of it brings it back to be done again or
      // changed (not the step chosen after it, refused once undone)
      const done = { procedure, req, item: chosenItem };
      update(data);
      lastDone = { ...done, seq: Number(document.querySelector("#log li")?.dataset.seq) };
      const first = data.todo[0];
      if (first) {
        document.querySelector("#next .next-item")?.classList.add("chosen");
        choose(first);
      } else refreshOdds(true);
      // the result where the eye is, with the step chosen next and its choices (on a phone
      // the result is at the sheet's top, the Next entries under it); the keyboard back on
      // the Next panel (issue 26.3, 26.5)
      const chosen = document.querySelector("#next .next-item.chosen");
      if (chosen && phone() && !document.querySelector(".panel.folded")) inReach(chosen.closest("li"));
      else result.scrollIntoView({ block: "nearest" });
      document.querySelector("#next .next-item")?.focus({ preventScroll: true });
      return true;
    } catch (e) {
      // one more die asked for (the faces given call for it): said by the dice buttons, in
      // view with them (the phone's sheet scrolled to its result, below: the buttons were
      // out of its view; folded, it stays folded), its face tap does the step
      if (askedMore && diceAsk) {
        diceAsk.textContent = e.message;
        diceAsk.hidden = false;
        document.querySelector(".dice-label")?.scrollIntoView({ block: "nearest" });
        // the asked die's own pad (a dK8 or a chart d10 drawn only on some faces) sits below
        // the ask: brought in view too, then the ask
        document.querySelector(".dice-custom:not([hidden])")?.scrollIntoView({ block: "nearest" });
        diceAsk.scrollIntoView({ block: "nearest" });
        // (its face tapped already, while the step was on its way: sent again with it)
        if (facesGiven() === askedMore.n) setTimeout(act, 0);
        return false;
      }
      // a refusal unfolds the phone's sheet: the whole line, and the field or dice it asks for
      fold(false);
      if (!fieldError(e.message)) {
        result.append(el("p", { class: "error", role: "alert" }, e.message));
        result.scrollIntoView({ block: "nearest" });
      }
      return false;
    }
  });

  // a required field still empty: said beside it (the sheet unfolded to show it), not asked
  // of the server
  const act = () => {
    const f = form();
    const empty = f ? fields(f).find((i) => i.dataset.required === "yes" && i.value.trim() === "") : null;
    if (empty) {
      result.replaceChildren();
      clearErrors();
      fold(false);
      const what = `missing '${empty.name}': pick it (a choice of the Next entry, on the board or in the form)`;
      if (!fieldError(what, f)) result.append(el("p", { class: "error", role: "alert" }, what));
      return Promise.resolve(false);
    }
    return perform(sel.value, request(), document.getElementById("dice").value.trim());
  };

  // -- the bottom sheet on a phone: folded to one line (the step Roll does next, Roll) so the
  // board fills the screen; one tap on the line unfolds it; remembered for this page (tab)
  const panel = document.querySelector(".panel");
  const foldBtn = document.getElementById("sheet-fold");
  const line = document.getElementById("sheet-line");
  const foldKey = `vedette:folded:${location.pathname}`;
  function fold(on) {
    if (panel.classList.contains("folded") === on) return; // (the board's zoom kept)
    panel.classList.toggle("folded", on);
    root.classList.toggle("sheet-folded", on);
    foldBtn.setAttribute("aria-expanded", String(!on));
    foldBtn.setAttribute("aria-label", on ? "unfold the sheet" : "fold the sheet: the board in view");
    foldBtn.textContent = on ? "\u25B4" : "\u25BE";
    try { sessionStorage.setItem(foldKey, on ? "yes" : ""); } catch (e) { /* storage off: not remembered */ }
    document.dispatchEvent(new CustomEvent("vedette:sheet", { detail: { folded: on } })); // the board refits
    boardUp();
  }
  // on a phone the Next list fills the sheet's view from its top (under the result) to Roll's
  // bar, less the player's dice buttons under it: more entries in reach than a fixed share of
  // the screen (8 of 32 adjudications of an evening needed a scroll first), the entries' ends
  // never under the bar. The form and the odds follow below, a scroll of the sheet away
  const nextList = document.getElementById("next");
  function fitNext() {
    boardRoom();
    // (the phase's end stays held at the list's bottom edge however long the chosen entry's
    // choices: they scroll above it, the end in reach (W7's rule; a Napoleon At Bay move's 30
    // hexes put it below the fold when it took its place in the list))
    if (!phone() || panel.classList.contains("folded")) {
      nextList.style.maxHeight = ""; // (a desktop's: CSS)
    } else {
      const listEnd = nextList.offsetTop + nextList.offsetHeight;
      // (the dice buttons, shown under the list)
      const below = [...panel.querySelectorAll(":scope > .dice-label, :scope > .dice-ask, :scope > .dice-pad, :scope > .dice-pairs, :scope > .dice-custom")]
        .filter((e) => e.offsetParent !== null && e.offsetHeight > 0)
        .reduce((end, e) => Math.max(end, e.offsetTop + e.offsetHeight), listEnd) - listEnd;
      const bar = panel.querySelector(":scope > .buttons").offsetHeight;
      const rim = panel.offsetHeight - panel.clientHeight;
      if (panel.classList.contains("grown")) growTo(below + bar + 8 + rim);
      const view = parseFloat(getComputedStyle(panel).maxHeight) - rim;
      const room = Math.max(view - nextList.offsetTop - bar - below - 8, 100);
      nextList.style.maxHeight = `${room}px`;
    }
  }
  // a group of the index opened: the sheet as tall as its lines need (each with its choices,
  // the phase's end held under them, the dice and Roll), never shorter than its own height,
  // at most 80% of the screen (CSS: .panel.grown); the board keeps the rest above it (the
  // sheet took 80% for a single line: the form and odds below it fill any sheet). ``rest``:
  // the sheet's height besides the list's room
  function growTo(rest) {
    const lines = nextList.querySelectorAll(":scope > li.counter");
    if (!lines.length) return;
    panel.style.maxHeight = "";
    const most = parseFloat(getComputedStyle(panel).maxHeight);
    const last = lines[lines.length - 1];
    const held = nextList.querySelector(":scope > li.ends");
    const need = last.offsetTop + last.offsetHeight - nextList.offsetTop + (held ? held.offsetHeight + 6 : 0) + 2;
    const own = 0.55 * innerHeight; // (the sheet's own max-height, CSS)
    panel.style.maxHeight = `${Math.min(most, Math.max(own, nextList.offsetTop + need + rest))}px`;
  }
  let fitting = 0;
  // a phone: the board's box ends where the sheet at its tallest begins (its max-height from
  // the screen's bottom), so no counter lies under the sheet, to be panned out first
  function boardRoom() {
    const vp = document.getElementById("board-viewport");
    // (a group of the index opened lets the sheet grow over the board a while: its box stays)
    if (!vp || !phone() || panel.classList.contains("grown")) return;
    const top = vp.getBoundingClientRect().top + scrollY;
    const sheet = parseFloat(getComputedStyle(panel).maxHeight) || 0;
    root.style.setProperty("--board-room", `${Math.max(innerHeight - sheet - top, 192)}px`);
  }
  const refit = () => { cancelAnimationFrame(fitting); fitting = requestAnimationFrame(() => { fitNext(); reindex(); }); };

  // folded with the dice buttons over the line (a percentile roll's digits and the d10 it may
  // call for: four rows): the board brought to the screen's top, above the sheet, its tools
  // (zoom, reset, move by tap) first (they were scrolled up out of reach; only the game's
  // title is), so it keeps more than half the screen
  function boardUp() {
    if (!root.classList.contains("sheet-folded") || !root.classList.contains("sheet-dice")) return;
    if (!matchMedia("(max-width: 700px)").matches) return; // (the sheet is a phone's)
    document.querySelector(".board-wrap")?.scrollIntoView({ block: "start" });
  }
  // the line: the chosen step and what is picked for it
  function sheetLine() {
    const f = form();
    const filled = f ? fields(f).filter((i) => i.value.trim() !== "" && !(chosenItem?.request && i.name in chosenItem.request)) : [];
    const what = chosenItem && chosenItem.procedure === sel.value ? chosenItem.text : sel.value;
    // (the faces given, for the player's own dice: the box is out of sight when folded)
    const given = document.getElementById("dice").value.trim();
    const dice = given && root.classList.contains("sheet-dice") ? [`dice ${given}`] : [];
    if (diceNext?.textContent && root.classList.contains("sheet-dice")) dice.push(diceNext.textContent);
    line.textContent = [what, ...filled.map((i) => `${i.name} ${i.value.trim()}`), ...dice].join(" · ");
    remember();
  }
  // the step being prepared (its entry, what is picked for it, the faces tapped), kept for this
  // tab: a phone that drops the page while it is in the background reloads it as it was, as
  // long as nothing was done in the game meanwhile
  const formKey = `vedette:form:${location.pathname}`;
  function remember() {
    const item = chosenItem && chosenItem.procedure === sel.value ? { procedure: chosenItem.procedure, text: chosenItem.text } : null;
    const kept = { seq, procedure: sel.value, item, req: request(), dice: document.getElementById("dice").value };
    try { sessionStorage.setItem(formKey, JSON.stringify(kept)); } catch (e) { /* storage off: not kept */ }
  }
  function kept() {
    try { return JSON.parse(sessionStorage.getItem(formKey) || "null"); } catch (e) { return null; }
  }
  function recall(kept) {
    if (!kept || kept.seq !== seq || !kept.req || !sel.querySelector(`option[value="${CSS.escape(kept.procedure)}"]`)) return;
    restore(kept);
    document.getElementById("dice").value = kept.dice || "";
  }
  foldBtn.addEventListener("click", () => fold(!panel.classList.contains("folded")));
  line.addEventListener("click", () => fold(false));

  // after an Undo: the action this page did, back in its form as it was sent (its Next entry
  // chosen again where it is offered again), else the first Next entry, as after an action
  function restore(again) {
    document.querySelectorAll("#next .chosen").forEach((b) => b.classList.remove("chosen"));
    const same = again?.item ? shownTodo.findIndex((t) => t.procedure === again.item.procedure && t.text === again.item.text) : -1;
    const item = again ? (same >= 0 ? shownTodo[same] : null) : shownTodo[0];
    if (item) {
      document.querySelector(`#next .next-item[data-n="${same >= 0 ? same : 0}"]`)?.classList.add("chosen");
      choose(item);
    }
    if (again) {
      if (!item) {
        chosenItem = null;
        sel.value = again.procedure;
        show();
      }
      const f = form();
      for (const i of fields(f)) i.value = again.req[i.name] ?? "";
      for (const row of item?._li?.querySelectorAll(".open-choices") || []) {
        row.querySelectorAll(".choice").forEach((b) => b.classList.toggle("chosen", b.dataset.value === (again.req[row.dataset.field] ?? "")));
      }
      sheetLine();
    }
    refreshOdds(true);
  }

  const undo = once(async () => {
    result.replaceChildren();
    try {
      const data = await post(`${api}/undo`, { since: seq, refusal: "answer" });
      if (data.refused) throw new ApiError(data.refused, 400);
      result.append(el("div", { class: "line" }, `undid #${data.undone}`));
      update(data);
      const again = lastDone && lastDone.seq === data.undone ? lastDone : null;
      lastDone = null;
      restore(again);
      document.querySelector("#next .next-item")?.focus({ preventScroll: true });
    } catch (e) {
      result.append(el("p", { class: "error", role: "alert" }, e.message));
    }
  });

  sel.addEventListener("change", show);
  document.querySelectorAll("form.proc").forEach((f) => {
    f.addEventListener("submit", (e) => { e.preventDefault(); act(); });
    fields(f).forEach((i) => {
      i.addEventListener("focus", () => { lastField = i; });
      i.addEventListener("input", () => { clearTimeout(i._t); i._t = setTimeout(refreshOdds, 150); sheetLine(); });
      i.addEventListener("change", () => { clearTimeout(i._t); i._t = setTimeout(refreshOdds, 150); sheetLine(); });
      // Enter submits the action, whatever the number of fields
      i.addEventListener("keydown", (e) => { if (e.key === "Enter") { e.preventDefault(); act(); } });
    });
  });
  document.getElementById("dice").addEventListener("input", showFaces);
  document.getElementById("dice").addEventListener("keydown", (e) => { if (e.key === "Enter") { e.preventDefault(); act(); } });
  // asked for: the odds where the eye is (on a phone they come below the result, out of the
  // sheet's view)
  const showOdds = async () => { await refreshOdds(); oddsBox.scrollIntoView({ block: "nearest" }); };
  document.getElementById("odds-btn").addEventListener("click", showOdds);
  document.getElementById("roll-btn").addEventListener("click", act);
  document.getElementById("undo-btn").addEventListener("click", undo);
  // keys (issue 26.5; the help page lists them): R rolls / does the chosen action, U undoes,
  // O shows its odds, N goes to the Next panel; never while typing in a field
  document.addEventListener("keydown", (e) => {
    if (e.altKey || e.ctrlKey || e.metaKey || e.repeat) return;
    const t = e.target;
    if (t && t.closest && t.closest("input, textarea, select, [contenteditable]")) return;
    const k = e.key.toLowerCase();
    if (k === "r") { e.preventDefault(); act(); }
    else if (k === "u") { e.preventDefault(); undo(); }
    else if (k === "o") { e.preventDefault(); showOdds(); }
    else if (k === "n") {
      e.preventDefault();
      document.querySelector("#next .next-item")?.focus({ preventScroll: false });
    }
  });
  document.getElementById("log-more").addEventListener("click", olderLog);

  const del = document.getElementById("delete-form");
  del.addEventListener("submit", (e) => {
    if (!confirm(`Delete the game "${del.dataset.game}" and its whole log? This cannot be undone.`)) {
      e.preventDefault();
      return;
    }
    del.querySelector('input[name="confirm"]').value = del.dataset.game;
    if (del.querySelector('input[name="export_first"]').checked) {
      e.preventDefault(); // the download first, then the delete
      const a = el("a", { href: document.getElementById("export-link").href, download: "" });
      document.body.append(a);
      a.click();
      a.remove();
      setTimeout(() => del.submit(), 700);
    }
  });

  try { if (sessionStorage.getItem(foldKey)) fold(true); } catch (e) { /* storage off */ }
  // (what sits above and under the list changes its room: a result, the dice buttons shown)
  if (window.ResizeObserver) {
    const watch = new ResizeObserver(refit);
    for (const e of panel.querySelectorAll(":scope > #result, :scope > .dice-label, :scope > .dice-ask, :scope > .dice-pad, :scope > .dice-pairs, :scope > .dice-custom")) watch.observe(e);
    // (the board's tools above it: a ring list shown pushes the board down, its room shrinks)
    const tools = document.querySelector(".board-tools");
    if (tools) watch.observe(tools);
  }
  addEventListener("resize", refit);
  document.addEventListener("vedette:sheet", refit);
  addLog(initial.log, "bottom");
  document.getElementById("log-more").hidden = !initial.more;
  const before = kept(); // (read first: choosing the first entry keeps that)
  renderStanding(initial.standing);
  renderNext(initial.todo);
  bindBoard();
  if (initial.todo.length) {
    document.querySelector("#next .next-item").classList.add("chosen");
    choose(initial.todo[0]);
  } else show();
  recall(before);
}

initIndex();
initGame();
