"""Real-browser tests of the next panel (issue 15): each ruleset's owed step discharged from it;
each common adjudication in at most three clicks with no typing (stated play where the ruleset
has it); the form's rules (Enter submits, errors beside the field, picks never fill a hidden
field, the waiver confirmed by name); a stale token renewed; the after-action report export
opened in the browser. One turn of each sample played from the panel alone is in
test_web_browser_taps (on a phone)."""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import pytest

from tests.web.conftest import screenshot, tab
from vedette import rules
from vedette.engine import Game, Store

#: procedures that move the game on (phase, card, turn): what a turn is made of
ADVANCE = ("next", "phase", "end_movement", "end_combat", "end_turn", "deal", "control", "staff")


class Clicks:
    """Every click and keystroke the test makes on the page, counted."""

    def __init__(self, page: Any) -> None:
        self.page = page
        self.clicks = 0

    def click(self, selector: str) -> None:
        self.clicks += 1
        self.page.click(selector)


def make_game(
    db: Path, name: str, ruleset: str, scenario: Mapping[str, Any] | None = None, **options: Any
) -> Game:
    scen = scenario if scenario is not None else rules.get(ruleset).scenario("sample")
    return Game.create(Store(db), name, ruleset, scen, seed=3, options=options)


def unplaced(ruleset: str) -> dict[str, Any]:
    """The sample with no unit placed: positions are the player's table (stated facts)."""
    scen = json.loads(json.dumps(rules.get(ruleset).scenario("sample")))
    for u in scen.get("units", []):
        for k in ("x", "y", "facing"):
            u.pop(k, None)
    return dict(scen)


def until(g: Game, done: Callable[[Game], bool], prefer: tuple[str, ...] = (), n: int = 60) -> None:
    """Play from 'what next' (owed first, then ``prefer``, then the phase) until ``done``."""
    for _ in range(n):
        if done(g):
            return
        todo = g.todo()
        pick = next((t for t in todo if t.owed), None)
        pick = pick or next((t for t in todo if t.procedure in prefer), None)
        pick = pick or next(t for t in todo if t.procedure in ADVANCE)
        # an open entry: its first offered choice for each open field
        g.perform(pick.procedure, {**pick.request, **{k: v[0] for k, v in pick.open.items()}})
    raise AssertionError("never got there")


def has(procedure: str, owed: bool | None = None) -> Callable[[Game], bool]:
    return lambda g: any(
        t.procedure == procedure and (owed is None or t.owed == owed) for t in g.todo()
    )


def top_seq(page: Any) -> int:
    return int(page.get_attribute("#log li", "data-seq"))


def roll(c: Clicks) -> str:
    """Click 'Roll / do it' and wait for the answer (a new log entry, or an error)."""
    before = top_seq(c.page)
    c.click("#roll-btn")
    c.page.wait_for_function(
        "b => Number(document.querySelector('#log li').dataset.seq) !== b"
        " || document.querySelector('#result .error, .field-error:not([hidden])')",
        arg=before,
    )
    return str(c.page.inner_text("#result"))


def next_entry(page: Any, procedure: str, text: str = "", owed: bool = False) -> str:
    """The selector of the next panel's entry for ``procedure`` (whose text has ``text``)."""
    li = "li.owed" if owed else "li"
    items = page.locator(f"#next {li} button.next-item[data-procedure={procedure}]")
    for i in range(items.count()):
        if text in items.nth(i).inner_text():
            return f"#next button.next-item[data-n='{items.nth(i).get_attribute('data-n')}']"
    raise AssertionError(f"no next entry {procedure} {text!r}: {page.inner_text('#next')}")


def adjudicate(
    page: Any, base: str, game: str, procedure: str, text: str = "", owed: bool = False
) -> str:
    """From the game page: the next panel's entry, then 'Roll / do it' (counted)."""
    page.goto(f"{base}/games/{game}")
    c = Clicks(page)
    entry = next_entry(page, procedure, text, owed)
    c.click(entry)
    assert page.input_value("#procedure") == procedure
    # an open entry: one tap on the first choice of each field still empty (issue 22)
    rows = page.locator(f"{entry} ~ .open-choices")
    for i in range(rows.count()):
        field = rows.nth(i).get_attribute("data-field")
        box = page.locator(f'form.proc[data-proc="{procedure}"] [name="{field}"]')
        if not box.input_value():
            c.click(f"{entry} ~ .open-choices[data-field={field}] >> button.choice >> nth=0")
    out = roll(c)
    assert c.clicks <= 3, c.clicks
    assert "error" not in (page.get_attribute("#result > *", "class") or "")
    return out


# -- obligations discharged from the next panel -------------------------------------------
def test_nab_fixing_owed_after_a_zoc_entry(page: Any, live_server: str, live_db: Path) -> None:
    g = make_game(live_db, "nx-nab", "napoleon_at_bay")
    g.perform("move", {"force": "F1", "to": "W2020"})
    page.goto(f"{live_server}/games/nx-nab")
    owed = page.locator("#next li.owed")
    assert owed.count() == 1 and "(Herman (1))" in owed.inner_text()
    # owed first, and the default: its fields already there
    assert page.input_value('form.proc[data-proc="fix"] input[name=contact]') == "R1"
    out = adjudicate(page, live_server, "nx-nab", "fix", owed=True)
    assert "fixing: 1d6=" in out
    assert page.locator("#next li.owed").count() == 0
    screenshot(page, "next_panel_nab")


def test_asl_shift_from_the_next_panel(page: Any, live_server: str, live_db: Path) -> None:
    g = make_game(live_db, "nx-asl", "solitaire_asl")
    until(g, has("shift"))
    out = adjudicate(page, live_server, "nx-asl", "shift")
    assert "shift" in out


def test_asl_owed_decision(page: Any, live_server: str, live_db: Path) -> None:
    """A pre-registration die of 6 scatters the AR: the word on the scattered hex is owed
    (O'Leary 7.1); its entry fills the module and hex, the player picks yes or no."""
    g = make_game(live_db, "nx-asl-owed", "solitaire_asl")
    g.perform("phase", {})  # an AR is placed with OBA fire: the Russian PFPh (7.1, ASL C1)
    g.perform("prereg", {"module": "O1", "ar": "4P5"}, [6, 1, 1])
    page.goto(f"{live_server}/games/nx-asl-owed")
    c = Clicks(page)
    c.click(next_entry(page, "decide", "4P4", owed=True))
    form = 'form.proc[data-proc="decide"]'
    assert page.input_value(f"{form} input[name=id]") == "O1"
    c.clicks += 1  # choosing from a list is one tap
    page.select_option(f"{form} select[name=ok]", "true")
    out = roll(c)
    assert c.clicks <= 3 and page.locator("#next li.owed").count() == 0, out


@pytest.mark.parametrize("procedure", ["shoot", "rally", "melee"])
def test_two_by_two_stated(page: Any, live_server: str, live_db: Path, procedure: str) -> None:
    name = f"nx-2x2-{procedure}"
    g = make_game(live_db, name, "two_by_two", play="stated")
    if procedure == "melee":  # a charge into contact (stated: its measured length)
        g.perform("charge", {"unit": "A1", "into": "F1", "distance": 2})
        until(g, has("melee", owed=True))
    else:
        until(g, has(procedure), prefer=("shoot",))
    owed = procedure == "melee"
    out = adjudicate(page, live_server, name, procedure, owed=owed)
    assert out.strip()


@pytest.mark.parametrize(
    ("procedure", "prefer"), [("fire", ()), ("charge", ()), ("morale", ("charge",))]
)
def test_kuryakin_stated(
    page: Any, live_server: str, live_db: Path, procedure: str, prefer: tuple[str, ...]
) -> None:
    """Volley, charge test and the morale test a charge forces (owed)."""
    name = f"nx-kur-{procedure}"
    g = make_game(live_db, name, "solo_napoleonic", unplaced("solo_napoleonic"))
    owed = procedure == "morale"
    until(g, has(procedure, owed=True if owed else None), prefer=prefer)
    out = adjudicate(page, live_server, name, procedure, owed=owed)
    assert out.strip()


# -- one turn of each sample from the page alone (played on a phone: test_web_browser_taps) --
def turn_of(db: Path, name: str) -> tuple[Any, ...]:
    g = Game.open(Store(db), name)
    s = g.ruleset.state_json(g.state)
    return (s.get("turn"), s.get("player_turn"))


class Turn:
    """The game's first turn (ASL's set-up, turn 0, is not a turn): ``over`` once the game has
    moved on from it; ``start`` is None until it began."""

    def __init__(self, db: Path, name: str) -> None:
        self.db, self.name = db, name
        self.start: Any = None

    def over(self) -> bool:
        now = turn_of(self.db, self.name)[0]
        if self.start is None and now not in (0, None):
            self.start = now
        return self.start is not None and now != self.start


def entries(page: Any) -> tuple[list[str], list[str]]:
    """The Next panel's entries: their texts and procedures."""
    texts, procs = page.eval_on_selector_all(  # read at once (not two calls an entry)
        "#next button.next-item",
        "bs => [bs.map((b) => b.innerText), bs.map((b) => b.dataset.procedure || '')]",
    )
    return list(texts), list(procs)


def all_entries(page: Any) -> tuple[list[str], list[str]]:
    """Every entry of todo (a phone's long list opens on an index: not all are buttons of the
    list): their texts and procedures, in the list's order (``data-todo``)."""
    todo = page.evaluate(
        "() => fetch('/api' + location.pathname).then((r) => r.json()).then((d) => d.todo)"
    )
    return [t["text"] for t in todo], [t["procedure"] for t in todo]


#: the index's button holding todo's entry ``n`` (app.js indexNext)
IN_INDEX = "(n) => [...document.querySelectorAll('#next .next-group')].findIndex((b) =>" \
    " b.dataset.todo.split(' ').includes(String(n)))"  # fmt: skip


def reach(page: Any, n: int) -> tuple[str, int]:
    """Todo's entry ``n`` chosen by taps, as a player does it: its button in the list, else
    its group in the index, then its first choice (which chooses it) or its button (a group of
    one is chosen by its tap). Its button's selector and the taps spent."""
    listed = f"#next li:not(.counter) > button.next-item[data-todo='{n}']"
    if page.locator(listed).count():
        page.tap(listed)
        return listed, 1
    k = page.evaluate(IN_INDEX, n)
    assert k >= 0, f"entry {n} neither listed nor in the index"
    page.locator("#next .next-group").nth(k).tap()
    entry = f"#next li.counter > button.next-item[data-todo='{n}']"
    if page.locator(f"{entry}.chosen").count():
        return entry, 1
    if page.locator(f"{entry} ~ .open-choices").count():
        page.tap(f"{entry} ~ .open-choices >> button.choice >> nth=0")
    else:
        page.tap(entry)
    return entry, 2


# -- the form ---------------------------------------------------------------------------------
def test_enter_submits_and_errors_sit_beside_their_field(
    page: Any, live_server: str, live_db: Path
) -> None:
    make_game(live_db, "form-nab", "napoleon_at_bay")
    page.goto(f"{live_server}/games/form-nab")
    page.select_option("#procedure", "move")
    page.fill('form.proc[data-proc="move"] input[name=force]', "F1")
    page.fill('form.proc[data-proc="move"] input[name=to]', "")
    page.press('form.proc[data-proc="move"] input[name=force]', "Enter")
    err = page.locator('form.proc[data-proc="move"] .field[data-field="to"] .field-error')
    err.wait_for()
    assert "missing 'to'" in err.inner_text()
    assert page.input_value('form.proc[data-proc="move"] input[name=force]') == "F1"  # kept
    page.fill('form.proc[data-proc="move"] input[name=to]', "W2020")
    page.press('form.proc[data-proc="move"] input[name=to]', "Enter")
    page.wait_for_selector("#next li.owed")
    assert "moves W1920 -> W2020" in page.inner_text("#result")
    assert page.locator(".field-error:not([hidden])").count() == 0


def test_a_pick_never_fills_a_hidden_field(page: Any, live_server: str, live_db: Path) -> None:
    g = make_game(live_db, "pick-asl", "solitaire_asl")
    until(g, has("shift"))
    page.goto(f"{live_server}/games/pick-asl")
    page.click(next_entry(page, "shift"))
    form = 'form.proc[data-proc="shift"]'
    page.fill(f"{form} input[name=b]", "")
    kind = page.input_value(f"{form} select[name=kind]")
    page.dispatch_event("#board", "click")  # nothing
    page.evaluate(
        "document.dispatchEvent(new CustomEvent('vedette:pick',"
        " {detail: {kind: 'location', value: '4Q6'}}))"
    )
    assert page.input_value(f"{form} input[name=b]") == "4Q6"
    assert page.input_value(f"{form} select[name=kind]") == kind
    page.evaluate(
        "document.dispatchEvent(new CustomEvent('vedette:pick',"
        " {detail: {kind: 'point', value: [1, 2]}}))"
    )
    assert "no open field of this action takes a point" in page.inner_text("#picked")


def test_the_waiver_is_confirmed_by_name(page: Any, live_server: str, live_db: Path) -> None:
    g = make_game(live_db, "waive-nab", "napoleon_at_bay")
    g.perform("move", {"force": "F1", "to": "W2020"})
    page.goto(f"{live_server}/games/waive-nab")
    asked: list[str] = []
    page.once("dialog", lambda d: (asked.append(d.message), d.dismiss()))
    page.click("#next button.waive")
    assert "the fixing of R1" in asked[0] and "Herman (1)" in asked[0]
    assert page.locator("#next li.owed").count() == 1  # dismissed: nothing waived
    page.once("dialog", lambda d: d.accept())
    page.click("#next button.waive")
    page.wait_for_function("() => !document.querySelector('#next li.owed')")
    assert "waived: fix:F1:R1" in page.inner_text("#log li:first-child summary")


def test_a_stale_token_is_renewed(page: Any, live_server: str, live_db: Path) -> None:
    make_game(live_db, "stale-nab", "napoleon_at_bay")
    page.goto(f"{live_server}/games/stale-nab")
    page.evaluate("document.querySelector('meta[name=csrf-token]').content = 'stale'")
    c = Clicks(page)
    c.click(next_entry(page, "end_movement"))
    roll(c)
    assert "renewed its token" in page.inner_text("#page-note")
    assert "end_movement" in page.inner_text("#log li:first-child summary")


def test_the_log_loads_older_entries_on_demand(page: Any, live_server: str, live_db: Path) -> None:
    g = make_game(live_db, "long-nab", "napoleon_at_bay")
    for _ in range(170):  # 341 entries: back to the first in two taps (issue 26.9)
        g.perform("move", {"force": "F1", "to": "W2020"})
        g.undo()
    page.goto(f"{live_server}/games/long-nab")
    assert page.locator("#log li").count() == 50
    page.click("#log-more")
    page.wait_for_function("() => document.querySelectorAll('#log li').length === 250")
    page.click("#log-more")
    page.wait_for_function("() => document.querySelectorAll('#log li').length === 341")
    assert page.locator("#log-more").is_hidden()
    page.click("#log li:last-child summary")
    assert "created: napoleon_at_bay" in page.inner_text("#log li:last-child summary")
    page.click("#log li:nth-child(2) summary")
    assert page.locator("#log li:nth-child(2) table.record th").first.inner_text() == "procedure"


def test_the_aar_export_opens_without_errors(
    page: Any, live_server: str, live_db: Path, tmp_path: Path
) -> None:
    g = make_game(live_db, "aar-2x2", "two_by_two", play="stated")
    until(g, lambda x: x.state.turn >= 2, prefer=("shoot", "rally"))
    page.goto(f"{live_server}/games/aar-2x2/aar")
    assert page.locator("#decisive li").count() > 0 and page.locator("svg.chart").count() > 0
    html = page.request.get(f"{live_server}/games/aar-2x2/aar.html").text()
    path = tmp_path / "aar.html"
    path.write_text(html, encoding="utf-8")
    problems: list[str] = []
    page.on("console", lambda m: problems.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: problems.append(str(e)))
    page.goto(path.as_uri())
    assert page.locator("svg.chart").count() >= 2 and "Turn 1" in page.inner_text("body")
    assert problems == []
    screenshot(page, "aar_export")


# -- open entries (issue 22): the choices todo offers, one tap each -----------------------
def test_open_entry_choices_are_taps(page: Any, live_server: str, live_db: Path) -> None:
    """The flow toy's march leaves the distance open: the panel shows only the distances the
    referee accepts (limit 3: 1, 2, 3), and entry + choice + roll is three taps, no typing."""
    import tests.flow_toy  # noqa: F401  (registers the toy ruleset)

    Game.create(Store(live_db), "nx-open", "flow_toy", {"limit": 3}, seed=3)
    page.goto(f"{live_server}/games/nx-open")
    rows = page.locator("#next .open-choices[data-field=distance]")
    assert rows.count() == 2  # march A, march B
    assert rows.nth(0).locator("button.choice").all_inner_texts() == ["1", "2", "3"]
    c = Clicks(page)
    c.click(next_entry(page, "march", "march A"))
    c.click("#next .open-choices[data-field=distance] >> nth=0 >> button.choice[data-value='2']")
    assert page.input_value('form.proc[data-proc="march"] input[name=distance]') == "2"
    out = roll(c)
    assert c.clicks == 3 and "A marches 2" in out
    # the panel now offers A only the one hex left
    rows = page.locator("#next .open-choices[data-field=distance]")
    assert rows.nth(0).locator("button.choice").all_inner_texts() == ["1"]


def test_physical_dice_game_taps_the_faces(page: Any, live_server: str, live_db: Path) -> None:
    """Issue 26: a game played with the player's own dice shows dice buttons (one tap per face)
    instead of 'blank: vedette rolls', and without faces it asks for them, rolling nothing. The
    game is started from the new-game form, its "my own dice" box (a 44x44 tap target) ticked."""
    g = make_game(live_db, "nx-own", "napoleon_at_bay")
    page.goto(f"{live_server}/")
    page.fill("#new-game input[name=name]", "nx-own-p")
    page.select_option("#ruleset", "napoleon_at_bay")
    page.select_option("#scenario", "sample")
    page.fill("#new-game input[name=seed]", "3")
    for target in ("#own-dice", "#own-dice input"):
        box = page.locator(target).bounding_box()
        assert box["width"] >= 44 and box["height"] >= 44, (target, box)
    page.click("#own-dice")
    assert page.is_checked("#own-dice input")
    page.click("#new-game button[type=submit]")
    page.wait_for_url("**/games/nx-own-p")
    own = Game.open(Store(live_db), "nx-own-p")
    assert own.physical and not g.physical
    own.perform("move", {"force": "F1", "to": "W2020"})
    page.goto(f"{live_server}/games/nx-own-p")
    assert "vedette rolls" not in page.inner_text("body")
    c = Clicks(page)
    c.click(next_entry(page, "fix", owed=True))
    out = roll(c)  # no faces: asked for, nothing written
    assert "your own dice: roll 1d6" in page.inner_text("body")
    assert page.locator("#log li").count() == 2 and "fixing" not in out
    before = top_seq(page)
    c.click(".dice-pad .face[data-face='5']")  # the one face the fixing needs: it does it
    page.wait_for_function(
        "b => Number(document.querySelector('#log li').dataset.seq) !== b", arg=before
    )
    assert "1d6=5" in page.inner_text("#result") and c.clicks == 3


#: what is on screen at the middle of the element: the element itself (nothing over it, no
#: scrolling needed)
SEEN = """(s) => { const e = document.querySelector(s); const r = e.getBoundingClientRect();
    const at = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    return r.bottom <= innerHeight && !!at && (at === e || e.contains(at)); }"""


@pytest.mark.parametrize("ruleset", sorted(rules.BUILTIN))
def test_roll_is_in_the_window_on_a_desktop_screen(
    tabs: Any, live_server: str, live_db: Path, ruleset: str
) -> None:
    """At 1280x800 the first Next entry's form ran Roll / do it below the window (930 px
    down for Napoleon At Bay's move; 2,500 for an ASL shift, its optional facts open): it is
    held at the window's bottom, in view with nothing over it, the page not scrolled."""
    name = f"desk-{ruleset}"
    g = make_game(live_db, name, ruleset, **({"play": "stated"} if ruleset == "two_by_two" else {}))
    if ruleset == "solitaire_asl":
        until(g, has("shift"))
    with tab(tabs, viewport={"width": 1280, "height": 800}) as pg:
        pg.goto(f"{live_server}/games/{name}")
        pg.wait_for_selector("#next .next-item.chosen")
        assert pg.evaluate(SEEN, "#roll-btn") and pg.evaluate("window.scrollY") == 0


def test_your_own_dice_are_under_the_next_entries_on_a_desktop_screen(
    tabs: Any, live_server: str, live_db: Path
) -> None:
    """An ASL shift played with your own dice at 1280x800: its 21 pairs of faces, the dice box
    and Roll all in the window (the pairs came after the form and its optional facts, about
    2,400 px down)."""
    rs = rules.get("solitaire_asl")
    g = Game.create(
        Store(live_db), "desk-own-asl", rs.name, rs.scenario("sample"), seed=3, dice="physical"
    )
    until(g, has("shift"))
    with tab(tabs, viewport={"width": 1280, "height": 800}) as pg:
        pg.goto(f"{live_server}/games/desk-own-asl")
        pg.wait_for_selector(".dice-pairs:not([hidden]) .pair")
        pairs = pg.eval_on_selector_all(".dice-pairs .pair", "bs => bs.map((b) => b.dataset.faces)")
        assert len(pairs) == 21
        for sel in [*(f".pair[data-faces='{p}']" for p in pairs), "#dice", "#roll-btn"]:
            assert pg.evaluate(SEEN, sel), sel
        assert pg.evaluate("window.scrollY") == 0
