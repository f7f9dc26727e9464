"""Real-browser tests: Playwright drives Debian's chromium through the pages, as a player would.
Screenshots of each board view are saved under artifacts/screenshots/ (``VEDETTE_SCREENSHOTS=1``,
as CI sets)."""

from __future__ import annotations

from typing import Any

from tests.web.conftest import screenshot


def new_game(page: Any, base: str, name: str, ruleset: str, scenario: str, seed: str = "1") -> None:
    page.goto(base + "/")
    page.fill("#new-game input[name=name]", name)
    page.select_option("#ruleset", ruleset)
    page.select_option("#scenario", scenario)
    page.fill("#new-game input[name=seed]", seed)
    page.click("#new-game button[type=submit]")
    page.wait_for_url(f"**/games/{name}")


def wait_text(page: Any, selector: str, text: str) -> str:
    """Wait until the element shows ``text`` (odds refresh as fields change), then return it."""
    page.wait_for_function(
        "([sel, t]) => (document.querySelector(sel)?.innerText || '').includes(t)",
        arg=[selector, text],
    )
    return str(page.inner_text(selector))


def act(page: Any, procedure: str, dice: str = "", **fields: str) -> str:
    page.select_option("#procedure", procedure)
    form = f'form.proc[data-proc="{procedure}"]'
    page.eval_on_selector_all(f"{form} details", "els => els.forEach(e => { e.open = true; })")
    for k, v in fields.items():
        page.fill(f"{form} input[name={k}]", v)
    page.fill("#dice", dice)
    page.click("#roll-btn")
    page.wait_for_selector("#result .line, #result .error")
    return str(page.inner_text("#result"))


def test_nab_fix_swap_and_undo(page: Any, live_server: str) -> None:
    new_game(page, live_server, "nab-e2e", "napoleon_at_bay", "example1")
    assert page.locator('#board g.piece[data-piece="R2"]').get_attribute("data-hex") == "W2421"
    act(page, "move", force="F1", to="W2020")
    # the next panel offers the owed fixing first, its fields filled in
    assert "owed: the fixing of R1" in page.inner_text("#next li.owed")
    assert page.input_value("#procedure") == "fix"
    assert page.input_value('form.proc[data-proc="fix"] input[name=moving]') == "F1"
    # the odds before the roll: the bar chart of the fixing table
    page.fill('form.proc[data-proc="fix"] input[name=contact]', "")
    page.click('#board g.piece[data-piece="R1"]')  # picking the contact force on the map
    assert page.input_value('form.proc[data-proc="fix"] input[name=contact]') == "R1"
    page.click("#odds-btn")
    odds = wait_text(page, "#odds", "(5/6)")
    assert "83.33% (5/6)" in odds and "16.67% (1/6)" in odds
    assert "only Ru has Vedette" in odds
    text = act(page, "fix", dice="3", moving="F1", contact="R1")
    assert "1d6=3+2 (only Ru has Vedette)=5, Vedette and Ru Inf switch places" in text
    # the swap is shown on the map
    assert page.locator('#board g.piece[data-piece="R2"]').get_attribute("data-hex") == "W2121"
    assert page.locator('#board g.piece[data-piece="R1"]').get_attribute("data-hex") == "W2421"
    assert page.locator("#board line.swap").count() >= 2
    screenshot(page, "napoleon_at_bay")
    # undo, which cannot re-roll: the log keeps the undone fix
    page.click("#undo-btn")
    page.wait_for_selector("#log li.undone")
    assert page.locator('#board g.piece[data-piece="R2"]').get_attribute("data-hex") == "W2421"
    assert "[undone]" in page.inner_text("#log")


def test_tablet_width_and_keyboard(page: Any, live_server: str) -> None:
    page.set_viewport_size({"width": 768, "height": 1024})
    new_game(page, live_server, "nab-tablet", "napoleon_at_bay", "example1")
    page.keyboard.press("Tab")
    focused = page.evaluate("document.activeElement.tagName")
    assert focused in ("A", "INPUT", "SELECT", "BUTTON")
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 768 + 1  # no horizontal scrolling of the page itself
    screenshot(page, "napoleon_at_bay_tablet")


def test_asl_shift_with_a_12(page: Any, live_server: str) -> None:
    new_game(page, live_server, "asl-e2e", "solitaire_asl", "sample")
    act(page, "phase", to="MPh")
    page.select_option("#procedure", "shift")
    page.click('#board g.stack[data-stack="P1"]')
    page.click('#board g.stack[data-stack="D1"]')
    form = 'form.proc[data-proc="shift"]'
    assert page.input_value(f"{form} input[name=a]") == "P1"
    assert page.input_value(f"{form} input[name=b]") == "D1"
    page.click("#odds-btn")
    odds = wait_text(page, "#odds", "(7/12)")
    assert "58.33% (7/12)" in odds and "8.33% (1/12)" in odds and "worst TEM" in odds
    text = act(page, "shift", dice="6 6", a="P1", b="D1")
    assert "2d6=(6+6)=12-1 (worst TEM +1: woods 4Q6)+1 (in LOS of an enemy unit: 4P5)=12" in text
    assert "remove dummy D1 from 4Q6" in text
    assert page.locator('#board g.stack[data-stack="D1"]').count() == 0
    assert page.locator('#board g.stack[data-stack="P1"]').get_attribute("data-status") != (
        "potential_dummy"
    )
    screenshot(page, "solitaire_asl")


def test_kuryakin_activation_and_morale(page: Any, live_server: str) -> None:
    new_game(page, live_server, "solonap-e2e", "solo_napoleonic", "sample", seed="11")
    act(page, "staff")
    act(page, "control")
    text = act(page, "deal")
    assert "cards revealed" in text
    text = act(page, "next")
    assert "card #1: A3" in text
    # the activation order is in the board's legend, the active card marked
    assert "▶ 1: A3" in wait_text(page, "#board-legend", "▶ 1: A3")
    page.select_option("#procedure", "morale")
    page.click('#board g.unit[data-unit="F5"]')
    page.click("#odds-btn")
    odds = wait_text(page, "#odds", "F5 morale")
    assert "morale holds" in odds and "per friendly unit within 300mm" in odds
    text = act(page, "morale", dice="42", unit="F5")
    assert (
        "F5 morale: dP=42 vs <80+20" in text
    )  # dP: percentiles 00-99 (issue 14) and "morale holds" in text
    screenshot(page, "solo_napoleonic")


def test_two_by_two_melee(page: Any, live_server: str, live_db: Any) -> None:
    """The scripted battle of tests/seeds is played up to its first melee through the API;
    the melee itself is fought through the page."""
    from tests.seeds.test_2x2_examples import SCN
    from vedette.engine import Game, Store

    g = Game.create(Store(live_db), "2x2-e2e", "two_by_two", SCN, seed=1)
    steps: list[tuple[str, dict[str, Any], list[int] | None]] = [
        ("move", {"unit": "B6", "to": [520, 160]}, None),
        ("reinforce", {"rp": "blue-rear"}, [4]),
        ("move", {"unit": "B7", "path": [[250, 6], [250, 80]]}, None),
        ("next", {}, None),
        ("next", {}, None),
        ("shoot", {"firer": "R6", "target": "B1"}, [6]),
        ("next", {}, None),
        ("next", {}, None),
        ("move", {"unit": "R4", "to": [470, 230], "facing": 180}, None),
        ("formation", {"unit": "R1", "formation": "road_column"}, None),
        ("move", {"unit": "R1", "to": [300, 162]}, None),
        ("shoot", {"firer": "B1", "target": "R1"}, [5]),
        ("next", {}, None),
        ("next", {}, None),
        ("next", {}, None),
    ]
    for proc, req, dice in steps:
        g.perform(proc, req, dice)
    page.goto(f"{live_server}/games/2x2-e2e")
    page.select_option("#procedure", "melee")
    page.click('#board g.unit[data-unit="R1"]')
    page.click('#board g.unit[data-unit="B1"]')
    form = 'form.proc[data-proc="melee"]'
    assert page.input_value(f"{form} input[name=attacker]") == "R1"
    assert page.input_value(f"{form} input[name=defender]") == "B1"
    page.click("#odds-btn")
    odds = wait_text(page, "#odds", "draws rerolled")
    assert "%" in odds
    text = act(page, "melee", dice="6 2 4 1", attacker="R1", defender="B1")
    assert "difference +3" in text
    assert page.locator('#board g.unit[data-unit="B3"]').count() == 0  # the Landwehr is gone
    label = page.locator('#board g.unit[data-unit="B1"] text').text_content() or ""
    assert " R" in label  # the routed marker on 1st Line
    screenshot(page, "two_by_two")


def test_odds_of_an_empty_form_wait_for_its_fields(page: Any, live_server: str) -> None:
    """A form not yet filled in is not an error: the odds say which fields they wait for, and
    come once those are filled."""
    new_game(page, live_server, "odds-wait", "napoleon_at_bay", "example1")
    act(page, "move", force="F1", to="W2020")  # a fixing is owed now
    page.select_option("#procedure", "fix")
    form = 'form.proc[data-proc="fix"]'
    page.fill(f"{form} input[name=moving]", "")
    page.fill(f"{form} input[name=contact]", "")
    page.click("#odds-btn")
    text = wait_text(page, "#odds", "odds once")
    assert "moving, contact are filled in" in text and "missing" not in text
    page.fill(f"{form} input[name=moving]", "F1")
    page.fill(f"{form} input[name=contact]", "R1")
    page.click("#odds-btn")
    assert "(5/6)" in wait_text(page, "#odds", "(5/6)")
