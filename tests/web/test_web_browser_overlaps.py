"""Issue 26 item 4: boards where no piece or label hides another, measured in the browser.

Every sample board is drawn by chromium and its parts measured (``getBoundingClientRect``, the
rendered boxes): no text label (a unit's, a general's, a terrain feature's) covers more than
``LABEL_OVERLAP`` of another, and no piece (counter, stack, unit, general's marker) is covered
by more than ``PIECE_COVER`` of its box by one piece drawn above it (counters stacked in one hex
are fanned so that each shows at least half). Kuryakin is measured again after a charge, whose
melee brings two units together. The figures are printed (``-s``).
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from tests.web.test_web_browser import new_game
from tests.web.test_web_browser_boards import SAMPLES, ready
from vedette import rules
from vedette.engine import Game, Store

#: the most one label's box may overlap another's (of the smaller box)
LABEL_OVERLAP = 0.10
#: the most one piece's box may be covered by one piece drawn above it
PIECE_COVER = 0.50

MEASURE = """
() => {
  const svg = document.querySelector('#board svg');
  const box = (e) => { const r = e.getBoundingClientRect();
                       return {x0: r.left, y0: r.top, x1: r.right, y1: r.bottom}; };
  const area = (b) => Math.max(0, b.x1 - b.x0) * Math.max(0, b.y1 - b.y0);
  const inter = (a, b) => area({x0: Math.max(a.x0, b.x0), y0: Math.max(a.y0, b.y0),
                                x1: Math.min(a.x1, b.x1), y1: Math.min(a.y1, b.y1)});
  const name = (e) => (e.closest('[data-pick]')?.dataset.pick || '') + ':' +
                      (e.textContent || e.tagName).trim().slice(0, 30);
  const labels = [...svg.querySelectorAll('text')].filter(t =>
      t.closest('.table, .map, .pieces, g.unit, g.general, g.piece, g.stack, .feature-names') &&
      !t.closest('.badge') && t.textContent.trim() && area(box(t)) > 0);
  let worstLabel = {ratio: 0, a: '', b: ''};
  for (let i = 0; i < labels.length; i++) for (let j = i + 1; j < labels.length; j++) {
    const a = box(labels[i]), b = box(labels[j]);
    const r = inter(a, b) / Math.max(1e-9, Math.min(area(a), area(b)));
    if (r > worstLabel.ratio) worstLabel = {ratio: r, a: name(labels[i]), b: name(labels[j])};
  }
  const pieces = [...svg.querySelectorAll('g.piece, g.stack, g.unit, g.general')];
  let worstPiece = {ratio: 0, a: '', b: ''};
  for (let i = 0; i < pieces.length; i++) for (let j = i + 1; j < pieces.length; j++) {
    // j is drawn after i (document order): it may cover i
    const shape = (g) => g.querySelector('polygon, rect, circle, use') || g;
    const a = box(shape(pieces[i])), b = box(shape(pieces[j]));
    const r = inter(a, b) / Math.max(1e-9, area(a));
    if (r > worstPiece.ratio) worstPiece = {ratio: r, a: pieces[i].dataset.pick || '',
                                            b: pieces[j].dataset.pick || ''};
  }
  // a label under a piece drawn after it (not its own): a marker on a unit's name
  let worstHidden = {ratio: 0, a: '', b: ''};
  for (const t of labels) for (const g of pieces) {
    const after = t.compareDocumentPosition(g) & Node.DOCUMENT_POSITION_FOLLOWING;
    if (g.contains(t) || !after) continue;
    const shape = g.querySelector('polygon, rect, circle, use') || g;
    const a = box(t);
    const r = inter(a, box(shape)) / Math.max(1e-9, area(a));
    if (r > worstHidden.ratio) worstHidden = {ratio: r, a: name(t), b: g.dataset.pick || ''};
  }
  return {labels: labels.length, pieces: pieces.length, worstLabel, worstPiece, worstHidden};
}
"""


def measure(page: Any) -> dict[str, Any]:
    return dict(page.evaluate(MEASURE))


def check(page: Any, what: str) -> None:
    m = measure(page)
    wl, wp, wh = m["worstLabel"], m["worstPiece"], m["worstHidden"]
    print(
        f"{what}: {m['labels']} labels, worst label overlap {wl['ratio']:.0%} ({wl['a']} /"
        f" {wl['b']}); {m['pieces']} pieces, worst cover {wp['ratio']:.0%} ({wp['a']} under"
        f" {wp['b']}); worst label under a piece {wh['ratio']:.0%} ({wh['a']} under {wh['b']})"
    )
    assert m["labels"] > 0 and m["pieces"] > 0
    assert wl["ratio"] <= LABEL_OVERLAP, (what, wl)
    assert wp["ratio"] <= PIECE_COVER, (what, wp)
    assert wh["ratio"] <= LABEL_OVERLAP, (what, wh)


@pytest.mark.parametrize("ruleset", SAMPLES)
def test_no_piece_or_label_hides_another_on_the_sample_boards(
    page: Any, live_server: str, ruleset: str
) -> None:
    new_game(page, live_server, f"overlap-{ruleset}", ruleset, "sample")
    ready(page)
    check(page, ruleset)


def _after_a_charge(db: Path, name: str) -> str:
    """The Kuryakin sample played from ``todo`` (seeded choices, a charge taken whenever one is
    offered) until a charge has gone in and its owed steps are done: the charger and its target
    are then in contact. Returns the charge's line."""
    rs = rules.get("solo_napoleonic")
    g = Game.create(Store(db), name, rs.name, rs.scenario("sample"), seed=1)
    rng = random.Random(1)
    charged = ""
    for _ in range(400):
        todo = g.todo()
        owed = [t for t in todo if t.owed]
        if charged and not owed:
            return charged
        charges = [t for t in todo if t.procedure == "charge" and not t.owed]
        t = owed[0] if owed else charges[0] if charges else rng.choice(todo)
        req = dict(t.request)
        for k, choices in t.open.items():
            req[k] = rng.choice(list(choices))
        try:
            out = g.perform(t.procedure, req)
        except Exception:  # (an open entry's random pick the rules refuse: pick again)
            continue
        if t.procedure == "charge" and "will not charge" not in out.message:
            charged = out.message
    raise AssertionError("no charge went in")


def test_no_label_hides_another_after_a_charge(page: Any, live_server: str, live_db: Path) -> None:
    line = _after_a_charge(live_db, "overlap-charge")
    print(line[:80])
    page.goto(f"{live_server}/games/overlap-charge")
    ready(page)
    check(page, "solo_napoleonic after a charge")
