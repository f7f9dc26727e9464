"""The board writer (render.svg.to_text) writes exactly what ElementTree's own writer does:
the same escaping of every text and attribute value, for any text a scenario may carry, and for
every shipped ruleset's sample board (it replaced ElementTree's writer for speed, issue 16)."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from tests.sizes import examples
from vedette import rules
from vedette.engine import Game, Store
from vedette.render.svg import XML_SPACE, el, svg_root, to_text


def et_text(root: ET.Element) -> str:
    return ET.tostring(root, encoding="unicode", short_empty_elements=True)


texts = st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=30)


@settings(max_examples=examples(200), deadline=None)
@given(texts, texts, texts, st.booleans())
def test_any_text_is_escaped_as_elementtree_escapes_it(a: str, b: str, c: str, tail: bool) -> None:
    root = svg_root(100, 50, a, "t")
    g = el(root, "g", {"data-pick": b, "cls": a, XML_SPACE: "preserve"})
    el(g, "text", {"x": 1.25, "y": 2}, c)
    el(g, "rect", {"title": c})
    if tail:
        g.tail = b
    assert to_text(root) == et_text(root)


def test_every_sample_board_is_written_as_elementtree_writes_it(monkeypatch: Any) -> None:
    import vedette.render.svg as svg

    st_ = Store(":memory:")
    drawn: set[str] = set()
    for name in rules.names():
        rs = rules.get(name)
        if not rs.scenarios:
            continue  # a test's toy ruleset, registered by another test
        scen = "sample" if "sample" in rs.scenarios else next(iter(rs.scenarios))
        state = Game.create(st_, name, name, rs.scenario(scen), seed=1).state
        ours = rs.board_svg(state, rs.state_json(state))
        if ours is None:
            continue  # a ruleset that draws no board (the toy example)
        monkeypatch.setattr(svg, "_write", _raise)  # the same drawing through ElementTree
        theirs = rs.board_svg(state, rs.state_json(state))
        monkeypatch.undo()
        assert ours == theirs, name
        drawn.add(name)
    assert {"napoleon_at_bay", "solitaire_asl", "two_by_two", "solo_napoleonic"} <= drawn


def _raise(*_: object) -> None:
    from vedette.render.svg import _Foreign

    raise _Foreign("test")


def test_a_static_layer_is_spliced_by_its_key_and_an_unknown_key_stays_empty() -> None:
    from vedette.render.svg import layer_key, splice_layers

    key = layer_key('<g class="map"><polygon class="hex" /></g>')
    board = f'<svg><g id="map-layer" data-layer="{key}" /><g class="piece" /></svg>'
    assert splice_layers(board) == (
        f'<svg><g id="map-layer" data-layer="{key}"><g class="map"><polygon class="hex" />'
        '</g></g><g class="piece" /></svg>'
    )
    other = '<svg><g id="map-layer" data-layer="0123456789abcdef" /></svg>'
    assert splice_layers(other) == other  # never another map's drawing
