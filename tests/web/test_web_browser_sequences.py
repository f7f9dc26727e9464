"""Real-browser tests of the odds panel's "whole sequence" part (issue 17): a sequence of the
ruleset computed from the page by clicks only (board picks fill its fields, the open action's
fields of the same name pre-fill them), its table equal to the API's answer, most likely first;
a sampled answer says so with its intervals; a slow computation is busy and cannot be sent
twice."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.two_by_two.test_2x2_sequences import battle
from tests.web.conftest import screenshot
from tests.web.test_web_browser_next import make_game, until

SEQ = "#sequences"


def table(page: Any, n: int = 0) -> list[tuple[str, str]]:
    """The rows of the ``n``-th result table: (end state or event, fraction)."""
    return [
        (str(r[0]), str(r[1]))
        for r in page.evaluate(
            "n => [...document.querySelectorAll('#seq-result table.chances')[n].tBodies[0].rows]"
            ".map(r => [r.dataset.result, r.querySelector('.frac').textContent])",
            n,
        )
    ]


def api(page: Any, base: str, game: str, body: dict[str, Any]) -> dict[str, Any]:
    token = page.get_attribute('meta[name="csrf-token"]', "content")
    r = page.request.post(
        f"{base}/api/games/{game}/chances",
        data=body,
        headers={"X-CSRF-Token": token, "Origin": base},
    )
    assert r.ok, r.text()
    return dict(r.json())


def compute(page: Any) -> None:
    page.click("#seq-btn")
    page.wait_for_selector("#seq-result table.chances")


def same_as_api(page: Any, data: dict[str, Any]) -> None:
    """The page's tables are the API's outcomes (most likely first) and its 'each' rows."""
    shown = table(page)
    assert dict(shown) == {o["result"]: o["p"] for o in data["outcomes"]}
    floats = {o["result"]: o["float"] for o in data["outcomes"]}
    assert [floats[r] for r, _ in shown] == sorted(floats.values(), reverse=True)
    assert table(page, 1) == [(e["result"], e["p"]) for e in data["each"]]


def test_the_screen_sequence_from_the_page(page: Any, live_server: str, live_db: Path) -> None:
    make_game(live_db, "seq-nab", "napoleon_at_bay")
    page.goto(f"{live_server}/games/seq-nab")
    page.click(f"{SEQ} > summary")
    form = 'form.seq[data-seq="screen"]'
    assert page.input_value("#sequence") == "screen"
    assert "Herman (1)-(4)" in page.inner_text(f"{form} .help")  # its help and rule
    # required first; the board fills them in turn, a list field collecting its picks
    names = page.eval_on_selector_all(f"{form} .field", "ls => ls.map(l => l.dataset.field)")
    assert names[:3] == ["screen", "movers", "to"]
    for target in ('[data-piece="R1"]', '[data-piece="F1"]', 'polygon[data-hex="W2020"]',
                   '[data-piece="F2"]', 'polygon[data-hex="W2321"]'):  # fmt: skip
        page.click(f"#board {target}")
    assert page.input_value(f"{form} input[name=screen]") == "R1"
    assert page.input_value(f"{form} input[name=movers]") == "F1,F2"
    assert page.input_value(f"{form} input[name=to]") == "W2020,W2321"
    assert page.input_value('form.proc[data-proc="move"] input[name=to]') == ""  # not there
    compute(page)
    request = {"screen": "R1", "movers": ["F1", "F2"], "to": ["W2020", "W2321"]}
    data = api(page, live_server, "seq-nab", {"procedure": "screen", "request": request})
    assert data["exact"]
    same_as_api(page, data)
    assert page.locator("#seq-result .note.sampled").count() == 0
    assert "exact" in page.inner_text("#seq-result h3")
    assert ("the screen holds", "1/6") in table(page, 1)
    screenshot(page, "sequence-screen")
    # a refusal: one line naming the rule, the answer gone, the form kept
    page.fill(f"{form} input[name=screen]", "R2")
    assert page.locator("#seq-result table.chances").count() == 0
    page.click("#seq-btn")
    page.wait_for_selector("#seq-result .error")
    assert "Herman (1)" in page.inner_text("#seq-result .error")
    assert page.input_value(f"{form} input[name=to]") == "W2020,W2321"


def screen_typed(page: Any, base: str, db: Path, name: str, movers: str, to: str) -> str:
    """A new Napoleon At Bay game, its screen sequence typed in (R1 the screen)."""
    make_game(db, name, "napoleon_at_bay")
    page.goto(f"{base}/games/{name}")
    page.click(f"{SEQ} > summary")
    form = 'form.seq[data-seq="screen"]'
    for field, value in (("screen", "R1"), ("movers", movers), ("to", to)):
        page.fill(f"{form} input[name={field}]", value)
    return form


def test_a_sampled_answer_says_so(page: Any, live_server: str, live_db: Path) -> None:
    screen_typed(page, live_server, live_db, "seq-nab-sampled", "F1,F2", "W2020,W2321")
    page.fill("#seq-limit", "3")
    compute(page)
    assert page.get_attribute("#seq-result .chances-box", "data-exact") == "no"
    note = page.inner_text("#seq-result .note.sampled")
    assert "Sampled, not exact" in note and "95% interval" in note
    heads = page.eval_on_selector_all(
        "#seq-result table.chances th", "t => t.map(x => x.textContent)"
    )
    assert "95% interval" in heads
    assert "–" in page.inner_text("#seq-result td.interval")


def test_a_slow_computation_is_busy_and_sent_once(
    page: Any, live_server: str, live_db: Path
) -> None:
    form = screen_typed(page, live_server, live_db, "seq-nab-busy", "F1", "W2020")
    held: list[Any] = []
    page.route("**/chances", lambda route: held.append(route))
    page.click("#seq-btn")
    page.wait_for_function("() => document.getElementById('seq-btn').disabled")
    assert page.get_attribute(SEQ, "aria-busy") == "true"
    assert "computing" in page.inner_text("#seq-result .busy")
    page.evaluate("document.getElementById('seq-btn').click()")  # pressed again
    page.press(f"{form} input[name=screen]", "Enter")  # and Enter
    page.wait_for_timeout(300)
    assert len(held) == 1
    held[0].continue_()
    page.wait_for_selector("#seq-result table.chances")
    assert not page.is_disabled("#seq-btn") and page.get_attribute(SEQ, "aria-busy") is None
    assert len(held) == 1


def test_the_attack_sequence_from_the_page(page: Any, live_server: str, live_db: Path) -> None:
    """2 by 2: a melee with rout contagion (militia within [3] of the loser)."""
    g = make_game(live_db, "seq-2x2", "two_by_two", battle().scenario)
    melee = ("battle", "melee", "blue")
    until(g, lambda x: (x.state.stage, x.state.phase, x.state.actor) == melee)
    page.goto(f"{live_server}/games/seq-2x2")
    page.select_option("#procedure", "melee")  # the open action (one tap)
    page.click(f"{SEQ} > summary")
    form = 'form.seq[data-seq="attack"]'
    action = f"{form} select[name=action]"  # from the open action (on 'toggle', a task later)
    page.wait_for_function("s => document.querySelector(s).value === 'melee'", arg=action)
    page.click('#board [data-pick="A"]')
    page.click('#board [data-pick="D"]')
    assert page.input_value(f"{form} input[name=unit]") == "A"
    assert page.input_value(f"{form} input[name=target]") == "D"
    compute(page)
    request = {"action": "melee", "unit": "A", "target": "D"}
    data = api(page, live_server, "seq-2x2", {"procedure": "attack", "request": request})
    assert data["exact"] and len(data["outcomes"]) > 5
    same_as_api(page, data)
    assert any(r == "M routs" for r, _ in table(page, 1))  # contagion, in the 'each' totals
    screenshot(page, "sequence-attack")


def test_the_attack_sequence_takes_the_shots_firer(
    page: Any, live_server: str, live_db: Path
) -> None:
    """2 by 2 (issue 26.2): the attack sequence's ``unit`` is the open shot's firer (its
    ``target`` the shot's target), not left to type."""
    from tests.web.test_web_browser_next import has

    g = make_game(live_db, "seq-2x2-shot", "two_by_two", battle().scenario)
    until(g, has("shoot"), prefer=("shoot",))
    shot = next(t for t in g.todo() if t.procedure == "shoot")
    req = {**shot.request, **{k: v[0] for k, v in shot.open.items()}}
    page.goto(f"{live_server}/games/seq-2x2-shot")
    page.select_option("#procedure", "shoot")
    shoot = 'form.proc[data-proc="shoot"]'
    page.fill(f"{shoot} input[name=firer]", req["firer"])
    page.fill(f"{shoot} input[name=target]", req["target"])
    page.click(f"{SEQ} > summary")
    form = 'form.seq[data-seq="attack"]'
    page.wait_for_function(
        "s => document.querySelector(s).value === 'shoot'", arg=f"{form} select[name=action]"
    )
    assert page.input_value(f"{form} input[name=unit]") == req["firer"]
    assert page.input_value(f"{form} input[name=target]") == req["target"]
