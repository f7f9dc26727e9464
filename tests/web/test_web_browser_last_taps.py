"""The last taps at the table, with the player's own dice (phone 360x740 and desktop 1280x800):
the face tap that gives the last die a step needs does the step, no Roll (a 2 by 2 shot was
four taps: entry, target, face, Roll; now the entry, the target, the face); each kind of own
dice (one die, a 2d6 pair read on its total, percentile digits, Kuryakin's dK movement die and
the d6 its faces may call for) is the entry and the faces the dice need. After it the board's
tools are in reach (the result below the odds scrolled the desktop's window 1,750 px down; the
phone's folded sheet scrolled them above the screen). A double tap on Roll or Undo is one action
or one undo. The new-game form sent twice at once makes one game. The console stays clean."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.web.conftest import Tabs, tab
from tests.web.test_web_browser_next import has, until
from tests.web.test_web_browser_phone import REACHED
from tests.web.test_web_browser_sheet import SMALL, own_until
from tests.web.test_web_browser_taps import MAP_PICK, answered
from vedette import rules
from vedette.engine import Game, Store

SCREENS: dict[str, dict[str, Any]] = {
    "phone": {"viewport": SMALL, "has_touch": True, "is_mobile": True},
    "desktop": {"viewport": {"width": 1280, "height": 800}},
}
#: keys pressed and Roll's clicks from here on (a tap never types; the faces do the step)
COUNT = """() => { window.__keys = 0; window.__rolls = 0;
    addEventListener('keydown', () => window.__keys++, true);
    document.getElementById('roll-btn').addEventListener('click', () => window.__rolls++); }"""
TOOLS = ".board-tools button[data-board='zoom-in']"


@pytest.fixture(params=list(SCREENS))
def screen(request: Any, tabs: Tabs) -> Iterator[Any]:
    """A phone's or a desktop's page; the test fails if its console logged an error."""
    errors: list[str] = []
    with tab(tabs, **SCREENS[request.param]) as pg:
        pg.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
        pg.on("pageerror", lambda e: errors.append(str(e)))
        yield pg
    assert not errors, errors


def tap(page: Any, sel: str) -> None:
    """One tap (a click on a desktop) on what is on screen now, nothing scrolled to it."""
    assert page.evaluate(REACHED, sel), sel
    if page.viewport_size["width"] <= SMALL["width"]:  # (the phone: a touch screen)
        page.tap(sel)
    else:
        page.click(sel)


def entry(page: Any, procedure: str, text: str = "") -> str:
    n = page.evaluate(
        """([p, t]) => [...document.querySelectorAll('#next button.next-item')]
            .find((b) => b.dataset.procedure === p && b.innerText.includes(t)).dataset.n""",
        [procedure, text],
    )
    return f"#next button.next-item[data-n='{n}']"


def shot(g: Game) -> None:
    own_until(g, "shoot", prefer=("shoot",))


def fixing(g: Game) -> None:
    g.perform("move", {"force": "F1", "to": "W2020"})


def shift(g: Game) -> None:
    until(g, has("shift"))


def morale(g: Game) -> None:
    own_until(g, "morale", prefer=("fire",))


def dk_move(g: Game) -> None:
    morale(g)
    own_until(g, "move")


#: a step played with the player's own dice: its game (ruleset, options), the play to it, its
#: entry (procedure, text), the taps after the entry (choices, then faces; a face a refusal
#: asks for after them), what the result says
STEPS: dict[str, tuple[Any, ...]] = {
    "2x2 shot": (
        ("two_by_two", {"play": "stated"}),
        shot,
        ("shoot", "24e Ligne"),
        ["{entry} ~ .open-choices[data-field=target] .choice[data-value='A2']"],
        [".dice-pad .face[data-face='5']"],
        [],
        "24e Ligne shoots IR 49 Hiller",
    ),
    "1 die": (
        ("napoleon_at_bay", {}),
        fixing,
        ("fix", ""),
        [],
        [".dice-pad .face[data-face='5']"],
        [],
        "fixing: 1d6=5",
    ),
    "2d6 pair": (
        ("solitaire_asl", {}),
        shift,
        ("shift", ""),
        [],
        [".dice-pairs .pair[data-faces='3 4']"],
        [],
        "2d6=(3+4)=7",
    ),
    "percentile": (
        ("solo_napoleonic", {}),
        morale,
        ("morale", ""),
        [],
        [f".dice-custom .face[data-die='dP'][data-value='{d}']" for d in "72"],
        [],
        "dP=72",
    ),
    "dK": (
        ("solo_napoleonic", {}),
        dk_move,
        ("move", ""),
        [],
        # a move from a standstill: a d6 (a low one ends it: its tap does the step), then the
        # dK8 asked for (its pad shown then), and a 4 then -2 calls for another d6
        [".dice-pad .face[data-face='4']"],
        [
            (".dice-custom .face[data-value='-2']", "die #2 (dK8) is needed"),
            (".dice-pad .face[data-face='3']", "die #3 (d6) is needed"),
        ],
        "1dK8=-2",
    ),
}


@pytest.mark.parametrize("case", list(STEPS))
def test_the_last_face_does_the_step(
    screen: Any, live_server: str, live_db: Path, request: Any, case: str
) -> None:
    (ruleset, options), play, (proc, text), choices, faces, more, said = STEPS[case]
    kind = request.node.callspec.params["screen"]
    name = f"last-{kind}-{case.replace(' ', '-')}"
    rs = rules.get(ruleset)
    g = Game.create(
        Store(live_db), name, ruleset, rs.scenario("sample"), 3, options, dice="physical"
    )
    play(g)
    page = screen
    page.goto(f"{live_server}/games/{name}")
    page.wait_for_selector("#next .next-item.chosen")
    page.evaluate(COUNT)
    before = str(page.get_attribute("#log li", "data-seq"))
    e = entry(page, proc, text)
    picks = [e, *(c.format(entry=e) for c in choices)]
    for sel in picks:
        tap(page, sel)
    # the step's dice known (its odds answered: the pads it rolls drawn), as they are by the
    # time a player has rolled them
    page.wait_for_selector("#odds > *", state="attached")
    for sel in faces:
        tap(page, sel)
    if not more:
        answered(page, before)
    taps = [*picks, *faces]
    # the faces given call for one more die: asked for, in place, by the dice buttons (in view
    # with them, its pad shown then), nothing written yet; its face tap does the step
    for sel, asked in more:
        page.wait_for_function(
            "a => document.getElementById('dice-ask').innerText.includes(a)", arg=asked
        )
        assert page.is_visible("#dice-ask")
        assert "roll it, tap its face after the others" in page.inner_text("#dice-ask")
        assert Game.open(Store(live_db), name).records[-1].seq == int(before)
        page.wait_for_selector(f"{sel}:not([hidden])")
        tap(page, sel)
        taps.append(sel)
    if more:
        page.wait_for_function(
            "b => document.querySelector('#log li').dataset.seq !== b", arg=before
        )
    out = page.inner_text("#result")
    assert said in out and not page.locator("#result .error").count(), out
    assert page.evaluate("[window.__rolls, window.__keys]") == [0, 0]
    # the tap count: the entry, one per choice, the faces the dice need
    assert len(taps) <= 3 or len(taps) == 1 + len(faces) + len(more), taps
    if case == "2x2 shot":
        assert len(taps) == 3
        rec = Game.open(Store(live_db), name).records[-1]
        assert rec.payload["request"]["target"] == "A2"
        assert [d["face"] for d in rec.payload["rolls"][0]["dice"]] == [5]
    # the board's tools in reach, the window where it was (nothing scrolled away; a die asked
    # for later brings its own pad into view, a few pixels at most on a desktop)
    assert page.evaluate(REACHED, TOOLS)
    assert page.evaluate("window.scrollY") <= (40 if more else 0)


def test_the_folded_sheet_s_dice_keep_the_board_s_tools_in_reach(
    tabs: Tabs, live_server: str, live_db: Path
) -> None:
    """A phone's folded sheet with the dice buttons over its line brings the board up so it
    keeps half the screen: its tools (zoom, reset) with it, in reach (they were scrolled above
    the screen, only a swipe back down to them); the face tap does the step."""
    rs = rules.get("solitaire_asl")
    name = "last-fold-asl"
    g = Game.create(Store(live_db), name, rs.name, rs.scenario("sample"), 3, dice="physical")
    shift(g)
    with tab(tabs, **SCREENS["phone"]) as page:
        page.goto(f"{live_server}/games/{name}")
        page.wait_for_selector("#next .next-item.chosen")
        page.tap("#sheet-fold")
        page.wait_for_selector(".dice-pairs .pair[data-faces='3 4']:visible")
        page.wait_for_function("() => window.scrollY > 0")  # the board brought up
        assert page.evaluate(REACHED, TOOLS)
        board = page.evaluate(
            """() => { const v = document.querySelector('.board-viewport').getBoundingClientRect();
            return Math.min(v.bottom, document.querySelector('.panel').getBoundingClientRect().top)
                - Math.max(v.top, 0); }"""
        )
        assert board >= SMALL["height"] / 2, board
        before = str(page.get_attribute("#log li", "data-seq"))
        page.tap(".dice-pairs .pair[data-faces='3 4']")
        answered(page, before)
        assert "2d6=(3+4)=7" in page.inner_text("#result")
        assert page.evaluate(REACHED, TOOLS)


@pytest.mark.parametrize("what", ["roll", "undo"])
def test_a_double_tap_is_one_action(
    screen: Any, live_server: str, live_db: Path, request: Any, what: str
) -> None:
    """Roll (or Undo) tapped twice before the answer came: one move made (or undone), not
    two (the second tap did the step chosen next, or undid the action before)."""
    kind = request.node.callspec.params["screen"]
    name = f"twice-{kind}-{what}"
    scen = rules.get("napoleon_at_bay").scenario("sample")
    g = Game.create(Store(live_db), name, "napoleon_at_bay", scen, seed=3)
    if what == "undo":
        g.perform("move", {"force": "F1", "to": "W2020"})
        g.perform("fix", {"moving": "F1", "contact": "R1"})
    page = screen
    page.goto(f"{live_server}/games/{name}")
    page.wait_for_selector("#next .next-item.chosen")
    if what == "roll":
        page.click(MAP_PICK) if kind == "desktop" else page.tap(MAP_PICK)
    before = str(page.get_attribute("#log li", "data-seq"))
    button = "#roll-btn" if what == "roll" else "#undo-btn"
    # two clicks in one go: the second before the first is answered, whatever the machine's pace
    page.evaluate("(s) => { const b = document.querySelector(s); b.click(); b.click(); }", button)
    answered(page, before)
    page.wait_for_load_state("networkidle")  # (a second request, had one been sent, answered)
    records = Game.open(Store(live_db), name).records
    kinds = [r.kind for r in records]
    if what == "roll":
        # (a second move of F1 was sent, refused: 'the fixing ... is owed first')
        assert len(records) == 2 and "moves W1920 -> W2020" in page.inner_text("#result")
        assert not page.locator("#result .error, .field-error:not([hidden])").count()
    else:
        assert kinds.count("undo") == 1, kinds
        assert Game.open(Store(live_db), name).state.pieces["F1"].hexes == ("W2020",)


def test_the_new_game_form_sent_twice_at_once_makes_one_game(
    screen: Any, live_server: str, live_db: Path, request: Any
) -> None:
    """The index's new-game form, filled, sent twice at once (a double tap on Start): both
    sendings open the same game (two were made, nab-1 and nab-2; named, the second said
    'already exists'), which opens with a clean console."""
    kind = request.node.callspec.params["screen"]
    page = screen
    page.goto(f"{live_server}/")
    page.fill("#new-game input[name=name]", f"twice-new-{kind}")
    page.select_option("#ruleset", "napoleon_at_bay")
    urls = page.evaluate(
        """async () => {
            const f = document.getElementById('new-game');
            const send = () => fetch(f.action, { method: 'POST', body: new FormData(f),
                                                 credentials: 'same-origin' });
            const rs = await Promise.all([send(), send()]);
            return rs.map((r) => `${r.status} ${new URL(r.url).pathname}`);
        }"""
    )
    assert urls == [f"200 /games/twice-new-{kind}"] * 2, urls
    assert [i.name for i in Store(live_db).games()].count(f"twice-new-{kind}") == 1
    page.goto(f"{live_server}/games/twice-new-{kind}")
    page.wait_for_selector("#next .next-item.chosen")
