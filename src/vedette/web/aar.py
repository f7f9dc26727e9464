"""The after-action report of a game: a timeline turn by turn (what was rolled, what happened,
what changed on the table), the dice's luck against expectation per side and per kind of roll,
losses per turn, and the decisive rolls (the least likely results).

Built from the log alone (the actions in force, replayed once). Two views: ``/games/{name}/aar``
(a page of the app) and ``/games/{name}/aar.html`` (one self-contained file: inline CSS and
inline SVG, no script, nothing fetched, to post to a forum or a blog)."""

from __future__ import annotations

import math
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from importlib import resources
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, Response

from vedette.engine import Game
from vedette.engine.session import _options
from vedette.engine.store import Record
from vedette.web import charts
from vedette.web.audit import _die
from vedette.web.common import attachment
from vedette.web.views import explain, rolls_of

router = APIRouter()

#: rolls listed as decisive
DECISIVE = 8


#: lists of the state JSON whose items carry an ``id`` and a ``side``
_HOLDERS = ("pieces", "units", "stacks", "generals")
#: keys of the state JSON naming the side whose turn it is
_ACTOR = ("phasing", "actor", "active")


def _sides(s: Mapping[str, Any]) -> dict[str, str]:
    out: dict[str, str] = {}
    for key in _HOLDERS:
        for x in s.get(key) or []:
            if isinstance(x, Mapping) and "id" in x and "side" in x:
                out[str(x["id"])] = str(x["side"])
    return out


def side_of(request: Mapping[str, Any], s: Mapping[str, Any]) -> str:
    """The side an action is for: the side of the first piece its request names, else the side
    whose turn it is, else '-'."""
    owners = _sides(s)
    if isinstance(request.get("side"), str):
        return str(request["side"])
    for v in request.values():
        if isinstance(v, str) and v in owners:
            return owners[v]
    for k in _ACTOR:
        if isinstance(s.get(k), str) and s[k]:
            return str(s[k])
    return "-"


# -- dice -------------------------------------------------------------------------------------
def _simple_rolls(roll: Mapping[str, Any]) -> Iterator[Mapping[str, Any]]:
    if not isinstance(roll, Mapping):
        return
    if roll.get("type") == "opposed":
        for k in ("a", "b"):
            if isinstance(roll.get(k), Mapping):
                yield from _simple_rolls(roll[k])
    elif roll.get("dice"):
        yield roll


def natural_distribution(dice: Sequence[Mapping[str, Any]]) -> dict[int, float]:
    """The distribution of the sum of the dice a roll drew (each die fair over its faces)."""
    dist = {0: 1.0}
    for d in dice:
        die = _die(str(d["die"]))
        if die is None:
            return {}
        w = die.weights()
        total = sum(w.values())
        nxt: dict[int, float] = {}
        for s, p in dist.items():
            for f, wf in w.items():
                nxt[s + f] = nxt.get(s + f, 0.0) + p * wf / total
        dist = nxt
    return dist


def _range(text: str) -> tuple[float, float] | None:
    """A table row's range as numbers: '4+' '1-3' '≤2' '5' '2–3' '12' '-1 or less'."""
    t = text.replace("–", "-").replace("−", "-").replace(" ", "").replace("≤", "<=")
    t = t.replace("≥", ">=").replace("orless", "-").replace("ormore", "+")
    try:
        if t.startswith("<="):
            return (-math.inf, float(t[2:]))
        if t.startswith(">="):
            return (float(t[2:]), math.inf)
        if t.endswith("+"):
            return (float(t[:-1]), math.inf)
        if t.endswith("-") and t[:-1].lstrip("-").isdigit():
            return (-math.inf, float(t[:-1]))
        head, sep, tail = t[1:].partition("-")
        if sep:
            return (float(t[0] + head), float(tail))
        return (float(t), float(t))
    except ValueError:
        return None


def roll_probability(roll: Mapping[str, Any]) -> float | None:
    """How likely the result was: the chance of landing in the table row it hit (modifiers as
    they were), else the chance of a natural roll at least this far out in its tail."""
    dist = natural_distribution(roll.get("dice") or [])
    if not dist or "natural" not in roll:
        return None
    natural = int(roll["natural"])
    rng = _range(str(roll.get("range") or ""))
    if rng is not None and "final" in roll:
        shift = int(roll["final"]) - natural
        return sum(p for n, p in dist.items() if rng[0] <= n + shift <= rng[1])
    low = sum(p for n, p in dist.items() if n <= natural)
    high = sum(p for n, p in dist.items() if n >= natural)
    return min(low, high)


@dataclass
class Luck:
    """Dice drawn, their sum and its expectation and variance (for a z-score)."""

    dice: int = 0
    total: float = 0
    mean: float = 0
    var: float = 0

    def add(self, dice: Sequence[Mapping[str, Any]]) -> None:
        for d in dice:
            die = _die(str(d["die"]))
            if die is None:
                continue
            w = die.weights()
            n = sum(w.values())
            m = sum(f * x for f, x in w.items()) / n
            self.dice += 1
            self.total += int(d["face"])
            self.mean += m
            self.var += sum(x * (f - m) ** 2 for f, x in w.items()) / n

    @property
    def z(self) -> float:
        return (self.total - self.mean) / math.sqrt(self.var) if self.var else 0.0

    def to_json(self, name: str) -> dict[str, Any]:
        return {
            "name": name,
            "dice": self.dice,
            "total": self.total,
            "expected": round(self.mean, 1),
            "z": round(self.z, 2),
            "words": luck_words(self.z, self.dice),
        }


def luck_words(z: float, dice: int) -> str:
    if dice == 0:
        return "no dice"
    if abs(z) < 1:
        return "about as expected"
    word = "lucky (high)" if z > 0 else "unlucky (low)"
    return f"{'very ' if abs(z) >= 2 else ''}{word}: {abs(z):.1f} standard deviations"


# -- the report -------------------------------------------------------------------------------
@dataclass
class Turn:
    turn: str
    entries: list[dict[str, Any]] = field(default_factory=list)
    start: dict[str, float] = field(default_factory=dict)
    end: dict[str, float] = field(default_factory=dict)


def report(g: Game) -> dict[str, Any]:
    """The after-action report of ``g`` as plain data (the templates draw it)."""
    rs = g.ruleset
    created = g.records[0].payload
    state = rs.initial(created["scenario"], _options(created))
    strength, unit = rs.strength, rs.strength_unit
    by_seq = {r.seq: r for r in g.records}
    turns: list[Turn] = []
    per_side: dict[str, Luck] = {}
    per_kind: dict[str, Luck] = {}
    decisive: list[dict[str, Any]] = []
    changes_fn = getattr(rs, "table_changes", None)
    sj = rs.state_json(state)
    for seq in g.effective:
        r: Record = by_seq[seq]
        p = r.payload
        events = [rs.decode(e) for e in p.get("events", [])]
        before, before_json = state, sj
        for e in events:
            state = rs.fold(state, e)
        sj = rs.state_json(state)
        label = str(before_json.get("turn", ""))
        if not turns or turns[-1].turn != label:
            if turns:
                turns[-1].end = strength(before_json)
            turns.append(Turn(label, start=strength(before_json)))
        said: list[str] = []
        if changes_fn is not None:
            try:
                said = [str(x) for x in changes_fn(before, events)]
            except Exception:
                said = []
        side = side_of(p.get("request") or {}, before_json)
        rolled = []
        for roll in rolls_of(p):
            rolled.append(str(roll.get("line", "")))
            for simple in _simple_rolls(roll):
                try:  # an imported log's roll may be malformed: not a roll to count
                    dice = [{"die": str(d["die"]), "face": int(d["face"])} for d in simple["dice"]]
                    prob = roll_probability(simple)
                except (KeyError, TypeError, ValueError, AttributeError, RecursionError):
                    continue
                kind = str(simple.get("label") or simple.get("table") or "roll")
                per_side.setdefault(side, Luck()).add(dice)
                per_kind.setdefault(kind, Luck()).add(dice)
                if prob is not None:
                    decisive.append(
                        {
                            "seq": seq,
                            "turn": label,
                            "side": side,
                            "line": str(simple.get("line") or roll.get("line", "")),
                            "p": prob,
                            "percent": f"{prob * 100:.1f}%",
                        }
                    )
        turns[-1].entries.append(
            {"seq": seq, "side": side, "line": explain(r), "rolls": rolled, "changes": said}
        )
    if turns:
        turns[-1].end = strength(sj)
    decisive.sort(key=lambda d: (d["p"], d["seq"]))
    losses: list[dict[str, Any]] = []
    sides = sorted({s for t in turns for s in (*t.start, *t.end)})
    for t in turns:
        losses.append(
            {"turn": t.turn, "by_side": {s: t.start.get(s, 0) - t.end.get(s, 0) for s in sides}}
        )
    luck_side = [per_side[k].to_json(k) for k in sorted(per_side)]
    luck_kind = [per_kind[k].to_json(k) for k in sorted(per_kind)]
    return {
        "game": g.name,
        "ruleset": rs.name,
        "title": rs.title or rs.name,
        "scenario": str(created["scenario"].get("title") or created["scenario"].get("name") or ""),
        "seed": g.seed,
        "actions": len(g.effective),
        "history": g.history,
        "turns": [{"turn": t.turn, "entries": t.entries} for t in turns],
        "luck_side": luck_side,
        "luck_kind": luck_kind,
        "luck_side_chart": charts.luck(
            [(x["name"], x["z"]) for x in luck_side], "dice luck per side"
        )
        if luck_side
        else "",
        "luck_kind_chart": charts.luck(
            [(x["name"], x["z"]) for x in luck_kind], "dice luck per kind of roll"
        )
        if luck_kind
        else "",
        "losses": losses,
        "loss_unit": unit,
        "sides": sides,
        "loss_charts": [
            {
                "side": s,
                "svg": charts.columns(
                    [(f"T{x['turn']}", x["by_side"][s]) for x in losses],
                    f"{s}: {unit} lost per turn",
                ),
            }
            for s in sides
        ],
        "decisive": decisive[:DECISIVE],
    }


def inline_css() -> str:
    return (resources.files("vedette.web") / "static" / "aar.css").read_text(encoding="utf-8")


@router.get("/games/{name}/aar", response_class=HTMLResponse)
def aar_page(request: Request, name: str) -> HTMLResponse:
    with request.app.state.sessions.game(name) as g:
        data = report(g)
    return request.app.state.templates.TemplateResponse(  # type: ignore[no-any-return]
        request, "aar.html", {"csrf": request.app.state.csrf, "r": data, "export": False}
    )


@router.get("/games/{name}/aar.html")
def aar_export(request: Request, name: str) -> Response:
    """The report as one self-contained file (inline CSS and SVG, no script)."""
    with request.app.state.sessions.game(name) as g:
        data = report(g)
    tpl = request.app.state.templates.get_template("aar_export.html")
    html = tpl.render(r=data, css=inline_css(), export=True)
    return Response(
        html,
        media_type="text/html; charset=utf-8",
        headers={"Content-Disposition": attachment(data["game"], "-aar.html")},
    )
