"""Balance studies (issues 17, 29): games per second on one worker, this code against the code
of a baseline commit, every ruleset, and the same games either way.

Each ruleset's bundled sample is played by the random policy (seed 2026, games 0..GAMES-1) in a
fresh interpreter: the baseline's ``src`` (``git archive`` of ``--base REF``, by default the
commit before issue 29's speed work) and this tree's ``src``, alternating (base, new, base,
new), the faster run of each kept: the machine is shared, and a busy moment should not decide
the ratio. Only the games are timed (not the imports: shapely, which the first game to
measure would load, is imported before the clock starts, on both sides), by the process's CPU
time (the figure a worker gets from a core of its own: on a shared machine the clock counts the
other jobs too) and by the clock; the ratio is the CPU one. Napoleon At Bay and Solitaire ASL run
to 300 actions a game with their turn limit lifted by a house rule (the baseline had no end for
them; the house rule is ignored there), so both sides do the same work.

Printed: games/s of each side, the ratio, and whether every game is identical (winner, end,
the number of actions and the actions themselves): the new code must play the same games. A fix
of what the referee offers made since the baseline (``BASE_FIXES``: it changes the lines the
policy draws from) is applied to the baseline's extracted code too, and said so, so that both
sides still play the same games: the ratio is of speed, not of a changed game (a baseline that
already has a fix, any commit from c1ed18f on, is left as is; a fix its code of the day does not
take as written is left out, said so, and its games are said to differ instead of stopping the
run: ``BASE_FIXES``). The load
average (``uptime``) is printed beside the figures. Without git (or with ``--base none``) the
ratio is given against the figures recorded in issue 29 (quiet machine, one worker).

A ruleset in ``DRAWN`` (2 by 2, Napoleon At Bay, Solitaire ASL) draws its random policy's
lines another way than the baseline (the same law, other games for a seed: docs/simulation.md),
so its games are not compared one by one. Instead: at least 24 games a side (4 in quick mode),
actions/s beside games/s and the mean actions a game of each side, the ratio on both; each new
game is replayed through the referee's engine (``Game.perform``, the game's own dice seed) and
must be accepted action by action and end as simulated (winner, how, turns, losses); and a
statistical sanity line: the mean actions and the mean turns a game of the two sides each
within 3 standard errors of their difference (Welch; turns only where the baseline reports
them), and each side's win rate with overlapping 95% Wilson intervals. Where rule fixes too
wide for ``BASE_FIXES`` made the referee offer more since the baseline (``OFFERS_GREW``: 2 by 2),
games are longer on the new side by design: the mean actions are printed, not held, and the
actions/s ratio is the like-for-like speed figure. In quick mode (4 games a side) the sanity
line is printed, not held: four games cannot tell two laws apart.

Run: ``python bench/bench_simulate.py [GAMES] [--base REF] [--only RULESET,...]`` (default 8
games; ``VEDETTE_BENCH_QUICK=1``: 2 games, 2 by 2 and Kuryakin only). Not a test.
"""

from __future__ import annotations

import json
import math
import os
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))
from vedette.sim.stats import wilson  # noqa: E402

QUICK = os.environ.get("VEDETTE_BENCH_QUICK") == "1"
BASE = "c1ed18f"  # main before issue 29's simulation speed work
SEED = 2026
#: games/s on one worker recorded in issue 29 (quiet machine), for a run without a baseline
RECORDED = {
    "two_by_two": 5.4,
    "solo_napoleonic": 7.8,
    "solitaire_asl": 3.2,
    "napoleon_at_bay": 1.07,
}
#: rulesets whose random policy draws its lines otherwise than the baseline (same law)
DRAWN = {"two_by_two", "napoleon_at_bay", "solitaire_asl"}
#: rulesets whose offers grew since the baseline by rule fixes too wide to carry into its code
#: as a ``BASE_FIXES`` patch: a random game there takes more actions than the baseline's (more
#: lines to draw from, each a legal step), so the mean actions a game are printed but not held
#: to the baseline's; turns a game and win rates still are. Each entry says which fixes.
OFFERS_GREW: dict[str, str] = {
    "two_by_two": "sessions 16-17: turns after any step that spends and at 45/90/135 degrees,"
    " advances at [1]/[2]/[3]/half/all/road, a bridge's halved maximum and near end,"
    " counter-charges around a unit (docs/rules/two_by_two.md readings 7, 33, 49); session 22:"
    " an HQ rallying itself with an enemy within [2] (reading 57)",
}
#: rule fixes made since the baseline that change which lines the random policy draws from,
#: applied to the baseline's extracted ``src`` too (where it lacks them), so both sides still
#: play the same games: (key, file, the baseline's text, the text with the fix, why). Each is
#: a fix of what the referee offers, not of speed: without it the baseline plays other games.
#: The key is the commit that made the fix, then which fix of that commit, then (for a second
#: version of it, written against the code of a later baseline) which version: a baseline that
#: has the commit already has the fix, in its own code, and is left as is. A fix is carried
#: whole or not at all; a baseline whose code takes no version of a fix it lacks is run all
#: the same, its games said to differ and why (:data:`LACKING`), instead of stopping.
#: reading K105's 1D for a plain move or an advance away from the enemy, in the baseline's
#: move (the baseline's text, the text with the fix)
K105_CHIT = (
    '            why.append(f"{mode} move 1D")\n',
    '            why.append(f"{mode} move 1D")\n'
    '        elif mode in ("move", "advance") and _k105_away(state, u, _given105):\n'
    "            chits += 1\n"
    '            why.append(f"{mode} away from the enemy, a Retreat 1D")\n',
)
_MOVE_ODDS = "\n\ndef move_odds(state: State, req: rq.Move) -> list[Odds]:\n"


def _k105_away(away: str) -> tuple[str, str]:
    """Reading K105's test of a move's direction, put before the baseline's ``move_odds``
    (``away``: the baseline's expression of straight away from the enemy, or None)."""
    return _MOVE_ODDS, (
        "\n\ndef _k105_away(state, u, given):\n"
        f"    _aw = {away}\n"
        "    _ref = 180.0 if _aw is None else _aw\n"
        "    return abs(((given or 0.0) - _ref + 180.0) % 360.0 - 180.0) <= 45.05\n" + _MOVE_ODDS
    )


#: reading K108's test (a halted unit's plain move away from the enemy, K105's test: no test to
#: move off), put before K105's in the baseline (the baseline's text, the text with the fix)
K108_DEF = (
    "\n\ndef _k105_away(state, u, given):\n",
    "\n\ndef _k108(state, u, req):\n"
    "    _d = req.direction\n"
    "    if req.toward is not None:\n"
    "        _b, _ob = geom.body(u), geom.body(state.unit(req.toward))\n"
    "        _d = None if _b is None or _ob is None else (math.degrees(math.atan2(\n"
    "            _ob.centre.x - _b.centre.x, _ob.centre.y - _b.centre.y))"
    " - _b.facing) % 360.0\n"
    '    return _mode(req) == "move" and _k105_away(state, u, _d)\n'
    "\n\ndef _k105_away(state, u, given):\n",
)


#: reading K87's test, in the baseline's code: a change carried from the last turn, none made
#: on this card yet
K87 = "(u.formation_target is not None and u.formation_quarters > 0 and u.formation_changes == 0)"
#: reading K87's change owed on the unit's card, in the baseline's flow.obligations
K87_OWED = (
    "    if state.phase == 'activation' and state.active is not None:\n"
    "        from vedette.rules.solo_napoleonic.actions import base_move as _bm87\n"
    "        from vedette.rules.solo_napoleonic.actions import formation as _fo87\n"
    "        from vedette.rules.solo_napoleonic.requests import Formation as _F87\n"
    "        from vedette.rules.solo_napoleonic.requests import dry_run as _dr87\n"
    "        _charged87 = {c.charge_target for c in chargers(state)}\n"
    "        for _uid in state.active_units():\n"
    "            u = state.unit(_uid)\n"
    f"            if not (u.on_table and {K87}) or u.moved_mm >= _bm87(state, u):\n"
    "                continue\n"
    "            if (u.bound in ('rout', 'retire', 'retire_half') or u.morale_due\n"
    "                    or u.charge_target is not None or _uid in _charged87\n"
    "                    or u.status == 'routing' or u.must_rally):\n"
    "                continue\n"
    "            try:\n"
    "                _dr87(_fo87, state, _F87(unit=u.id, to=u.formation_target))\n"
    "            except Exception:\n"
    "                continue\n"
    "            out.append(Obligation(f'change:{u.id}', 'formation',\n"
    "                                  {'unit': u.id, 'to': u.formation_target},\n"
    "                                  'Kuryakin, Formation Changing', 'K87',\n"
    "                                  blocks=('next', 'end_turn')))\n"
)
#: reading K87 (session 20) on the code of c1ed18f (and, but for its move and flow, 53af236)
K87_FIXES: tuple[tuple[str, str, str, str, str], ...] = (
    (
        "deec10d:K87",
        "vedette/rules/solo_napoleonic/actions.py",
        '    for c in effects_on(state, u, "no_move"):\n'
        '        raise RuleViolation(R_CHANCE, f"{u.id} may not move this turn (chance card:'
        ' {c.title})")\n',
        '    for c in effects_on(state, u, "no_move"):\n'
        '        raise RuleViolation(R_CHANCE, f"{u.id} may not move this turn (chance card:'
        ' {c.title})")\n'
        f"    if {K87} and _mode(req) not in ('rout', 'retire', 'retreat'):\n"
        "        raise RuleViolation(R_FORM, 'still changing formation (K87)')\n",
        "Kuryakin: a formation change carried into the next turn is finished first: no move"
        " before it (session 20, reading K87)",
    ),
    (
        "deec10d:K87",
        "vedette/rules/solo_napoleonic/actions.py",
        '    require_active(state, u, R_DIS, "reform")\n',
        '    require_active(state, u, R_DIS, "reform")\n'
        f"    if {K87}:\n"
        "        raise RuleViolation(R_FORM, 'still changing formation (K87)')\n",
        "Kuryakin: (the same) no reform before it",
    ),
    (
        "deec10d:K87",
        "vedette/rules/solo_napoleonic/morale.py",
        "    if u.artillery or u.skirmishing:\n"
        '        raise RuleViolation(R_CHARGE, f"{u.id} cannot charge ({u.kind},'
        ' {u.formation})")\n',
        "    if u.artillery or u.skirmishing:\n"
        '        raise RuleViolation(R_CHARGE, f"{u.id} cannot charge ({u.kind},'
        ' {u.formation})")\n'
        f"    if {K87}:\n"
        "        raise RuleViolation(R_CHARGE, 'still changing formation (K87)')\n",
        "Kuryakin: (the same) no charge before it",
    ),
    (
        "deec10d:K87",
        "vedette/rules/solo_napoleonic/flow.py",
        "                                  'runs', blocks=('next', 'end_turn')))\n",
        "                                  'runs', blocks=('next', 'end_turn')))\n" + K87_OWED,
        "Kuryakin: (the same) the change owed on the unit's card",
    ),
)
#: reading K89 (session 20): where a move that runs into the enemy units ``_met`` stops (the
#: last place on its straight way, ``_a`` to ``_b``, clear of them, to 0.1 mm), in the
#: baseline's move (``actions.enemy_stop``)
K89_STOP = (
    "        _obs89 = [geom.body(state.unit(_x)) for _x in _met]\n"
    "        _a89 = geom.body(u)\n"
    "        _b89 = geom.body(updated(u, kw))\n"
    "        def _at89(f):\n"
    "            return TT.Body(TT.Vec(_a89.centre.x + (_b89.centre.x - _a89.centre.x) * f,\n"
    "                                  _a89.centre.y + (_b89.centre.y - _a89.centre.y) * f),\n"
    "                           _b89.facing, _b89.footprint)\n"
    "        def _cl89(body):\n"
    "            return not any(o is not None and TT.overlaps(body, o, 1.0) for o in _obs89)\n"
    "        _len89 = _a89.centre.distance(_b89.centre)\n"
    "        _n89 = 2 * max(1, math.ceil(_len89 / max(1.0, min(_b89.footprint.width,\n"
    "                                                        _b89.footprint.depth) / 2)))\n"
    "        _lo89, _hi89 = 0.0, 1.0\n"
    "        for _i89 in range(1, _n89 + 1):\n"
    "            if not _cl89(_at89(_i89 / _n89)):\n"
    "                _lo89, _hi89 = (_i89 - 1) / _n89, _i89 / _n89\n"
    "                break\n"
    "        while (_hi89 - _lo89) * _len89 > 0.1:\n"
    "            _m89 = (_lo89 + _hi89) / 2\n"
    "            if _cl89(_at89(_m89)):\n"
    "                _lo89 = _m89\n"
    "            else:\n"
    "                _hi89 = _m89\n"
    "        _c89 = _at89(_lo89).centre\n"
    "        _near89 = (round(_c89.x, 1), round(_c89.y, 1))\n"
    "        if not _cl89(TT.Body(TT.Vec(*_near89), _b89.facing, _b89.footprint)):\n"
    "            _near89 = (\n"
    "                math.floor(_c89.x * 10) / 10 if _c89.x >= _a89.centre.x\n"
    "                else math.ceil(_c89.x * 10) / 10,\n"
    "                math.floor(_c89.y * 10) / 10 if _c89.y >= _a89.centre.y\n"
    "                else math.ceil(_c89.y * 10) / 10,\n"
    "            )\n"
    "        kw['x'], kw['y'] = _near89\n"
)
#: reading K88 (session 20): a charger moves up no further than its move, in the baseline's
#: close (``morale.reach_short``); ``{coll}``: how that baseline's move up owes its collisions
K88_CLOSE = (
    "    kw: dict[str, object] = dict(contact(u, t))\n"
    "    from vedette.rules.solo_napoleonic.actions import base_move as _bm88\n"
    "    from vedette.rules.solo_napoleonic.events import ChargeStep as _CS88\n"
    "    _left88 = max(0.0, _bm88(state, u) - u.moved_mm)\n"
    "    if (kw and kw['moved_mm'] - u.moved_mm > _left88 + 0.5\n"
    "            and geom.unit_distance(u, t) > _left88):\n"
    "        _b88 = geom.body(u).facing_toward(geom.body(t).centre).advanced(_left88)\n"
    "        kw = {'x': round(_b88.centre.x, 1), 'y': round(_b88.centre.y, 1),\n"
    "              'facing': round(_b88.facing, 1), 'moved_mm': u.moved_mm + _left88}\n"
    "{coll}"
    "        ch.unit(ClosedUp, u.id, 'moves up toward its target: out of reach', **kw)\n"
    "        ch.unit(_CS88, u.id, 'the charge ends short (K88)', charge_step=None,\n"
    "                charge_state='done')\n"
    "        return Outcome(tuple(ch.events), (), 'out of reach (K88)', {'melee': False})\n"
)
#: reading K90 (session 20): a unit that fought a round of melee this turn does not reform
K90 = (
    "(u.melee_round > 0 or u.lost_melee or any(o.charge_target == u.id and o.melee_round > 0"
    " for o in state.units))"
)
K88_K90 = "a6b3bc3:K88-K90"
#: reading K89 for the moves the rules make (session 20, helper K13): a charger stopped at contact
#: with an enemy in its way (a close, or a charge home following a target that retired) ends its
#: charge (``morale.barred``), in the baseline's actions
K89R_BARRED = (
    "def _barred89(ch, u, kw):\n"
    "    from vedette.rules.solo_napoleonic.events import ChargeStep as _CS89, ClosedUp as _CU89\n"
    "    _b = geom.body(u)\n"
    "    kw = {**kw, 'moved_mm': u.moved_mm + round(math.hypot(kw['x'] - _b.centre.x,\n"
    "                                                          kw['y'] - _b.centre.y), 1)}\n"
    "    ch.unit(_CU89, u.id, 'moves up: an enemy in the way (K89)', **kw)\n"
    "    ch.unit(_CS89, u.id, 'the charge ends (K89)', charge_step=None, charge_state='done')\n"
    "    return Outcome(tuple(ch.events), (), 'barred (K89)', {'melee': False, 'home': False})\n"
    "\n"
    "\n"
)
#: (the same) c1ed18f's rules' moves (``_k16_kw``) stopped at contact with an enemy: the move's
#: ``kw`` so stopped, its collisions those before the stop, and the enemy met (None: none)
K89R_KW = (
    "def _k89_kw(state, u, kw, exclude=None):\n"
    "    from vedette.geometry import tabletop as TT\n"
    "    from vedette.rules.solo_napoleonic.model import updated\n"
    "    kw = {_k: _v for _k, _v in kw.items() if _k != 'collided'}\n"
    "    if 'x' not in kw:\n"
    "        return _k16_kw(state, u, kw, exclude), None\n"
    "    _hit = _k16_kw(state, u, dict(kw), exclude).get('collided', ())\n"
    "    _met = [_x for _x in _hit if state.unit(_x).side != u.side]\n"
    "    if not _met:\n"
    "        return _k16_kw(state, u, kw, exclude), None\n"
    "    if True:\n"
    + K89_STOP
    + "    _hit = [_x for _x in _k16_kw(state, u, dict(kw), exclude).get('collided', ())\n"
    "            if _x not in _met]\n"
    "    if _hit:\n"
    "        kw['collided'] = tuple(_hit)\n"
    "    return kw, _met[0]\n"
    "\n"
    "\n"
)
ACT = "__import__('vedette.rules.solo_napoleonic.actions', fromlist=['x'])"
K89R = "ed24342:K89r"
#: reading K88 carried on to the charge home (session 20, helper K14): its move into contact,
#: after a target that retired once the charger had moved up, is capped by what is left of the
#: charger's move as the close is (``K88_CLOSE``), in the baseline's charge_home
K88H = "59281d7:K88h"
K88_HOME_AT = "    u, t = _home_units(state, req)\n    ch = Changes(state)\n"
BASE_FIXES: tuple[tuple[str, str, str, str, str], ...] = (
    (
        "be8b550",
        "vedette/rules/solo_napoleonic/ruleset.py",
        "    if u.formation_target is not None:\n        out.append(\n",
        "    if u.formation_target is not None:\n"
        "        if not (u.formation_quarters > 0 and u.moved_mm >= actions.base_move(state, u)):\n"
        "          out.append(\n",
        "Kuryakin: a formation change carried into the next turn is not offered again this turn"
        " (session 14: it changed nothing, and was about 7% of a random game's actions)",
    ),
    (
        "8e179c3",
        "vedette/rules/solo_napoleonic/flow.py",
        '        move_allowed(state, u, Move(unit=u.id, mode="advance", distance=left))\n',
        '        move_allowed(state, u, Move(unit=u.id, mode="advance", distance=left,'
        " toward=u.restricted_to))\n",
        "Kuryakin: a queue jumper that carries on regardless owes its advance toward its charger"
        " (issue 23, K16; reached by a game of seed 2026 once session 15's rules changed)",
    ),
    (
        "8e179c3",
        "vedette/rules/solo_napoleonic/flow.py",
        '                    {"unit": u.id, "mode": "advance", "distance": left},\n',
        '                    {"unit": u.id, "mode": "advance", "distance": left,\n'
        '                     **({"toward": u.restricted_to} if u.restricted_to else {})},\n',
        "Kuryakin: (the same) the owed advance names the charger it goes toward",
    ),
    (
        "931a96f",
        "vedette/rules/solo_napoleonic/actions.py",
        "    direction = req.direction\n    if direction is None:\n",
        "    direction = req.direction\n"
        "    if direction is None and (mode == 'rout' or (owed is not None and mode == owed[0])):\n"
        "        _b = geom.body(u)\n"
        "        _t = next((x for x in sorted(state.units, key=lambda x: x.id)\n"
        "                   if x.charge_target == u.id and x.charge_step is not None\n"
        "                   and x.on_table), None)\n"
        "        if _t is None or geom.body(_t) is None:\n"
        "            _n = None\n"
        "            for _o in state.units:\n"
        "                if _o.side != u.side and _o.on_table:\n"
        "                    _d = geom.unit_distance(u, _o)\n"
        "                    if _d is not None and (_n is None or _d < _n[0]):\n"
        "                        _n = (_d, _o)\n"
        "            _t = None if _n is None else _n[1]\n"
        "        _tb = None if _t is None or _b is None else geom.body(_t)\n"
        "        if _tb is not None:\n"
        "            direction = (math.degrees(math.atan2(_b.centre.x - _tb.centre.x,\n"
        "                         _b.centre.y - _tb.centre.y)) - _b.facing) % 360.0\n"
        "    if direction is None:\n",
        "Kuryakin: a rout and a failed test's owed retirement run away from the charger, else the"
        " nearest enemy (session 15)",
    ),
    (
        "fddbf8c",
        "vedette/rules/solo_napoleonic/melee.py",
        "    pos = geom.moved(u, -r.final * 10.0, 0.0)\n",
        "    _c = next((x for x in sorted(state.units, key=lambda x: x.id)\n"
        "               if x.charge_target == u.id and x.charge_step is not None), None)\n"
        "    _b, _o = geom.body(u), None if _c is None else geom.body(_c)\n"
        "    pos = geom.moved(u, -r.final * 10.0, 0.0)\n"
        "    if _b is not None and _o is not None:\n"
        "        _dx, _dy = _b.centre.x - _o.centre.x, _b.centre.y - _o.centre.y\n"
        "        _n = (_dx * _dx + _dy * _dy) ** 0.5\n"
        "        if _n >= 1e-9:\n"
        "            pos = (round(_b.centre.x + _dx / _n * r.final * 10.0, 1),\n"
        "                   round(_b.centre.y + _dy / _n * r.final * 10.0, 1))\n",
        "Kuryakin: skirmishers evade away from the cavalry charging them (session 15)",
    ),
    (
        "8d9ced1:rifles",
        "vedette/rules/solo_napoleonic/fire.py",
        "    if f.skirmishing:\n        if f.cavalry and moved:\n",
        "    if f.rifles and f.moved_mm > 0 and f.moved_mm > _half_move(state, f):\n"
        "        raise RuleViolation(R_FIRE, 'rifles cannot move more than half and fire')\n"
        "    if f.skirmishing:\n        if f.cavalry and moved:\n",
        "Kuryakin: skirmishing rifles that moved over half may not fire (session 15)",
    ),
    (
        "07107f6",
        "vedette/rules/solo_napoleonic/fire.py",
        '        raise RuleViolation("Kuryakin, Charge Test", f"{f.id} is charging: it cannot'
        ' fire")\n',
        '        raise RuleViolation("Kuryakin, Charge Test", f"{f.id} is charging: it cannot'
        ' fire")\n'
        "    if f.reformed:\n"
        "        raise RuleViolation('Kuryakin, Disorder', 'reformed: nothing else this turn')\n",
        "Kuryakin: a unit that reformed gives no defensive fire that turn (session 15)",
    ),
    (
        "8d9ced1:fired",
        "vedette/rules/solo_napoleonic/actions.py",
        "    return allowance(state, u, req)\n",
        "    if u.fired and u.cavalry and u.skirmishing:\n"
        "        raise RuleViolation('Kuryakin, Skirmishers', 'fired: no move')\n"
        "    _base, _want = allowance(state, u, req)\n"
        "    if u.fired and u.rifles and u.moved_mm + _want > base_move(state, u) / 2 + 1e-9:\n"
        "        raise RuleViolation('Kuryakin, Firing/Infantry', 'rifles fired: half a move')\n"
        "    return _base, _want\n",
        "Kuryakin: mounted skirmishers that fired do not move, rifles that fired move at most"
        " half (session 15)",
    ),
    (
        "b69a5c7",
        "vedette/rules/solo_napoleonic/model.py",
        "    chance_effects: tuple[str, ...] = ()\n",
        "    chance_effects: tuple[str, ...] = ()\n    collided: tuple[str, ...] = ()\n",
        "Kuryakin: a move that runs into another unit owes the collision's chits at once"
        " (session 15, helper G): the units it ran into, held on the mover",
    ),
    (
        "b69a5c7",
        "vedette/rules/solo_napoleonic/events.py",
        '        {"bound", "moved_mm", "move_done", "advancing", "x", "y", "disorder"}\n',
        '        {"bound", "moved_mm", "move_done", "advancing", "x", "y", "disorder",'
        ' "collided"}\n',
        "Kuryakin: (the same) a move records the units it ran into",
    ),
    (
        "b69a5c7",
        "vedette/rules/solo_napoleonic/events.py",
        '    touches: ClassVar[frozenset[str]] = frozenset({"disorder"})\n',
        '    touches: ClassVar[frozenset[str]] = frozenset({"disorder", "collided"})\n',
        "Kuryakin: (the same) the collision's chits discharge it",
    ),
    (
        "b69a5c7",
        "vedette/rules/solo_napoleonic/actions.py",
        '        kw["disorder"] = u.disorder + chits\n'
        '    ch.unit(Moved, u.id, f"{mode} move", **kw)\n',
        '        kw["disorder"] = u.disorder + chits\n'
        "    import dataclasses\n"
        "    from vedette.geometry import tabletop as _tt\n"
        "    _a = geom.body(u)\n"
        '    _b = geom.body(dataclasses.replace(u, x=kw["x"], y=kw["y"])) if "x" in kw else _a\n'
        "    _hit = []\n"
        "    if _a is not None and _b is not None:\n"
        "        _ax, _ay = _a.centre.x, _a.centre.y\n"
        "        _vx, _vy = _b.centre.x - _ax, _b.centre.y - _ay\n"
        "        _l2 = _vx * _vx + _vy * _vy\n"
        "        _ways = []\n"
        "        for _o in state.units:\n"
        "            _ob = geom.body(_o) if _o.id != u.id and _o.on_table else None\n"
        "            if _ob is None:\n"
        "                continue\n"
        "            _k = 0.0 if _l2 <= 0 else ((_ob.centre.x - _ax) * _vx\n"
        "                                       + (_ob.centre.y - _ay) * _vy) / _l2\n"
        "            _k = min(1.0, max(0.0, _k))\n"
        "            _g = math.hypot(_ob.centre.x - _ax - _k * _vx,\n"
        "                            _ob.centre.y - _ay - _k * _vy)\n"
        "            if _g > _a.radius + _ob.radius + 1.0 or _tt.overlaps(_a, _ob, 1.0):\n"
        "                continue\n"
        "            if not _ways:\n"
        "                _st = max(1.0, min(_a.footprint.width, _a.footprint.depth) / 2)\n"
        "                _n = max(1, math.ceil(math.sqrt(_l2) / _st))\n"
        "                _ways = [_tt.Body(_tt.Vec(_ax + _vx * i / _n, _ay + _vy * i / _n),\n"
        "                                  _b.facing, _b.footprint) for i in range(1, _n + 1)]\n"
        "            if any(_tt.overlaps(_w, _ob, 1.0) for _w in _ways):\n"
        "                _hit.append(_o.id)\n"
        "    if _hit:\n"
        '        kw["collided"] = tuple(_hit)\n'
        '    ch.unit(Moved, u.id, f"{mode} move", **kw)\n',
        "Kuryakin: (the same) the units a move runs into (actions.collisions)",
    ),
    (
        "b69a5c7",
        "vedette/rules/solo_napoleonic/actions.py",
        "            if u.skirmishing:\n"
        '                parts.append(f"{u.id} skirmishing: no D")\n'
        "                continue\n"
        '            ch.unit(Disordered, u.id, "collision", disorder=ch.state.unit(u.id).disorder'
        " + r.final)\n",
        "            _d = {'collided': ()} if u.id == str(ids[0]) and u.collided == tuple(\n"
        "                str(x) for x in ids[1:]) else {}\n"
        "            if u.skirmishing:\n"
        "                if _d:\n"
        "                    ch.unit(Disordered, u.id, 'collision (skirmishing: no D)', **_d)\n"
        '                parts.append(f"{u.id} skirmishing: no D")\n'
        "                continue\n"
        '            ch.unit(Disordered, u.id, "collision", disorder=ch.state.unit(u.id).disorder'
        " + r.final, **_d)\n",
        "Kuryakin: (the same) the collision's chits rolled discharge it",
    ),
    (
        "b69a5c7",
        "vedette/rules/solo_napoleonic/flow.py",
        "    out[:0] = bound_moves(state)\n",
        "    out[:0] = [\n"
        '        Obligation(f"collision:{u.id}", "disorder",\n'
        '                   {"cause": "collision", "units": [u.id, *u.collided]},\n'
        '                   "Kuryakin, Disorder", "collision")\n'
        "        for u in state.units if u.collided\n"
        "    ] + bound_moves(state)\n",
        "Kuryakin: (the same) the collision's chits owed first",
    ),
    (
        "b18fb3c",
        "vedette/rules/solo_napoleonic/fire.py",
        "        raise RuleViolation('Kuryakin, Disorder', 'reformed: nothing else this turn')\n",
        "        raise RuleViolation('Kuryakin, Disorder', 'reformed: nothing else this turn')\n"
        "    if f.charge_state is not None and f.bound != 'volley':\n"
        "        raise RuleViolation('Kuryakin, Charge Test', 'chargers cannot fire that turn')\n",
        "Kuryakin: a unit that charged cannot fire that turn once its charge is over (session 15)",
    ),
    (
        "7c903d9",
        "vedette/rules/solo_napoleonic/flow.py",
        "    ] + bound_moves(state)\n",
        "    ] + bound_moves(state)\n"
        "    if state.phase == 'activation' and state.active is not None:\n"
        "        from vedette.rules.solo_napoleonic import requests as _rq\n"
        "        from vedette.rules.solo_napoleonic.actions import base_move as _bm\n"
        "        from vedette.rules.solo_napoleonic.actions import move_allowed as _ma\n"
        "        for _uid in state.active_units():\n"
        "            _u = state.unit(_uid)\n"
        "            if _u.status != 'routing' or not _u.on_table or _u.move_done or _u.acted:\n"
        "                continue\n"
        "            if _u.bound is not None or _u.morale_due or _u.charge_target is not None:\n"
        "                continue\n"
        "            if _bm(state, _u) <= 0:\n"
        "                continue\n"
        "            try:\n"
        "                _ma(state, _u, _rq.Move(unit=_u.id, mode='rout'))\n"
        "            except Exception:\n"
        "                continue\n"
        "            out.append(Obligation(f'rout:{_u.id}', 'move',\n"
        "                                  {'unit': _u.id, 'mode': 'rout'}, 'Kuryakin, Morale',\n"
        "                                  'runs', blocks=('next', 'end_turn')))\n",
        "Kuryakin: a routing unit on its card owes its run unless it rallies first (session 15,"
        " reading K60)",
    ),
    (
        "7c903d9",
        "vedette/rules/solo_napoleonic/ruleset.py",
        '    if u.status == "routing":\n        run = Todo(',
        '    if u.status == "routing":\n'
        "        if any(o.id == f'rout:{u.id}' for o in flow.obligations(state)):\n"
        "            return [rally]\n"
        "        run = Todo(",
        "Kuryakin: (the same) the owed run is not offered twice",
    ),
    (
        "cf112ad",
        "vedette/rules/solo_napoleonic/melee.py",
        "                   round(_b.centre.y + _dy / _n * r.final * 10.0, 1))\n"
        '    if pos is not None:\n        kw["x"], kw["y"] = pos\n',
        "                   round(_b.centre.y + _dy / _n * r.final * 10.0, 1))\n"
        '    if pos is not None:\n        kw["x"], kw["y"] = pos\n'
        "        if req.caught is None and _c is not None:\n"
        "            from dataclasses import replace as _rp\n"
        "            from vedette.rules.solo_napoleonic.actions import base_move as _bm\n"
        "            _d = geom.unit_distance(_c, _rp(u, x=pos[0], y=pos[1]))\n"
        "            if _d is not None and _d <= _bm(state, _c) - _c.moved_mm:\n"
        "                caught = u.figures\n",
        "Kuryakin: skirmishers the charging cavalry's move still reaches after their evasion are"
        " ridden down (session 15, reading K59)",
    ),
    (
        "85dffa8",
        "vedette/rules/solo_napoleonic/fire.py",
        '            "Kuryakin, Movement",'
        ' f"{f.id} may act only against {f.restricted_to} this turn"\n'
        "        )\n",
        '            "Kuryakin, Movement",'
        ' f"{f.id} may act only against {f.restricted_to} this turn"\n'
        "        )\n"
        '    if f.artillery and f.formation == "limbered":\n'
        "        raise RuleViolation(\n"
        '            "Kuryakin, Artillery",\n'
        "            f\"{f.id} is limbered: unlimber it first ('formation to=unlimbered', K61)\",\n"
        "        )\n",
        "Kuryakin: a limbered battery does not fire (session 15, reading K61)",
    ),
    (
        "85dffa8",
        "vedette/rules/solo_napoleonic/ruleset.py",
        '    shooter = u.kind == "infantry" or u.artillery or u.skirmishing\n',
        '    shooter = (u.kind == "infantry" or u.artillery or u.skirmishing) and not (\n'
        '        u.artillery and u.formation == "limbered"\n'
        "    )\n",
        "Kuryakin: (the same) a limbered battery's fire is not offered",
    ),
    (
        "687a550:K64",
        "vedette/rules/solo_napoleonic/actions.py",
        "            if _ob is None:\n                continue\n            _k = 0.0",
        "            if _ob is None:\n                continue\n"
        "            if _o.side == u.side and (_o.skirmishing or u.skirmishing):\n"
        "                continue\n            _k = 0.0",
        "Kuryakin: a unit and its own side's skirmishers pass through each other without a"
        " collision (session 16, reading K64)",
    ),
    (
        "687a550:moves",
        "vedette/rules/solo_napoleonic/actions.py",
        "def move_odds(",
        "def _k16_kw(state, u, kw, exclude=None):\n"
        "    import dataclasses\n"
        "    from vedette.geometry import tabletop as _tt\n"
        "    if 'x' not in kw:\n"
        "        return kw\n"
        "    _a = geom.body(u)\n"
        "    _b = geom.body(dataclasses.replace(u, x=kw['x'], y=kw['y'], facing=kw.get('facing',"
        " u.facing)))\n"
        "    _hit = []\n"
        "    if _a is not None and _b is not None:\n"
        "        _ax, _ay = _a.centre.x, _a.centre.y\n"
        "        _vx, _vy = _b.centre.x - _ax, _b.centre.y - _ay\n"
        "        _l2 = _vx * _vx + _vy * _vy\n"
        "        _ways = []\n"
        "        for _o in state.units:\n"
        "            if _o.id in (u.id, exclude) or not _o.on_table:\n"
        "                continue\n"
        "            if _o.side == u.side and (_o.skirmishing or u.skirmishing):\n"
        "                continue\n"
        "            _ob = geom.body(_o)\n"
        "            if _ob is None:\n"
        "                continue\n"
        "            _k = 0.0 if _l2 <= 0 else ((_ob.centre.x - _ax) * _vx\n"
        "                                       + (_ob.centre.y - _ay) * _vy) / _l2\n"
        "            _k = min(1.0, max(0.0, _k))\n"
        "            _g = math.hypot(_ob.centre.x - _ax - _k * _vx,\n"
        "                            _ob.centre.y - _ay - _k * _vy)\n"
        "            if _g > _a.radius + _ob.radius + 1.0 or _tt.overlaps(_a, _ob, 1.0):\n"
        "                continue\n"
        "            if not _ways:\n"
        "                _st = max(1.0, min(_a.footprint.width, _a.footprint.depth) / 2)\n"
        "                _n = max(1, math.ceil(math.sqrt(_l2) / _st))\n"
        "                _ways = [_tt.Body(_tt.Vec(_ax + _vx * i / _n, _ay + _vy * i / _n),\n"
        "                                  _b.facing, _b.footprint) for i in range(1, _n + 1)]\n"
        "            if any(_tt.overlaps(_w, _ob, 1.0) for _w in _ways):\n"
        "                _hit.append(_o.id)\n"
        "    if _hit:\n"
        "        kw = {**kw, 'collided': tuple(_hit)}\n"
        "    return kw\n"
        "\n"
        "\n"
        "def move_odds(",
        "Kuryakin: the moves the rules make run into units as a move does (session 16): the test",
    ),
    (
        "687a550:moves",
        "vedette/rules/solo_napoleonic/events.py",
        '    touches: ClassVar[frozenset[str]] = frozenset({"x", "y", "facing", "moved_mm"})\n',
        '    touches: ClassVar[frozenset[str]] = frozenset({"x", "y", "facing", "moved_mm",'
        ' "collided"})\n',
        "Kuryakin: (the same) a charger moving up records the units it runs into",
    ),
    (
        "687a550:moves",
        "vedette/rules/solo_napoleonic/events.py",
        '    touches: ClassVar[frozenset[str]] = frozenset({"charge_state", "x", "y", "facing",'
        ' "moved_mm"})\n',
        '    touches: ClassVar[frozenset[str]] = frozenset({"charge_state", "x", "y", "facing",'
        ' "moved_mm", "collided"})\n',
        "Kuryakin: (the same) so does one charging home",
    ),
    (
        "687a550:moves",
        "vedette/rules/solo_napoleonic/events.py",
        '        {"charge_state", "advancing", "x", "y", "home_failed", "bound"}\n',
        '        {"charge_state", "advancing", "x", "y", "home_failed", "bound", "collided"}\n',
        "Kuryakin: (the same) so does a timid CO's retirement",
    ),
    (
        "687a550:moves",
        "vedette/rules/solo_napoleonic/events.py",
        '        {"morale_due", "restricted_to", "x", "y", "figures", "casualties_turn",'
        ' "status"}\n',
        '        {"morale_due", "restricted_to", "x", "y", "figures", "casualties_turn",'
        ' "status", "collided"}\n',
        "Kuryakin: (the same) so do skirmishers evading",
    ),
    (
        "687a550:moves",
        "vedette/rules/solo_napoleonic/morale.py",
        '    ch.unit(ClosedUp, u.id, f"moves up to {t.id}", **kw)\n',
        "    from vedette.rules.solo_napoleonic.actions import _k16_kw\n"
        '    ch.unit(ClosedUp, u.id, f"moves up to {t.id}", **_k16_kw(state, u, kw, t.id))\n',
        "Kuryakin: (the same) the charger's move up",
    ),
    (
        "687a550:moves",
        "vedette/rules/solo_napoleonic/morale.py",
        '"charges home (no test needed)", charge_state="home", **contact(u, t)\n',
        '"charges home (no test needed)", charge_state="home",\n'
        "            **__import__('vedette.rules.solo_napoleonic.actions',"
        " fromlist=['x'])._k16_kw(\n"
        "                state, u, contact(u, t), t.id)\n",
        "Kuryakin: (the same) the move into contact (no test)",
    ),
    (
        "687a550:moves",
        "vedette/rules/solo_napoleonic/morale.py",
        '        ch.unit(ChargedHome, u.id, "charges home", charge_state="home",'
        " **contact(u, t))\n",
        '        ch.unit(ChargedHome, u.id, "charges home", charge_state="home",\n'
        "                **__import__('vedette.rules.solo_napoleonic.actions',"
        " fromlist=['x'])._k16_kw(state, u, contact(u, t), t.id))\n",
        "Kuryakin: (the same) the move into contact",
    ),
    (
        "687a550:moves",
        "vedette/rules/solo_napoleonic/morale.py",
        '        ch.unit(ChargeHomeFailed, u.id, f"fails to charge home: {res}", **kw)\n',
        '        ch.unit(ChargeHomeFailed, u.id, f"fails to charge home: {res}",\n'
        "                **__import__('vedette.rules.solo_napoleonic.actions',"
        " fromlist=['x'])._k16_kw(state, u, kw))\n",
        "Kuryakin: (the same) a timid CO's retirement",
    ),
    (
        "687a550:moves",
        "vedette/rules/solo_napoleonic/melee.py",
        '        Evaded, u.id, f"evades {r.final}cm" + (f", {caught} ridden down" if caught else'
        ' ""), **kw\n',
        '        Evaded, u.id, f"evades {r.final}cm" + (f", {caught} ridden down" if caught else'
        ' ""),\n'
        "        **(kw if caught == u.figures else __import__("
        "'vedette.rules.solo_napoleonic.actions', fromlist=['x'])._k16_kw(state, u, kw))\n",
        "Kuryakin: (the same) skirmishers evading",
    ),
    (
        "687a550:K65",
        "vedette/rules/solo_napoleonic/morale.py",
        '        charge_step="morale",\n        charge_flank=bool(req.flank_rear),\n',
        '        charge_step="evade" if t.skirmishing and u.cavalry else "morale",\n'
        "        charge_flank=bool(req.flank_rear),\n",
        "Kuryakin: skirmishers charged by cavalry evade instead of the forced test (session 16,"
        " reading K65)",
    ),
    (
        "687a550:K65",
        "vedette/rules/solo_napoleonic/flow.py",
        '        elif step == "evade":\n            out.append(\n',
        '        elif step == "evade":\n'
        "            seen.add(t.id)\n"
        "            if t.morale_due and not may_test_now(state, t):\n"
        "                continue\n"
        "            out.append(\n",
        "Kuryakin: (the same) the evasion owed when the test would be",
    ),
    (
        "687a550:K66",
        "vedette/rules/solo_napoleonic/fire.py",
        "        notes += general_killed_calls(ch, gen, uid)\n    return alloc, notes\n",
        "        notes += general_killed_calls(ch, gen, uid)\n"
        "    if figs == 0:\n"
        "        from vedette.rules.solo_napoleonic.events import GeneralAttached as _GA\n"
        "        for _g in ch.state.generals:\n"
        "            if _g.attached_to == uid and not _g.killed:\n"
        "                ch.general(_GA, _g.id, 'detached', attached_to=None)\n"
        "    return alloc, notes\n",
        "Kuryakin: the general of a unit destroyed is detached (session 16, reading K66)",
    ),
    (
        "687a550:K66",
        "vedette/rules/solo_napoleonic/melee.py",
        "    flow.after_evade(ch, u.id)\n",
        "    if caught == u.figures:\n"
        "        from vedette.rules.solo_napoleonic.events import GeneralAttached as _GA\n"
        "        for _g in ch.state.generals:\n"
        "            if _g.attached_to == u.id and not _g.killed:\n"
        "                ch.general(_GA, _g.id, 'detached', attached_to=None)\n"
        "    flow.after_evade(ch, u.id)\n",
        "Kuryakin: (the same) skirmishers ridden down",
    ),
    (
        "0ae9094",
        "vedette/rules/solo_napoleonic/actions.py",
        "    direction = req.direction\n    if direction is None and (mode == 'rout' or",
        "    direction = req.direction\n"
        "    if req.toward is not None:\n"
        "        _b, _ob = geom.body(u), geom.body(state.unit(req.toward))\n"
        "        direction = None if _b is None or _ob is None else (math.degrees(math.atan2(\n"
        "            _ob.centre.x - _b.centre.x, _ob.centre.y - _b.centre.y)) - _b.facing)"
        " % 360.0\n"
        "    if direction is None and (mode == 'rout' or",
        "Kuryakin: a move toward a unit goes straight at it (session 16)",
    ),
    (
        "0ae9094",
        "vedette/rules/solo_napoleonic/ruleset.py",
        '    if u.placed and mode in (None, "retire", "retreat"):\n',
        '    if u.placed and mode in (None, "retire", "retreat") and not (\n'
        "        mode is None and u.restricted_to\n"
        "    ):\n",
        "Kuryakin: (the same) a queue jumper's move toward its charger is offered without a"
        " direction",
    ),
    (
        "6ef9817:K67-K41",
        "vedette/rules/solo_napoleonic/actions.py",
        "            if any(_tt.overlaps(_w, _ob, 1.0) for _w in _ways):\n"
        "                _hit.append(_o.id)\n",
        "            if any(_tt.overlaps(_w, _ob, 1.0) for _w in _ways) and not _k67(\n"
        "                u, _o, _b, _ob, _ways\n"
        "            ):\n"
        "                _hit.append(_o.id)\n",
        "Kuryakin: a unit that only leaves a unit it touched does not collide with it (session 16,"
        " reading K67): a move's collisions",
    ),
    (
        "6ef9817:K67-K41",
        "vedette/rules/solo_napoleonic/actions.py",
        "            if any(_tt.overlaps(_w, _ob, 1.0) for _w in _ways):\n"
        "                _hit.append(_o.id)\n",
        "            if any(_tt.overlaps(_w, _ob, 1.0) for _w in _ways) and not _k67(\n"
        "                u, _o, _b, _ob, _ways\n"
        "            ):\n"
        "                _hit.append(_o.id)\n",
        "Kuryakin: (the same) the moves the rules make",
    ),
    (
        "6ef9817:K67-K41",
        "vedette/rules/solo_napoleonic/actions.py",
        "def move_odds(",
        "def _k67(u, o, b, ob, ways):\n"
        "    from vedette.geometry import tabletop as _tt\n"
        "    _d = geom.unit_distance(u, o)\n"
        "    if _d is None or _d > 5.0:\n"
        "        return False\n"
        "    _fp = _tt.Footprint(max(1.0, b.footprint.width - 10.0),"
        " max(1.0, b.footprint.depth - 10.0))\n"
        "    return not any(_tt.overlaps(_tt.Body(w.centre, b.facing, _fp), ob, 1.0)"
        " for w in ways)\n"
        "\n"
        "\n"
        "def _k41_away(state, u):\n"
        "    _b = geom.body(u)\n"
        "    _t = next((x for x in sorted(state.units, key=lambda x: x.id)\n"
        "               if x.charge_target == u.id and x.charge_step is not None\n"
        "               and x.on_table), None)\n"
        "    if _t is None or geom.body(_t) is None:\n"
        "        _n = None\n"
        "        for _o in state.units:\n"
        "            if _o.side != u.side and _o.on_table:\n"
        "                _d = geom.unit_distance(u, _o)\n"
        "                if _d is not None and (_n is None or _d < _n[0]):\n"
        "                    _n = (_d, _o)\n"
        "        _t = None if _n is None else _n[1]\n"
        "    _tb = None if _t is None or _b is None else geom.body(_t)\n"
        "    if _tb is None:\n"
        "        return None\n"
        "    return (math.degrees(math.atan2(_b.centre.x - _tb.centre.x,\n"
        "            _b.centre.y - _tb.centre.y)) - _b.facing) % 360.0\n"
        "\n"
        "\n"
        "def move_odds(",
        "Kuryakin: (the same) its test; a half move's retirement facing the enemy (session 16,"
        " reading K41): where it faces",
    ),
    (
        "6ef9817:K67-K41",
        "vedette/rules/solo_napoleonic/actions.py",
        "    if direction is None and (mode == 'rout' or (owed is not None and mode == owed[0])):\n"
        "        _b = geom.body(u)\n",
        "    _mover = u\n"
        "    if owed is not None and mode == owed[0] and u.bound == 'retire_half':\n"
        "        _aw = _k41_away(state, u)\n"
        "        if _aw is not None:\n"
        "            import dataclasses as _dc\n"
        "            kw['facing'] = round((u.facing + _aw + 180.0) % 360.0, 1)\n"
        "            _mover = _dc.replace(u, facing=kw['facing'])\n"
        "            direction = 180.0 if direction is None else (\n"
        "                u.facing + direction - kw['facing']) % 360.0\n"
        "    if direction is None and (mode == 'rout' or (owed is not None and mode == owed[0])):\n"
        "        _b = geom.body(u)\n",
        "Kuryakin: (the same) the unit turns to face the enemy it retires from",
    ),
    (
        "6ef9817:K67-K41",
        "vedette/rules/solo_napoleonic/actions.py",
        "        pos = geom.moved(u, ahead, right)\n",
        "        pos = geom.moved(_mover, ahead, right)\n",
        "Kuryakin: (the same) and backs away from it",
    ),
    (
        "6ef9817:K67-K41",
        "vedette/rules/solo_napoleonic/actions.py",
        '    _b = geom.body(dataclasses.replace(u, x=kw["x"], y=kw["y"])) if "x" in kw else _a\n',
        '    _b = geom.body(dataclasses.replace(u, x=kw["x"], y=kw["y"],'
        ' facing=kw.get("facing", u.facing))) if "x" in kw else _a\n',
        "Kuryakin: (the same) its collisions measured facing so",
    ),
    (
        "6ef9817:K67-K41",
        "vedette/rules/solo_napoleonic/events.py",
        '        {"bound", "moved_mm", "move_done", "advancing", "x", "y", "disorder",'
        ' "collided"}\n',
        '        {"bound", "moved_mm", "move_done", "advancing", "x", "y", "facing", "disorder",'
        ' "collided"}\n',
        "Kuryakin: (the same) a move records the unit's facing",
    ),
    (
        "6ef9817:K68",
        "vedette/rules/solo_napoleonic/morale.py",
        "beyond {u.id}'s charge reach ({reach:.0f}mm, its move)\",\n            )\n",
        "beyond {u.id}'s charge reach ({reach:.0f}mm, its move)\",\n"
        "            )\n"
        "        _kw = contact(u, t)\n"
        "        if _kw:\n"
        "            _hit = __import__('vedette.rules.solo_napoleonic.actions', fromlist=['x'])"
        "._k16_kw(state, u, dict(_kw), t.id).get('collided', ())\n"
        "            if _hit:\n"
        "                raise RuleViolation(R_CHARGE, f'{_hit} in the way')\n",
        "Kuryakin: a unit in the way bars a charge (session 16, reading K68)",
    ),
    (
        "aa4c67e:K69",
        "vedette/rules/solo_napoleonic/model.py",
        "        return tuple(c for c in self._cards().ordered if c.holder not in done)\n",
        "        return tuple(c for c in self._cards().ordered if c.holder not in done\n"
        "                     and not self._k69_spent(c))\n"
        "\n"
        "    def _k69_spent(self, c):\n"
        "        return c.holder != self.active and not any(\n"
        "            u.on_table for u in self.units if u.id in c.units)\n",
        "Kuryakin: the card of a unit no longer on the table is put aside (session 17, reading"
        " K69): the queue",
    ),
    (
        "aa4c67e:K69",
        "vedette/rules/solo_napoleonic/model.py",
        "            if c.holder not in self.done and c.holder != self.active:\n",
        "            if c.holder not in self.done and c.holder != self.active"
        " and not self._k69_spent(c):\n",
        "Kuryakin: (the same) the next card to act",
    ),
    (
        "aa4c67e:K70",
        "vedette/rules/solo_napoleonic/actions.py",
        "def _k41_away(state, u):\n",
        "def _k70_opp(state, u):\n"
        "    if u.charge_target is not None and (u.charge_step is not None or u.melee_round):\n"
        "        for _o in state.units:\n"
        "            if _o.id == u.charge_target and _o.on_table:\n"
        "                return _o\n"
        "    for _o in state.units:\n"
        "        if _o.charge_target == u.id and _o.on_table and (\n"
        "                _o.charge_step is not None or _o.melee_round):\n"
        "            return _o\n"
        "    return None\n"
        "\n"
        "\n"
        "def _k41_away(state, u):\n",
        "Kuryakin: a rout or retirement from a melee moves away from the melee opponent"
        " (session 17, reading K70)",
    ),
    (
        "aa4c67e:K70",
        "vedette/rules/solo_napoleonic/actions.py",
        "        if _t is None or geom.body(_t) is None:\n            _n = None\n",
        "        if _t is None or geom.body(_t) is None:\n            _t = _k70_opp(state, u)\n"
        "        if _t is None or geom.body(_t) is None:\n            _n = None\n",
        "Kuryakin: (the same) a rout's direction",
    ),
    (
        "aa4c67e:K70",
        "vedette/rules/solo_napoleonic/actions.py",
        "    if _t is None or geom.body(_t) is None:\n        _n = None\n",
        "    if _t is None or geom.body(_t) is None:\n        _t = _k70_opp(state, u)\n"
        "    if _t is None or geom.body(_t) is None:\n        _n = None\n",
        "Kuryakin: (the same) the enemy a half move's retirement faces",
    ),
    (
        "189d10f:standstill",
        "vedette/rules/solo_napoleonic/flow.py",
        '        raise RuleViolation(R_CHARGE, f"{u.id} has already charged this turn")\n',
        '        raise RuleViolation(R_CHARGE, f"{u.id} has already charged this turn")\n'
        "    if u.start_failed:\n"
        '        raise RuleViolation(R_CHARGE, f"{u.id} failed to move from a standstill")\n',
        "Kuryakin: a unit that failed to move from a standstill does not charge (session 17)",
    ),
    (
        "aa4c67e:K70:flee_direction",
        "vedette/rules/solo_napoleonic/actions.py",
        "def flee_direction(",
        "def _k70_opp(state, u):\n"
        "    if u.charge_target is not None and (u.charge_step is not None or u.melee_round):\n"
        "        for _o in state.units:\n"
        "            if _o.id == u.charge_target and _o.on_table:\n"
        "                return _o\n"
        "    for _o in state.units:\n"
        "        if _o.charge_target == u.id and _o.on_table and (\n"
        "                _o.charge_step is not None or _o.melee_round):\n"
        "            return _o\n"
        "    return None\n"
        "\n"
        "\n"
        "def flee_direction(",
        "Kuryakin: (K70, on a baseline with flee_direction, session 15's code) the melee opponent",
    ),
    (
        "aa4c67e:K70:flee_direction",
        "vedette/rules/solo_napoleonic/actions.py",
        "    threat = next((c for c in chargers(state) if c.charge_target == u.id and c.on_table),"
        " None)\n",
        "    threat = next((c for c in chargers(state) if c.charge_target == u.id and c.on_table),"
        " None)\n"
        "    if threat is None or geom.body(threat) is None:\n"
        "        threat = _k70_opp(state, u)\n",
        "Kuryakin: (the same) what a rout or retirement flees",
    ),
    (
        "189d10f:standstill:charging",
        "vedette/rules/solo_napoleonic/charging.py",
        '        return RuleViolation(R_CHARGE, f"{u.id} has already charged this turn")\n',
        '        return RuleViolation(R_CHARGE, f"{u.id} has already charged this turn")\n'
        "    if u.start_failed:\n"
        '        return RuleViolation(R_CHARGE, f"{u.id} failed to move from a standstill")\n',
        "Kuryakin: (on a baseline with charging.charge_refusal) a unit that failed to move from"
        " a standstill does not charge",
    ),
    (
        "1a1ed48:K71-K73",
        "vedette/rules/solo_napoleonic/model.py",
        "    start_failed: bool = False\n    morale_failed: bool = False\n",
        "    start_failed: bool = False\n    standstill_tests: int = 0\n"
        "    formation_changes: int = 0\n    morale_failed: bool = False\n",
        "Kuryakin: one formation change and one standstill test a card (session 17, readings"
        " K71, K72): the unit's counts",
    ),
    (
        "1a1ed48:K71-K73",
        "vedette/rules/solo_napoleonic/events.py",
        'frozenset({"bound", "advancing", "start_failed"})',
        'frozenset({"bound", "advancing", "start_failed", "standstill_tests"})',
        "Kuryakin: (the same) a standstill test counts",
    ),
    (
        "1a1ed48:K71-K73",
        "vedette/rules/solo_napoleonic/events.py",
        '    kind: ClassVar[str] = "halted"\n'
        '    touches: ClassVar[frozenset[str]] = frozenset({"advancing"})\n',
        '    kind: ClassVar[str] = "halted"\n'
        '    touches: ClassVar[frozenset[str]] = frozenset({"advancing", "standstill_tests"})\n',
        "Kuryakin: (the same) a halt counts",
    ),
    (
        "1a1ed48:K71-K73",
        "vedette/rules/solo_napoleonic/events.py",
        '"x", "y", "facing", "disorder", "collided"}',
        '"x", "y", "facing", "disorder", "collided", "standstill_tests"}',
        "Kuryakin: (the same) an advance's own standstill test counts",
    ),
    (
        "1a1ed48:K71-K73",
        "vedette/rules/solo_napoleonic/events.py",
        '"formation_quarters", "front", "moved_mm", "width"}',
        '"formation_quarters", "front", "moved_mm", "width", "formation_changes"}',
        "Kuryakin: (the same) a formation change counts",
    ),
    (
        "1a1ed48:K71-K73",
        "vedette/rules/solo_napoleonic/events.py",
        '            "start_failed",\n            "morale_due",\n',
        '            "start_failed",\n            "standstill_tests",\n'
        '            "formation_changes",\n            "morale_due",\n',
        "Kuryakin: (the same) the counts are cleared at the turn's end",
    ),
    (
        "1a1ed48:K71-K73",
        "vedette/rules/solo_napoleonic/ruleset.py",
        '            "start_failed": False,\n            "morale_due": False,\n',
        '            "start_failed": False,\n            "standstill_tests": 0,\n'
        '            "formation_changes": 0,\n            "morale_due": False,\n',
        "Kuryakin: (the same) cleared",
    ),
    (
        "1a1ed48:K71-K73",
        "vedette/rules/solo_napoleonic/actions.py",
        "    ch = Changes(state)\n    base = base_move(state, u)\n"
        "    if u.formation_target == to and u.formation_quarters > 0:\n",
        "    _stalled = (u.formation_target == to and u.formation_quarters > 0\n"
        "                and u.moved_mm >= base_move(state, u))\n"
        "    if not _stalled and (u.formation_changes >= 1\n"
        "        or u.charge_state in ('done', 'halted')):\n"
        "        raise RuleViolation(R_FORM, 'one change a card (K71)')\n"
        "    _k71 = u.formation_changes + (0 if _stalled else 1)\n"
        "    ch = Changes(state)\n    base = base_move(state, u)\n"
        "    if u.formation_target == to and u.formation_quarters > 0:\n",
        "Kuryakin: one formation change a card (session 17, reading K71)",
    ),
    (
        "1a1ed48:K71-K73",
        "vedette/rules/solo_napoleonic/actions.py",
        "            moved_mm=min(1.0, (used + q) / 4) * new_base,\n        )\n",
        "            moved_mm=min(1.0, (used + q) / 4) * new_base,\n"
        "            formation_changes=_k71,\n        )\n",
        "Kuryakin: (the same) counted when formed",
    ),
    (
        "1a1ed48:K71-K73",
        "vedette/rules/solo_napoleonic/actions.py",
        "            moved_mm=max(u.moved_mm, base),\n        )\n",
        "            moved_mm=max(u.moved_mm, base),\n            formation_changes=_k71,\n"
        "        )\n",
        "Kuryakin: (the same) counted when carried over",
    ),
    (
        "1a1ed48:K71-K73",
        "vedette/rules/solo_napoleonic/actions.py",
        "    if u.fired and u.cavalry and u.skirmishing:\n"
        "        raise RuleViolation('Kuryakin, Skirmishers', 'fired: no move')\n",
        '    if _mode(req) in ("advance", "pursuit") and not u.advancing'
        " and u.standstill_tests >= 1:\n"
        "        raise RuleViolation(R_STAND, 'one standstill test a card (K72)')\n"
        '    if _mode(req) != "rout" and (u.charge_state == "halted" or (u.charge_state == "done"'
        ' and _mode(req) != "pursuit")):\n'
        "        raise RuleViolation(R_MOVE, 'after its charge only a pursuit (K73)')\n"
        "    if u.fired and u.cavalry and u.skirmishing:\n"
        "        raise RuleViolation('Kuryakin, Skirmishers', 'fired: no move')\n",
        "Kuryakin: one standstill test a card (K72); after a charge only a pursuit (K73)",
    ),
    (
        "1a1ed48:K71-K73",
        "vedette/rules/solo_napoleonic/actions.py",
        '            ch.unit(StandstillTested, u.id, "fails to move from a standstill",'
        " start_failed=True)\n"
        "            return Outcome(",
        '            ch.unit(StandstillTested, u.id, "fails to move from a standstill",'
        " start_failed=True, standstill_tests=u.standstill_tests + 1)\n"
        "            return Outcome(",
        "Kuryakin: (the same) an advance's failed standstill test counts",
    ),
    (
        "1a1ed48:K71-K73",
        "vedette/rules/solo_napoleonic/actions.py",
        '        "bound": None if u.bound in ("advance", *RESULT_MOVES) else u.bound,\n    }\n',
        '        "bound": None if u.bound in ("advance", *RESULT_MOVES) else u.bound,\n    }\n'
        "    if advancing and not u.advancing:\n"
        '        kw["standstill_tests"] = u.standstill_tests + 1\n',
        "Kuryakin: (the same) an advance's passed standstill test counts",
    ),
    (
        "1a1ed48:K71-K73",
        "vedette/rules/solo_napoleonic/actions.py",
        'this turn"\n        )\n    r = check_roll(standstill_check(state, u, False), dice)\n',
        'this turn"\n        )\n    if u.standstill_tests >= 1:\n'
        "        raise RuleViolation(R_STAND, 'one standstill test a card (K72)')\n"
        "    r = check_roll(standstill_check(state, u, False), dice)\n",
        "Kuryakin: (the same) start",
    ),
    (
        "1a1ed48:K71-K73",
        "vedette/rules/solo_napoleonic/actions.py",
        '        ch.unit(StandstillTested, u.id, "moves off", advancing=True)\n    else:\n'
        '        ch.unit(StandstillTested, u.id, "fails to move from a standstill",'
        " start_failed=True)\n",
        '        ch.unit(StandstillTested, u.id, "moves off", advancing=True,'
        " standstill_tests=u.standstill_tests + 1)\n    else:\n"
        '        ch.unit(StandstillTested, u.id, "fails to move from a standstill",'
        " start_failed=True, standstill_tests=u.standstill_tests + 1)\n",
        "Kuryakin: (the same) start counts",
    ),
    (
        "1a1ed48:K71-K73",
        "vedette/rules/solo_napoleonic/actions.py",
        '        raise RuleViolation(R_ONE_MOVE, f"{u.id} has made its move this activation")\n'
        "    r = check_roll(standstill_check(state, u, True), dice)\n",
        '        raise RuleViolation(R_ONE_MOVE, f"{u.id} has made its move this activation")\n'
        "    if u.standstill_tests >= 1:\n"
        "        raise RuleViolation(R_STAND, 'one standstill test a card (K72)')\n"
        "    r = check_roll(standstill_check(state, u, True), dice)\n",
        "Kuryakin: (the same) halt",
    ),
    (
        "1a1ed48:K71-K73",
        "vedette/rules/solo_napoleonic/actions.py",
        '        ch.unit(Halted, u.id, "halts", advancing=False)\n',
        '        ch.unit(Halted, u.id, "halts", advancing=False,'
        " standstill_tests=u.standstill_tests + 1)\n",
        "Kuryakin: (the same) a halt counts",
    ),
    (
        "1a1ed48:K71-K73",
        "vedette/rules/solo_napoleonic/actions.py",
        '        ch.unit(StandstillTested, u.id, "carries on regardless", bound="advance")\n',
        '        ch.unit(StandstillTested, u.id, "carries on regardless", bound="advance",'
        " standstill_tests=u.standstill_tests + 1)\n",
        "Kuryakin: (the same) carrying on counts",
    ),
    (
        "1a1ed48:K71-K73",
        "vedette/rules/solo_napoleonic/ruleset.py",
        '    if u.placed and mode in (None, "retire", "retreat") and not (\n',
        '    if u.placed and mode in (None, "retire", "retreat", "pursuit") and not (\n',
        "Kuryakin: (the same) a pursuit is offered in the directions a move is",
    ),
    (
        "1a1ed48:K71-K73",
        "vedette/rules/solo_napoleonic/ruleset.py",
        '    m = move_offer(state, u, None, f"{u.id} moves", actions.R_MOVE)\n'
        "    out += [m] if m else []\n    if u.formation_target is not None:\n",
        '    if u.charge_state in ("done", "halted"):\n'
        '        m = move_offer(state, u, "pursuit", "pursues", actions.R_DIS)'
        ' if u.charge_state == "done" else None\n'
        "    else:\n"
        '        m = move_offer(state, u, None, f"{u.id} moves", actions.R_MOVE)\n'
        "    out += [m] if m else []\n"
        "    if u.formation_changes >= 1 or u.charge_state in ('done', 'halted'):\n        pass\n"
        "    elif u.formation_target is not None:\n",
        "Kuryakin: (the same) offered: a pursuit after a charge, one formation change a card",
    ),
    (
        "1a1ed48:K71-K73",
        "vedette/rules/solo_napoleonic/ruleset.py",
        "    if u.advancing:\n"
        '        out.append(Todo("halt", {"unit": u.id}, f"{u.id} tries to halt",'
        " actions.R_STAND))\n",
        "    if u.standstill_tests >= 1:\n        pass\n    elif u.advancing:\n"
        '        out.append(Todo("halt", {"unit": u.id}, f"{u.id} tries to halt",'
        " actions.R_STAND))\n",
        "Kuryakin: (the same) offered: one standstill test a card",
    ),
    (
        "d5da6d1:reform",
        "vedette/rules/solo_napoleonic/actions.py",
        "    if u.moved_mm or u.fired or u.charge_state:\n",
        "    if u.moved_mm or u.fired or u.charge_state or u.formation_changes"
        " or u.standstill_tests:\n",
        "Kuryakin: reforming takes the whole turn: not after a standstill test or a formation"
        " change of 0 quarters (session 17)",
    ),
    (
        "1a1ed48:K71-K73:late",
        "vedette/rules/solo_napoleonic/config.py",
        "    charge_through_friends: bool\n",
        "    charge_through_friends: bool\n    formation_changes_per_card: int\n"
        '    standstill_tests_per_card: int\n    after_charge_move: Literal["pursuit", "any"]\n'
        '    standstill_moves: Literal["moves", "any", "advance"]\n',
        "Kuryakin: (K71-K74 on a baseline of session 16-17's code: the commits' own diff, and)"
        " the options it reads",
    ),
    (
        "1a1ed48:K71-K73:late",
        "vedette/rules/solo_napoleonic/data/rules.toml",
        "charge_through_friends = false\n",
        "charge_through_friends = false\nformation_changes_per_card = 1\n"
        'standstill_tests_per_card = 1\nafter_charge_move = "pursuit"\n'
        'standstill_moves = "any"\n',
        "Kuryakin: (the same) their values",
    ),
    (
        "b8eb084:K74-move",
        "vedette/rules/solo_napoleonic/actions.py",
        '    if _mode(req) in ("advance", "pursuit") and not u.advancing'
        " and u.standstill_tests >= 1:\n",
        '    if _mode(req) in ("advance", "pursuit", "move") and not u.advancing'
        " and u.standstill_tests >= 1:\n",
        "Kuryakin: a halted unit's plain move tests to move off first (session 17, reading K74):"
        " not after its test of this card",
    ),
    (
        "b8eb084:K74-move",
        "vedette/rules/solo_napoleonic/actions.py",
        '    advancing = mode in ("advance", "pursuit")\n    if advancing and not u.advancing:\n',
        "    _k74 = (owed is None or mode != owed[0]) and not u.advancing"
        ' and mode in ("advance", "pursuit", "move")\n'
        '    advancing = mode in ("advance", "pursuit") or _k74\n    if _k74:\n',
        "Kuryakin: (the same) the test rolled first; passed, it is advancing",
    ),
    (
        "b8eb084:K74-move",
        "vedette/rules/solo_napoleonic/actions.py",
        '    if _mode(req) in ("advance", "pursuit") and not u.advancing:\n'
        "        out.append(standstill_check(",
        '    if _mode(req) in ("advance", "pursuit", "move") and not u.advancing'
        " and owed_move(u) is None:\n        out.append(standstill_check(",
        "Kuryakin: (the same) its odds",
    ),
    (
        "9040349:K74-charge",
        "vedette/rules/solo_napoleonic/morale.py",
        "    r = result_roll(charge_check(state, u, t, req), dice)\n    ch = Changes(state)\n"
        '    use_effects(ch, u.id, "charge")\n',
        "    ch = Changes(state)\n    _k74 = []\n    if not u.advancing:\n"
        "        from vedette.rules.solo_napoleonic.actions import standstill_check as _sc\n"
        "        from vedette.rules.solo_napoleonic.common import check_roll as _cr\n"
        "        from vedette.rules.solo_napoleonic.events import StandstillTested as _st\n"
        "        if u.standstill_tests >= 1:\n"
        "            raise RuleViolation(R_CHARGE, 'one standstill test a card (K72)')\n"
        "        _s = _cr(_sc(state, u, False), dice)\n        _k74.append(_s)\n"
        '        use_effects(ch, u.id, "standstill")\n'
        '        if _s.row == "stays":\n'
        '            ch.unit(_st, u.id, "fails to move from a standstill", start_failed=True,'
        " standstill_tests=u.standstill_tests + 1)\n"
        '            return Outcome(tuple(ch.events), tuple(_k74), "no charge",'
        ' {"charges": False})\n'
        '        ch.unit(_st, u.id, "moves off", advancing=True,'
        " standstill_tests=u.standstill_tests + 1)\n"
        "    r = result_roll(charge_check(state, u, t, req), dice)\n    _k74.append(r)\n"
        '    use_effects(ch, u.id, "charge")\n',
        "Kuryakin: a halted unit's charge tests to move off before its Charge Test (session 17,"
        " reading K74)",
    ),
    (
        "d1732a3:K75",
        "vedette/rules/solo_napoleonic/ruleset.py",
        "    if mode is None and u.restricted_to:  # only toward its charger (Kuryakin, Movement)\n"
        '        given.update(mode="advance", toward=u.restricted_to)\n',
        '    if mode in (None, "pursuit") and u.restricted_to:  # only toward its charger\n'
        '        given.update(mode=mode or "advance", toward=u.restricted_to)\n',
        "Kuryakin: a queue jumper pursues only toward its charger (session 18, Movement)",
    ),
    (
        "d1732a3:K75",
        "vedette/rules/solo_napoleonic/ruleset.py",
        '    if u.placed and mode in (None, "retire", "retreat", "pursuit") and not (\n'
        "        mode is None and u.restricted_to\n    ):\n",
        '    if u.placed and mode in (None, "pursuit") and not u.restricted_to:\n',
        "Kuryakin: (the same) a retirement offered straight away from the enemy (reading K75)",
    ),
    (
        "d1732a3:K75",
        "vedette/rules/solo_napoleonic/actions.py",
        "    if direction is None and (mode == 'rout'"
        " or (owed is not None and mode == owed[0])):\n",
        "    if direction is None and (mode in ('rout', 'retire', 'retreat')"
        " or (owed is not None and mode == owed[0])):\n",
        "Kuryakin: (the same) a retirement or retreat goes straight away by default",
    ),
    (
        "d1732a3:K75",
        "vedette/rules/solo_napoleonic/actions.py",
        "        raise RuleViolation(R_STAND, 'one standstill test a card (K72)')\n"
        "    r = check_roll(standstill_check(state, u, False), dice)\n",
        "        raise RuleViolation(R_STAND, 'one standstill test a card (K72)')\n"
        "    if move_base(state, u) - u.moved_mm <= 0:\n"
        "        raise RuleViolation(R_STAND, 'nothing to get moving')\n"
        "    r = check_roll(standstill_check(state, u, False), dice)\n",
        "Kuryakin: no test to move off once the unit has no move to make on its card (session 18,"
        " Moving From A Standstill)",
    ),
    (
        "d1732a3:K75:late",
        "vedette/rules/solo_napoleonic/ruleset.py",
        "    toward = mode is None and u.restricted_to is not None\n"
        "    if toward:  # only toward its charger, straight at it (Kuryakin, Movement)\n"
        '        given.update(mode="advance", toward=u.restricted_to)\n',
        '    toward = mode in (None, "pursuit") and u.restricted_to is not None\n'
        "    if toward:  # only toward its charger, straight at it (Kuryakin, Movement)\n"
        '        given.update(mode=mode or "advance", toward=u.restricted_to)\n',
        "Kuryakin: (on a baseline given K71-K74 as a diff) a queue jumper pursues only toward its"
        " charger (session 18, Movement)",
    ),
    (
        "d1732a3:K75:late",
        "vedette/rules/solo_napoleonic/ruleset.py",
        '    if u.placed and mode in (None, "retire", "retreat", "pursuit") and not toward:\n',
        '    if u.placed and mode in (None, "pursuit") and not toward:\n',
        "Kuryakin: (the same) a retirement offered straight away from the enemy (reading K75)",
    ),
    (
        "d1732a3:K75:late",
        "vedette/rules/solo_napoleonic/actions.py",
        '    if direction is None and (mode == "rout"'
        " or (owed is not None and mode == owed[0])):\n",
        '    if direction is None and (mode in ("rout", "retire", "retreat")'
        " or (owed is not None and mode == owed[0])):\n",
        "Kuryakin: (the same) a retirement or retreat goes straight away by default",
    ),
    (
        "d1732a3:K75:late",
        "vedette/rules/solo_napoleonic/actions.py",
        '        return RuleViolation(R_STAND, f"{u.id} already failed this turn")\n'
        "    no = standstill_refusal(state, u)\n",
        '        return RuleViolation(R_STAND, f"{u.id} already failed this turn")\n'
        "    try:\n        _k = move_base(state, u) - u.moved_mm\n"
        "    except RuleViolation as _e:\n        return _e\n"
        "    if _k <= 0:\n        return RuleViolation(R_STAND, 'nothing to get moving')\n"
        "    no = standstill_refusal(state, u)\n",
        "Kuryakin: (the same) no test to move off once the unit has no move to make on its card",
    ),
    (
        "c9f98c9:K77-K78",
        "vedette/rules/solo_napoleonic/ruleset.py",
        "    elif mode is None:\n"
        '        open_["mode"] = ("advance", "move")\n'
        "    else:\n"
        '        given["mode"] = mode\n'
        '    if u.placed and mode in (None, "pursuit") and not u.restricted_to:\n'
        '        open_["direction"] = DIRECTIONS\n'
        '    return Todo("move", given, text, rule, open=open_)\n',
        "    elif mode is None and u.placed:\n"
        "        _f = tuple(d for d in DIRECTIONS if abs(d) <= 45.05)\n"
        "        return [\n"
        '            Todo("move", {**given, "mode": "advance"}, text, rule,'
        ' open={**open_, "direction": _f}),\n'
        '            Todo("move", {**given, "mode": "move"}, text, rule,'
        ' open={**open_, "direction": DIRECTIONS}),\n'
        "        ]\n"
        "    elif mode is None:\n"
        '        open_["mode"] = ("advance", "move")\n'
        "    else:\n"
        '        given["mode"] = mode\n'
        '    if u.placed and mode == "pursuit" and not u.restricted_to:\n'
        '        open_["direction"] = tuple(d for d in DIRECTIONS if abs(d) <= 45.05)\n'
        '    return Todo("move", given, text, rule, open=open_)\n',
        "Kuryakin: an advance or a pursuit is offered forward, the plain move every way (session"
        " 18, reading K78)",
    ),
    (
        "c9f98c9:K77-K78",
        "vedette/rules/solo_napoleonic/ruleset.py",
        "    out += [m] if m else []\n",
        "    out += m if isinstance(m, list) else ([m] if m else [])\n",
        "Kuryakin: (the same) the advance and the plain move as two lines",
    ),
    (
        "c9f98c9:K77-K78",
        "vedette/rules/solo_napoleonic/actions.py",
        '        msg = f"{lead}; in {to} now"\n',
        '        msg = f"{lead}; in {to} now"\n'
        "        if u.advancing and new_base <= 0:\n"
        '            ch.unit(Halted, u.id, f"in {to}: its advance ends", advancing=False)\n',
        "Kuryakin: guns that unlimber end their advance (session 18, reading K77)",
    ),
    (
        "c9f98c9:K77-K78",
        "vedette/rules/solo_napoleonic/actions.py",
        '        raise RuleViolation(R_STAND, f"{u.id} is not advancing")\n',
        '        raise RuleViolation(R_STAND, f"{u.id} is not advancing")\n'
        "    if base_move(state, u) <= 0:\n"
        "        raise RuleViolation(R_STAND, 'no advance to stop (K77)')\n",
        "Kuryakin: (the same) no halt for guns that cannot move",
    ),
    (
        "c9f98c9:K77-K78:late",
        "vedette/rules/solo_napoleonic/ruleset.py",
        "    elif mode is None:\n"
        '        open_["mode"] = ("advance", "move")\n'
        "    else:\n"
        '        given["mode"] = mode\n'
        '    if u.placed and mode in (None, "pursuit") and not toward:\n'
        '        open_["direction"] = DIRECTIONS\n'
        '    return make("move", given, text, rule, open_)\n',
        "    elif mode is None and u.placed:\n"
        "        _f = tuple(d for d in DIRECTIONS if abs(d) <= 45.05)\n"
        "        return [\n"
        '            make("move", {**given, "mode": "advance"}, text, rule,'
        ' {**open_, "direction": _f}),\n'
        '            make("move", {**given, "mode": "move"}, text, rule,'
        ' {**open_, "direction": DIRECTIONS}),\n'
        "        ]\n"
        "    elif mode is None:\n"
        '        open_["mode"] = ("advance", "move")\n'
        "    else:\n"
        '        given["mode"] = mode\n'
        '    if u.placed and mode == "pursuit" and not toward:\n'
        '        open_["direction"] = tuple(d for d in DIRECTIONS if abs(d) <= 45.05)\n'
        '    return make("move", given, text, rule, open_)\n',
        "Kuryakin: (on a baseline given K71-K74 as a diff) an advance or a pursuit is offered"
        " forward, the plain move every way (session 18, reading K78)",
    ),
    (
        "c9f98c9:K77-K78:late",
        "vedette/rules/solo_napoleonic/ruleset.py",
        "    out += [m] if m is not None else []\n",
        "    out += m if isinstance(m, list) else ([m] if m is not None else [])\n",
        "Kuryakin: (the same) the advance and the plain move as two lines",
    ),
    (
        "c9f98c9:K77-K78:late",
        "vedette/rules/solo_napoleonic/actions.py",
        '        msg = f"{lead}; in {to} now"\n',
        '        msg = f"{lead}; in {to} now"\n'
        "        if u.advancing and new_base <= 0:\n"
        '            ch.unit(Halted, u.id, f"in {to}: its advance ends", advancing=False)\n',
        "Kuryakin: (the same) guns that unlimber end their advance (reading K77)",
    ),
    (
        "c9f98c9:K77-K78:late",
        "vedette/rules/solo_napoleonic/actions.py",
        '        return RuleViolation(R_STAND, f"{u.id} is not advancing")\n',
        '        return RuleViolation(R_STAND, f"{u.id} is not advancing")\n'
        "    if base_move(state, u) <= 0:\n"
        "        return RuleViolation(R_STAND, 'no advance to stop (K77)')\n",
        "Kuryakin: (the same) no halt for guns that cannot move",
    ),
    (
        "07a73a8:K84",
        "vedette/rules/solo_napoleonic/actions.py",
        "    bind_status(u, action, mode)\n"
        '    if u.charge_state in ("declared", "home") and action not in ("charge", "fire",'
        ' "melee"):\n',
        "    bind_status(u, action, mode)\n"
        "    if (u.restricted_to is not None and u.morale_failed and u.status != 'routing'\n"
        "            and not u.must_rally):\n"
        "        raise RuleViolation('Kuryakin, Movement', f'{u.id} failed its test (K84)')\n"
        '    if u.charge_state in ("declared", "home") and action not in ("charge", "fire",'
        ' "melee"):\n',
        "Kuryakin: a queue jumper that failed its test does not act on its card (session 19,"
        " reading K84)",
    ),
    (
        "07a73a8:K84:v2",
        "vedette/rules/solo_napoleonic/actions.py",
        "    bind_status(u, action, mode)\n    no = charging_refusal(u, action)\n",
        "    bind_status(u, action, mode)\n"
        "    if (u.restricted_to is not None and u.morale_failed and u.status != 'routing'\n"
        "            and not u.must_rally):\n"
        "        raise RuleViolation('Kuryakin, Movement', f'{u.id} failed its test (K84)')\n"
        "    no = charging_refusal(u, action)\n",
        "Kuryakin: (on a baseline whose charger check is charging_refusal) a queue jumper that"
        " failed its test does not act on its card (session 19, reading K84)",
    ),
    *K87_FIXES,
    (
        "deec10d:K87:late",
        "vedette/rules/solo_napoleonic/actions.py",
        '    for c in effects_on(state, u, "no_move"):\n'
        '        return RuleViolation(R_CHANCE, f"{u.id} may not move this turn (chance card:'
        ' {c.title})")\n    return None\n',
        '    for c in effects_on(state, u, "no_move"):\n'
        '        return RuleViolation(R_CHANCE, f"{u.id} may not move this turn (chance card:'
        ' {c.title})")\n'
        "    if mode is None and u.status in ('retiring', 'routing'):\n"
        "        return None\n"
        f"    if {K87} and mode not in ('rout', 'retire', 'retreat'):\n"
        "        return RuleViolation(R_FORM, 'still changing formation (K87)')\n"
        "    return None\n",
        "Kuryakin: (on a baseline whose move refusals are move_refusal) a formation change"
        " carried into the next turn is finished first: no move before it (session 20, K87)",
    ),
    *(("deec10d:K87:late", *fix[1:]) for fix in K87_FIXES[1:3]),
    (
        "deec10d:K87:late",
        "vedette/rules/solo_napoleonic/flow.py",
        "    out.extend(routing_runs(state))\n    due = state.due_ids()\n",
        "    out.extend(routing_runs(state))\n" + K87_OWED + "    due = state.due_ids()\n",
        "Kuryakin: (the same) the change owed on the unit's card",
    ),
    (
        "deec10d:K87:late",
        "vedette/rules/solo_napoleonic/flow.py",
        "        or _routing_up(state)\n    )\n",
        "        or _routing_up(state)\n"
        "        or (state.phase == 'activation' and state.active is not None and any(\n"
        f"            (lambda u: {K87})(state.unit(_i)) for _i in state.active_units()))\n"
        "    )\n",
        "Kuryakin: (the same) owed, so something is owed",
    ),
    # (c1ed18f: its move's collisions inline, its rules' moves' in _k16_kw)
    (
        K88_K90,
        "vedette/rules/solo_napoleonic/actions.py",
        '    if _hit:\n        kw["collided"] = tuple(_hit)\n    ch.unit(Moved',
        "    from vedette.geometry import tabletop as TT\n"
        "    from vedette.rules.solo_napoleonic.model import updated\n"
        "    _met = [_x for _x in _hit if state.unit(_x).side != u.side]\n"
        "    if _met:\n"
        + K89_STOP
        + "        _hit = [_x for _x in _k16_kw(state, u, dict(kw)).get('collided', ())"
        " if _x not in _met]\n"
        '    if _hit:\n        kw["collided"] = tuple(_hit)\n    ch.unit(Moved',
        "Kuryakin: a move stops at contact with an enemy (session 20, reading K89)",
    ),
    (
        K88_K90,
        "vedette/rules/solo_napoleonic/morale.py",
        "    kw: dict[str, object] = dict(contact(u, t))\n",
        K88_CLOSE.replace("{coll}", "        kw = _k16_kw(state, u, kw, t.id)\n").replace(
            "    kw: dict[str, object] = dict(contact(u, t))\n",
            "    kw: dict[str, object] = dict(contact(u, t))\n"
            "    from vedette.rules.solo_napoleonic.actions import _k16_kw\n",
        ),
        "Kuryakin: a charger moves up no further than its move (session 20, reading K88)",
    ),
    (
        K88_K90,
        "vedette/rules/solo_napoleonic/actions.py",
        '            R_DIS, f"{u.id} has already done something this turn: reforming takes the'
        ' whole turn"\n        )\n    return u\n',
        '            R_DIS, f"{u.id} has already done something this turn: reforming takes the'
        ' whole turn"\n        )\n'
        f"    if {K90}:\n"
        "        raise RuleViolation(R_DIS, 'fought in a melee this turn (K90)')\n"
        "    return u\n",
        "Kuryakin: a unit that fought a round of melee this turn does not reform (session 20,"
        " reading K90)",
    ),
    # (53af236, after its diffs: collisions and rules_move_collisions of its own)
    (
        f"{K88_K90}:late",
        "vedette/rules/solo_napoleonic/actions.py",
        '    hit = collisions(state, u, updated(u, kw) if "x" in kw else u)\n',
        '    hit = collisions(state, u, updated(u, kw) if "x" in kw else u)\n'
        "    from vedette.geometry import tabletop as TT\n"
        "    _met = [_x for _x in hit if state.unit(_x).side != u.side]\n"
        "    if _met:\n"
        + K89_STOP
        + "        hit = tuple(_x for _x in collisions(state, u, updated(u, kw))"
        " if _x not in _met)\n",
        "Kuryakin: (on a baseline with collisions) a move stops at contact with an enemy"
        " (session 20, reading K89)",
    ),
    (
        f"{K88_K90}:late",
        "vedette/rules/solo_napoleonic/morale.py",
        "    kw: dict[str, object] = dict(contact(u, t))\n",
        K88_CLOSE.replace("{coll}", "        rules_move_collisions(state, u, kw, t.id)\n"),
        "Kuryakin: (the same) a charger moves up no further than its move (reading K88)",
    ),
    (
        f"{K88_K90}:late",
        "vedette/rules/solo_napoleonic/actions.py",
        "    no = reform_refusal(u)\n",
        "    no = reform_refusal(u)\n"
        f"    if no is None and {K90}:\n"
        "        no = RuleViolation(R_DIS, 'fought in a melee this turn (K90)')\n",
        "Kuryakin: (on a baseline with reform_refusal) no reform after a melee (reading K90)",
    ),
    (
        f"{K88_K90}:late",
        "vedette/rules/solo_napoleonic/morale.py",
        "        return reform_refusal(u) is not None\n",
        f"        return reform_refusal(u) is not None or {K90}\n",
        "Kuryakin: (the same) its quick check",
    ),
    # (c1ed18f: its rules' moves through _k16_kw)
    (
        K89R,
        "vedette/rules/solo_napoleonic/actions.py",
        "\n\ndef _k16_kw(state, u, kw, exclude=None):\n",
        "\n\n" + K89R_KW + K89R_BARRED + "def _k16_kw(state, u, kw, exclude=None):\n",
        "Kuryakin: the moves the rules make stop at contact with an enemy (session 20, reading"
        " K89)",
    ),
    (
        K89R,
        "vedette/rules/solo_napoleonic/morale.py",
        "    from vedette.rules.solo_napoleonic.actions import _k16_kw\n"
        '    ch.unit(ClosedUp, u.id, f"moves up to {t.id}", **_k16_kw(state, u, kw, t.id))\n',
        "    from vedette.rules.solo_napoleonic.actions import _barred89, _k89_kw\n"
        "    kw, _w89 = _k89_kw(state, u, kw, t.id)\n"
        "    if _w89 is not None:\n"
        "        return _barred89(ch, u, kw)\n"
        '    ch.unit(ClosedUp, u.id, f"moves up to {t.id}", **kw)\n',
        "Kuryakin: (the same) a charger moving up stopped by an enemy in its way ends its charge",
    ),
    (
        K89R,
        "vedette/rules/solo_napoleonic/morale.py",
        "        kw = _k16_kw(state, u, kw, t.id)\n",
        f"        kw = {ACT}._k89_kw(state, u, kw, t.id)[0]\n",
        "Kuryakin: (the same) a charger moving up out of reach",
    ),
    (
        K89R,
        "vedette/rules/solo_napoleonic/morale.py",
        "    if not home_needed(u, t) and not req.test:\n        ch.unit(\n",
        "    if not home_needed(u, t) and not req.test:\n"
        f"        _kw89, _w89 = {ACT}._k89_kw(state, u, contact(u, t), t.id)\n"
        "        if _w89 is not None:\n"
        f"            return {ACT}._barred89(ch, u, _kw89)\n"
        "        ch.unit(\n",
        "Kuryakin: (the same) a charge home's move into contact (no test)",
    ),
    (
        K89R,
        "vedette/rules/solo_napoleonic/morale.py",
        '    if r.row == "pass":\n        ch.unit(ChargedHome, u.id, "charges home",',
        '    if r.row == "pass":\n'
        f"        _kw89, _w89 = {ACT}._k89_kw(state, u, contact(u, t), t.id)\n"
        "        if _w89 is not None:\n"
        f"            return {ACT}._barred89(ch, u, _kw89)\n"
        '        ch.unit(ChargedHome, u.id, "charges home",',
        "Kuryakin: (the same) a charge home's move into contact",
    ),
    (
        K89R,
        "vedette/rules/solo_napoleonic/morale.py",
        "fromlist=['x'])._k16_kw(state, u, kw))\n",
        "fromlist=['x'])._k89_kw(state, u, kw)[0])\n",
        "Kuryakin: (the same) a timid CO's retirement",
    ),
    (
        K89R,
        "vedette/rules/solo_napoleonic/melee.py",
        '        kw["x"], kw["y"] = pos\n',
        '        kw["x"], kw["y"] = pos\n'
        f"        kw = {ACT}._k89_kw(state, u, kw)[0]\n"
        '        pos = (kw["x"], kw["y"])\n',
        "Kuryakin: (the same) skirmishers evading",
    ),
    (
        K89R,
        "vedette/rules/solo_napoleonic/melee.py",
        "        **(kw if caught == u.figures else __import__('vedette.rules.solo_napoleonic"
        ".actions', fromlist=['x'])._k16_kw(state, u, kw))\n",
        "        **({_k: _v for _k, _v in kw.items() if _k != 'collided'} if caught == u.figures"
        " else kw)\n",
        "Kuryakin: (the same) skirmishers ridden down run into nothing",
    ),
    # (53af236, after its diffs: rules_move_collisions of its own)
    (
        f"{K89R}:late",
        "vedette/rules/solo_napoleonic/actions.py",
        "    hit = collisions(state, u, updated(u, kw), exclude)\n    if not hit:\n",
        "    hit = collisions(state, u, updated(u, kw), exclude)\n"
        "    from vedette.geometry import tabletop as TT\n"
        "    _met = [_x for _x in hit if state.unit(_x).side != u.side]\n"
        "    if _met:\n"
        + K89_STOP
        + "        hit = tuple(_x for _x in collisions(state, u, updated(u, kw), exclude)"
        " if _x not in _met)\n"
        "    if not hit:\n",
        "Kuryakin: (on a baseline with rules_move_collisions) the moves the rules make stop at"
        " contact with an enemy (session 20, reading K89)",
    ),
    (
        f"{K89R}:late",
        "vedette/rules/solo_napoleonic/actions.py",
        "\n#: how clearly (mm) two bases must lie apart",
        "\n" + K89R_BARRED + "#: how clearly (mm) two bases must lie apart",
        "Kuryakin: (the same) the charge ended",
    ),
    *(
        (
            f"{K89R}:late",
            "vedette/rules/solo_napoleonic/morale.py",
            f"{pad}hit = rules_move_collisions(state, u, {kw}, t.id)\n{after}",
            f"{pad}_p89 = ({kw}.get('x'), {kw}.get('y'))\n"
            f"{pad}hit = rules_move_collisions(state, u, {kw}, t.id)\n"
            f"{pad}if ({kw}.get('x'), {kw}.get('y')) != _p89:\n"
            f"{pad}    return {ACT}._barred89(ch, u, {kw})\n{after}",
            f"Kuryakin: (the same) {what}",
        )
        for pad, kw, after, what in (
            ("        ", "kw0", "", "a charge home's move into contact (no test)"),
            ("        ", "kw1", "", "a charge home's move into contact"),
            (
                "    ",
                "kw",
                '    ch.unit(ClosedUp, u.id, f"moves up to {t.id}", **kw)\n',
                "a charger moving up stopped by an enemy in its way ends its charge",
            ),
        )
    ),
    (
        K88H,
        "vedette/rules/solo_napoleonic/morale.py",
        K88_HOME_AT,
        K88_HOME_AT
        + K88_CLOSE.replace("{coll}", f"        kw = {ACT}._k89_kw(state, u, kw, t.id)[0]\n"),
        "Kuryakin: a charge home's move into contact no further than the charger's move"
        " (session 20, reading K88 carried on)",
    ),
    (
        f"{K88H}:late",
        "vedette/rules/solo_napoleonic/morale.py",
        K88_HOME_AT,
        K88_HOME_AT
        + K88_CLOSE.replace("{coll}", "        rules_move_collisions(state, u, kw, t.id)\n"),
        "Kuryakin: (on a baseline with rules_move_collisions) the same",
    ),
    (
        f"{K89R}:late",
        "vedette/rules/solo_napoleonic/melee.py",
        '        kw["x"], kw["y"] = pos\n',
        '        kw["x"], kw["y"] = pos\n'
        "        _hit89 = rules_move_collisions(state, u, kw)\n"
        '        pos = (kw["x"], kw["y"])\n',
        "Kuryakin: (the same) skirmishers evading",
    ),
    (
        f"{K89R}:late",
        "vedette/rules/solo_napoleonic/melee.py",
        '    hit = "" if caught == u.figures else rules_move_collisions(state, u, kw)\n',
        '    hit = "" if caught == u.figures or "x" not in kw else _hit89\n'
        "    if caught == u.figures:\n"
        '        kw.pop("collided", None)\n',
        "Kuryakin: (the same) skirmishers ridden down run into nothing",
    ),
    (
        "88067d2:K96",
        "vedette/rules/solo_napoleonic/morale.py",
        "    flow.after_morale(ch, u.id, False)\n    called: list[str] = []\n",
        "    flow.after_morale(ch, u.id, False)\n    called: list[str] = []\n"
        "    if new_status != u.status and new_status in ('routing', 'retiring') and"
        " u.formation_target is not None:\n"
        "        ch.unit(__import__('vedette.rules.solo_napoleonic.events', fromlist=['x'])"
        ".FormationChanged, u.id, 'K96', formation_target=None, formation_quarters=0)\n",
        "Kuryakin: a unit a morale result leaves retiring or routing abandons its formation"
        " change (session 21, readings K94, K96)",
    ),
    (
        "eb92868:K97",
        "vedette/rules/solo_napoleonic/morale.py",
        "fromlist=['x'])._k89_kw(state, u, kw)[0])\n    elif",
        "fromlist=['x'])._k89_kw(state, u, kw)[0])\n"
        "        _n97 = ch.state.unit(u.id)\n"
        "        if not u.skirmishing and (u.x is None or (_n97.x, _n97.y) != (u.x, u.y)):\n"
        "            ch.unit(__import__('vedette.rules.solo_napoleonic.events', fromlist=['x'])"
        ".Disordered, u.id, 'K97', disorder=_n97.disorder + 1)\n"
        "    elif",
        "Kuryakin: a Timid CO's 100 mm retirement and the chart's half move back are moves of"
        " Retreat, 1D (session 21, reading K97)",
    ),
    (
        "eb92868:K97",
        "vedette/rules/solo_napoleonic/actions.py",
        '(mode == "retire" and u.status == "retiring"):\n',
        '(mode == "retire" and (u.status == "retiring" or u.bound == "retire_half")):\n',
        "Kuryakin: (the same) the chart's half move back",
    ),
    (
        "eb92868:K97:b",
        "vedette/rules/solo_napoleonic/actions.py",
        '(mode == "retire" and u.status == "retiring"):\n',
        '(mode == "retire" and (u.status == "retiring" or u.bound == "retire_half")):\n',
        "Kuryakin: (on a baseline with rules_move_collisions) the chart's half move back is a"
        " move of Retreat, 1D (session 21, reading K97)",
    ),
    (
        "eb92868:K97:b",
        "vedette/rules/solo_napoleonic/morale.py",
        '        ch.unit(ChargeHomeFailed, u.id, f"fails to charge home: {res}", **kw)\n    elif',
        '        ch.unit(ChargeHomeFailed, u.id, f"fails to charge home: {res}", **kw)\n'
        "        _n97 = ch.state.unit(u.id)\n"
        "        if not u.skirmishing and (u.x is None or (_n97.x, _n97.y) != (u.x, u.y)):\n"
        "            ch.unit(__import__('vedette.rules.solo_napoleonic.events', fromlist=['x'])"
        ".Disordered, u.id, 'K97', disorder=_n97.disorder + 1)\n"
        "    elif",
        "Kuryakin: (the same) a Timid CO's 100 mm retirement",
    ),
    (
        "ed9510e:K56",
        "vedette/sim/policies.py",
        '        if state.phase != "control":\n            return None\n'
        "        broken = [s for s in state.sides if self.broken(state, s)]\n",
        "        broken = [s for s in state.sides if self.broken(state, s)]\n"
        '        if not broken and state.phase != "control":\n            return None\n',
        "Kuryakin: the study's army break is checked after every action, the moment show and"
        " todo say BROKEN, not only at a turn's start (session 22, reading K56)",
    ),
    (
        "ed9510e:K56:b",
        "vedette/rules/solo_napoleonic/simplay.py",
        '    if state.phase != "control":\n        return None\n'
        "    fraction, max_turns = state.config.break_fraction, state.config.max_turns\n"
        "    down = [s for s in state.sides if broken(state, s, fraction)]\n",
        "    fraction, max_turns = state.config.break_fraction, state.config.max_turns\n"
        "    down = [s for s in state.sides if broken(state, s, fraction)]\n"
        '    if not down and state.phase != "control":\n        return None\n',
        "Kuryakin: (on a baseline with simplay.py) the study's army break is checked after every"
        " action (session 22, reading K56)",
    ),
    (
        "003a460:K105",
        "vedette/rules/solo_napoleonic/actions.py",
        "    _mover = u\n"
        "    if owed is not None and mode == owed[0] and u.bound == 'retire_half':\n",
        "    _given105 = direction\n"
        "    _mover = u\n"
        "    if owed is not None and mode == owed[0] and u.bound == 'retire_half':\n",
        "Kuryakin: a plain move or an advance away from the enemy is a move of Retreat, 1D"
        " (session 22, reading K105)",
    ),
    (
        "003a460:K105",
        "vedette/rules/solo_napoleonic/actions.py",
        *K105_CHIT,
        "Kuryakin: (the same) its 1D",
    ),
    (
        "003a460:K105",
        "vedette/rules/solo_napoleonic/actions.py",
        *_k105_away("_k41_away(state, u) if geom.body(u) is not None else None"),
        "Kuryakin: (the same) a move's direction against straight away from the enemy",
    ),
    (
        "003a460:K105:b",
        "vedette/rules/solo_napoleonic/actions.py",
        "    mover = u\n"
        '    if owed is not None and mode == owed[0] and u.bound == "retire_half":\n',
        "    _given105 = direction\n"
        "    mover = u\n"
        '    if owed is not None and mode == owed[0] and u.bound == "retire_half":\n',
        "Kuryakin: (on a baseline with flee_direction) a plain move or an advance away from the"
        " enemy is a move of Retreat, 1D (session 22, reading K105)",
    ),
    (
        "003a460:K105:b",
        "vedette/rules/solo_napoleonic/actions.py",
        *K105_CHIT,
        "Kuryakin: (the same) its 1D",
    ),
    (
        "003a460:K105:b",
        "vedette/rules/solo_napoleonic/actions.py",
        *_k105_away("flee_direction(state, u)"),
        "Kuryakin: (the same) a move's direction against straight away from the enemy",
    ),
    (
        "d87d0f5:K82",
        "vedette/rules/solo_napoleonic/morale.py",
        "    if u.fired:\n"
        "        raise RuleViolation("
        'R_CHARGE, f"{u.id} has fired this turn: chargers cannot fire")\n',
        "    if u.fired:\n"
        "        raise RuleViolation("
        'R_CHARGE, f"{u.id} has fired this turn: chargers cannot fire")\n'
        '    if u.morale_failed and u.bound != "halt":\n'
        "        raise RuleViolation("
        "R_CHARGE, 'failed a morale test this turn: no charge (K82)')\n",
        "Kuryakin: a unit that failed a morale test this turn charges no more that turn (reading"
        " K82)",
    ),
    (
        "c98e1a4:K108",
        "vedette/rules/solo_napoleonic/actions.py",
        *K108_DEF,
        "Kuryakin: a halted unit's plain move away from the enemy, a retreat (K105), takes no test"
        " to move off, as its retirement takes none (session 22, reading K108)",
    ),
    (
        "c98e1a4:K108",
        "vedette/rules/solo_napoleonic/actions.py",
        '    if _mode(req) in ("advance", "pursuit", "move") and not u.advancing'
        " and u.standstill_tests >= 1:\n",
        '    if _mode(req) in ("advance", "pursuit", "move") and not u.advancing'
        " and u.standstill_tests >= 1 and not _k108(state, u, req):\n",
        "Kuryakin: (the same) not refused once the card's test is made (K72)",
    ),
    (
        "c98e1a4:K108",
        "vedette/rules/solo_napoleonic/actions.py",
        "    _k74 = (owed is None or mode != owed[0]) and not u.advancing"
        ' and mode in ("advance", "pursuit", "move")\n',
        "    _k74 = (owed is None or mode != owed[0]) and not u.advancing"
        ' and mode in ("advance", "pursuit", "move") and not _k108(state, u, req)\n',
        "Kuryakin: (the same) no D6 rolled first",
    ),
    (
        "c98e1a4:K108",
        "vedette/rules/solo_napoleonic/actions.py",
        '    if _mode(req) in ("advance", "pursuit", "move") and not u.advancing'
        " and owed_move(u) is None:\n        out.append(standstill_check(",
        '    if _mode(req) in ("advance", "pursuit", "move") and not u.advancing'
        " and owed_move(u) is None and not _k108(state, u, req):\n"
        "        out.append(standstill_check(",
        "Kuryakin: (the same) its odds",
    ),
    (
        "d87d0f5:K82:b",
        "vedette/rules/solo_napoleonic/charging.py",
        "    if u.start_failed:\n"
        '        return RuleViolation(R_CHARGE, f"{u.id} failed to move from a standstill")\n'
        "    return None\n",
        "    if u.start_failed:\n"
        '        return RuleViolation(R_CHARGE, f"{u.id} failed to move from a standstill")\n'
        '    if u.morale_failed and u.bound != "halt":\n'
        "        return RuleViolation("
        "R_CHARGE, 'failed a morale test this turn: no charge (K82)')\n"
        "    return None\n",
        "Kuryakin: (on a baseline with charging.charge_refusal) a unit that failed a morale test"
        " this turn charges no more that turn (reading K82)",
    ),
    (
        "c98e1a4:K108:late",
        "vedette/rules/solo_napoleonic/actions.py",
        *K108_DEF,
        "Kuryakin: (on a baseline given K74 as its diff) a halted unit's plain move away from the"
        " enemy, a retreat (K105), takes no test to move off (session 22, reading K108)",
    ),
    (
        "c98e1a4:K108:late",
        "vedette/rules/solo_napoleonic/actions.py",
        "    if no is None and standstill_due(state, u, mode):\n",
        "    if no is None and standstill_due(state, u, mode) and not _k108(state, u, req):\n",
        "Kuryakin: (the same) not refused once the card's test is made (K72)",
    ),
    (
        "c98e1a4:K108:late",
        "vedette/rules/solo_napoleonic/actions.py",
        "    tested = (owed is None or mode != owed[0]) and standstill_due(state, u, mode)\n",
        "    tested = (owed is None or mode != owed[0]) and standstill_due(state, u, mode)"
        " and not _k108(state, u, req)\n",
        "Kuryakin: (the same) no D6 rolled first",
    ),
    (
        "c98e1a4:K108:late",
        "vedette/rules/solo_napoleonic/actions.py",
        "    if (owed is None or mode != owed[0]) and standstill_due(state, u, mode):\n"
        "        out.append(standstill_check(",
        "    if (owed is None or mode != owed[0]) and standstill_due(state, u, mode)"
        " and not _k108(state, u, req):\n"
        "        out.append(standstill_check(",
        "Kuryakin: (the same) its odds",
    ),
    (
        "c98e1a4:K108:late",
        "vedette/rules/solo_napoleonic/ruleset.py",
        "            Procedure(rq.Move, *D(actions.move, actions.move_odds,"
        ' after_dice=("direction",))),\n',
        "            Procedure(rq.Move, *D(actions.move, actions.move_odds)),\n",
        "Kuryakin: (the same) a move's verdict judged with its direction (a halted unit's step"
        " back is accepted where another way is refused; the baseline judges more moves)",
    ),
)
#: ``BASE_FIXES`` keys written against a baseline's code as its ``BASE_FIX_DIFFS`` leave it (a
#: later fix's version for a baseline given an earlier fix as its commits' diff, the text it
#: patches being the diff's): patched after the diffs, whole or not at all, unless an earlier
#: version of the fix was given
BASE_FIX_AFTER_DIFFS = {
    "d1732a3:K75:late",
    "c9f98c9:K77-K78:late",
    "deec10d:K87:late",
    "a6b3bc3:K88-K90:late",
    "ed24342:K89r:late",
    "59281d7:K88h:late",
    "c98e1a4:K108:late",
}
#: per ruleset: max actions, house rules (the turn limit lifted: see the docstring)
CASES: dict[str, tuple[int, dict[str, object]]] = {
    "two_by_two": (2000, {}),
    "solo_napoleonic": (2000, {}),
    "solitaire_asl": (300, {"battle_end": {"max_turns": 10**6}}),
    "napoleon_at_bay": (300, {"battle_end": {"max_turns": 10**6}}),
}

PLAYER = r"""
import hashlib, json, sys, time
from vedette import rules
from vedette.sim.play import Setup, play_game
ruleset, games, seed, max_actions = sys.argv[1], *map(int, sys.argv[2:5])
house = json.loads(sys.argv[5])
rs = rules.get(ruleset)
setup = Setup(rs.name, rs.scenario("sample"), house_rules=house, max_actions=max_actions)
rs.initial_state(setup.scenario, setup.engine_options())
import shapely.geometry  # imported by the first game that measures: an import, not a game
t, cpu = time.perf_counter(), time.process_time()
rows = []
for i in range(games):
    p = play_game(setup, seed, i, record=True)
    r = p.result
    h = hashlib.sha256(json.dumps(p.actions, sort_keys=True).encode()).hexdigest()
    rows.append([r.index, r.winner, r.end, r.turns, r.actions, h])
wall, cpu = time.perf_counter() - t, time.process_time() - cpu
print(json.dumps({"seconds": wall, "cpu": cpu, "rows": rows}))
"""

#: each game played again through the engine: every action accepted, the same end
REPLAY = r"""
import json, sys
from vedette import rules
from vedette.engine import Game, Store
from vedette.sim.play import Setup, play_game
ruleset, games, seed, max_actions = sys.argv[1], *map(int, sys.argv[2:5])
house = json.loads(sys.argv[5])
rs = rules.get(ruleset)
setup = Setup(rs.name, rs.scenario("sample"), house_rules=house, max_actions=max_actions)
bad = []
for i in range(games):
    p = play_game(setup, seed, i, record=True)
    g = Game.create(Store(":memory:"), f"r{i}", rs.name, dict(setup.scenario), p.dice_seed,
                    {}, dict(house) or None)
    for proc, req in p.actions:
        g.perform(proc, req)
    r, end = p.result, rs.outcome(g.state)
    got = (end.winner, end.how, end.turns, dict(end.losses)) if end else None
    want = (r.winner, r.how, r.turns, dict(r.losses)) if r.end in ("victory", "draw") else None
    if len(g.records) - 1 != r.actions or got != want:
        bad.append(i)
print(json.dumps(bad))
"""


def load() -> str:
    try:
        return subprocess.run(["uptime"], capture_output=True, text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "uptime: not available"


def _run(script: str, src: Path, ruleset: str, games: int) -> Any:
    """``script`` run on ``src`` for ``ruleset``'s first ``games`` games: its JSON answer."""
    max_actions, house = CASES[ruleset]
    env = {**os.environ, "PYTHONPATH": str(src)}
    args = [sys.executable, "-c", script, ruleset, str(games), str(SEED), str(max_actions)]
    out = subprocess.run(
        [*args, json.dumps(house)], env=env, capture_output=True, text=True, timeout=3600
    )
    if out.returncode != 0:
        raise SystemExit(f"{ruleset} ({src}): {out.stderr.strip().splitlines()[-1:]}")
    return json.loads(out.stdout)


def play(src: Path, ruleset: str, games: int) -> tuple[float, float, list[object]]:
    data = _run(PLAYER, src, ruleset, games)
    return float(data["seconds"]), float(data["cpu"]), list(data["rows"])


def replay(src: Path, ruleset: str, games: int) -> list[int]:
    """The games of ``src`` that the engine does not replay to the same end (none expected)."""
    return list(_run(REPLAY, src, ruleset, games))


def sanity(base: list[Any], new: list[Any], grew: str = "") -> tuple[bool, str]:
    """The two sides' games alike in law: the mean actions and the mean turns a game each within
    3 standard errors of the difference (Welch; turns tell games of a fixed length apart:
    Napoleon At Bay runs every game to its action limit), and each winner's rate with
    overlapping 95% Wilson intervals. ``grew``: why the offers grew since the baseline (then the
    mean actions are printed, not held: :data:`OFFERS_GREW`)."""

    def mean_var(xs: list[float]) -> tuple[float, float]:
        m = sum(xs) / len(xs)
        return m, sum((x - m) ** 2 for x in xs) / max(1, len(xs) - 1)

    ok, words = True, []
    for col, what in ((4, "actions"), (3, "turns")):
        if not any(r[col] for r in base):
            words.append(f"{what}: not reported by the baseline")  # ASL's turn, before issue 28
            continue
        (ma, va), (mb, vb) = (
            mean_var([float(r[col]) for r in base]),
            mean_var([float(r[col]) for r in new]),
        )
        se = math.sqrt(va / len(base) + vb / len(new)) or 1e-9
        held = not (grew and what == "actions")
        ok = ok and (abs(ma - mb) <= 3 * se or not held)
        words.append(
            f"{what} a game {ma:.1f} vs {mb:.1f} (|diff| {abs(ma - mb) / se:.1f} s.e."
            + (")" if held else f"; not held: the offers grew, {grew})")
        )
    for w in sorted({str(r[1]) for r in base + new}):
        lo_a, hi_a = wilson(sum(r[1] == w for r in base), len(base))
        lo_b, hi_b = wilson(sum(r[1] == w for r in new), len(new))
        ok = ok and lo_a <= hi_b and lo_b <= hi_a
        words.append(f"{w} [{lo_a:.2f}, {hi_a:.2f}] vs [{lo_b:.2f}, {hi_b:.2f}]")
    return ok, "; ".join(words)


def _game(row: object) -> list[object]:
    """index, winner, end, actions and the hash of the actions taken."""
    index, winner, end, _turns, actions, digest = row  # type: ignore[misc]
    return [index, winner, end, actions, digest]


#: a fix whose patches call what another fix's patches define (not found in its own text)
BASE_FIX_NEEDS = {
    "6ef9817:K68": "687a550:moves",
    "d5da6d1:reform": "1a1ed48:K71-K73",
    # (written on K71-K73's text patches; on a later baseline K71-K73's diff carries K74 too)
    "b8eb084:K74-move": "1a1ed48:K71-K73",
    "9040349:K74-charge": "1a1ed48:K71-K73",
    K88H: K89R,
    # (its direction away from the enemy is K41's, with K70's melee opponent)
    "003a460:K105": "aa4c67e:K70",
    # (its direction against straight away from the enemy is K105's)
    "c98e1a4:K108": "003a460:K105",
}
#: a later version of a fix given as the diff of the commits that made it (``git diff A B`` of
#: these files under ``src``, applied with ``patch``, fuzz 2), with the key's entries in
#: ``BASE_FIXES`` (the files the diff's context does not fit), for baselines whose code the
#: first version's text does not fit; and the other fixes that diff makes besides
BASE_FIX_DIFFS: dict[str, tuple[str, str, tuple[str, ...]]] = {
    # (through K74's commits: on a baseline of session 16-17's code their text patches, written
    # on top of K71-K73's, cannot go in before this diff does)
    "1a1ed48:K71-K73:late": (
        "d6fb95f~1",
        "9040349",
        tuple(
            f"vedette/rules/solo_napoleonic/{f}"
            for f in ("actions.py", "events.py", "model.py", "morale.py", "ruleset.py")
        ),
    ),
}
BASE_FIX_ALSO: dict[str, tuple[str, ...]] = {
    "1a1ed48:K71-K73:late": ("d5da6d1:reform", "b8eb084:K74-move", "9040349:K74-charge")
}
#: per ruleset, the later rule fixes the baseline lacks and could not be given (its code of
#: the day is not the text the patches were written against): its games may differ
LACKING: dict[str, list[str]] = {}
#: the ruleset a fix outside ``vedette/rules/`` is for: c1ed18f's Kuryakin study ended in its
#: simulator's adapter (``KuryakinAdapter.outcome``), not yet in the ruleset (fix ed9510e:K56)
RULESET_OF = {"vedette/sim/policies.py": "solo_napoleonic"}


def baseline(ref: str, into: Path) -> Path | None:
    """The baseline's ``src``, extracted from git (None without git or the commit)."""
    if ref == "none":
        return None
    try:
        archive = subprocess.run(
            ["git", "-C", str(ROOT), "archive", ref, "src"], capture_output=True, check=True
        ).stdout
        subprocess.run(["tar", "-x", "-C", str(into)], input=archive, check=True)
    except (OSError, subprocess.CalledProcessError):
        return None
    src = into / "src"
    texts = {rel: _read(src / rel) for _, rel, _, _, _ in BASE_FIXES}
    made = {c for c in {key.split(":")[0] for key, *_ in BASE_FIXES} if has_commit(ref, c)}
    # the fixes the baseline made itself: its own code is left as is
    left_out = {key for key, *_ in BASE_FIXES if key.split(":")[0] in made}
    left_out |= {key for key in BASE_FIX_DIFFS if key.split(":")[0] in made}
    # a fix (one version of it) is carried whole or not at all (a part without the rest breaks
    # the code); a version whose text is not found, or that needs a fix left out, or whose
    # fix an earlier version gives, is left out with the versions patched over it; a version's
    # diff (BASE_FIX_DIFFS) must apply too: until none is left out
    while True:
        patched, failed, by_fix = dict(texts), set(), {}
        for key, rel, was, fixed, _ in BASE_FIXES:
            if key in left_out or key in failed or key in BASE_FIX_AFTER_DIFFS:
                continue
            other = by_fix.setdefault(_fix(key), key)
            if other != key and other not in failed:
                failed.add(key)  # (an earlier version gives the fix)
            elif was in patched[rel] and BASE_FIX_NEEDS.get(key) not in left_out | failed:
                patched[rel] = patched[rel].replace(was, fixed, 1)
            else:
                failed.add(key)
        for rel, text in patched.items():
            if text or (src / rel).exists():
                (src / rel).write_text(text, encoding="utf-8")
        for key in BASE_FIX_DIFFS:  # (once the text fits: a half-patched file would not)
            other = by_fix.get(_fix(key), key)
            if failed or key in left_out:
                continue
            if (other != key and other not in failed) or not _diff(key, into, dry=True):
                failed.add(key)
        if not failed:
            break
        left_out |= failed
    for key in BASE_FIX_DIFFS:
        if key not in left_out:
            _diff(key, into, dry=False)
            left_out -= set(BASE_FIX_ALSO.get(key, ()))
    left_out |= _after_diffs(src, left_out, set(by_fix))
    given = {_fix(key) for key, *_ in BASE_FIXES if key not in left_out}
    given |= {_fix(key) for key in BASE_FIX_DIFFS if key not in left_out}
    lacking: set[str] = set()
    for key, rel, _, _, why in BASE_FIXES:
        if key not in left_out:
            print(f"baseline {ref} given a later rule fix: {why}")
        elif key.split(":")[0] not in made and _fix(key) not in given | lacking:
            lacking.add(_fix(key))
            LACKING.setdefault(RULESET_OF.get(rel, rel.split("/")[2]), []).append(
                f"{why} ({key.split(':')[0]})"
            )
            print(f"baseline {ref} lacks a later rule fix its code does not take: {why}")
    return src


def _after_diffs(src: Path, left_out: set[str], given: set[str]) -> set[str]:
    """The ``BASE_FIX_AFTER_DIFFS`` versions patched into ``src`` (its diffs applied): each
    whole, where every text is found and no earlier version (``given``: the fixes the text
    patches gave) gives the fix; the keys left out."""
    out = set()
    for key in dict.fromkeys(k for k, *_ in BASE_FIXES if k in BASE_FIX_AFTER_DIFFS):
        if key in left_out or _fix(key) in given:
            out.add(key)
            continue
        texts: dict[str, str] = {}
        for k, rel, was, fixed, _ in BASE_FIXES:
            if k == key:
                text = texts.get(rel, _read(src / rel))
                if was not in text:
                    out.add(key)
                    break
                texts[rel] = text.replace(was, fixed, 1)
        if key not in out:
            for rel, text in texts.items():
                (src / rel).write_text(text, encoding="utf-8")
    return out


def _diff(key: str, into: Path, dry: bool) -> bool:
    """A late version's diff applied to the extracted tree (``dry``: only whether it does)."""
    old, new, files = BASE_FIX_DIFFS[key]
    paths = [f"src/{f}" for f in files]
    diff = subprocess.run(
        ["git", "-C", str(ROOT), "diff", old, new, "--", *paths], capture_output=True, check=True
    ).stdout
    cmd = ["patch", "-p1", "--fuzz=2", "--no-backup-if-mismatch", "-r", "-", "-s", "-f"]
    try:
        out = subprocess.run(
            [*cmd, *(["--dry-run"] if dry else [])], input=diff, cwd=into, capture_output=True
        )
    except OSError:
        return False
    return out.returncode == 0


def _fix(key: str) -> str:
    """The fix a ``BASE_FIXES`` key names (``commit:fix``, without the version after it)."""
    return ":".join(key.split(":")[:2])


def _read(f: Path) -> str:
    return f.read_text(encoding="utf-8") if f.exists() else ""


def has_commit(ref: str, commit: str) -> bool:
    """Whether ``commit`` is in ``ref``'s history (``ref`` is or descends from it)."""
    git = ["git", "-C", str(ROOT), "merge-base", "--is-ancestor", commit, ref]
    return subprocess.run(git, capture_output=True).returncode == 0


def main() -> None:
    argv = sys.argv[1:]
    ref = BASE
    only = ["two_by_two", "solo_napoleonic"] if QUICK else list(CASES)
    games = 2 if QUICK else 8
    while argv:
        a = argv.pop(0)
        if a == "--base":
            ref = argv.pop(0)
        elif a == "--only":
            only = argv.pop(0).split(",")
        else:
            games = int(a)
    new_src = ROOT / "src"
    with tempfile.TemporaryDirectory() as tmp:
        base_src = baseline(ref, Path(tmp))
        print(f"load before: {load()}")
        for ruleset in only:
            n = max(games, 4 if QUICK else 24) if ruleset in DRAWN else games
            best: dict[str, float] = {}
            wall: dict[str, float] = {}
            rows: dict[str, list[object]] = {}
            sides = {"new": new_src, **({"base": base_src} if base_src else {})}
            for _ in range(2):
                for side in ("base", "new"):
                    if side not in sides:
                        continue
                    s, cpu, r = play(sides[side], ruleset, n)
                    best[side] = min(best.get(side, cpu), cpu)
                    wall[side] = min(wall.get(side, s), s)
                    rows[side] = r
            acts = {k: sum(int(r[4]) for r in v) for k, v in rows.items()}  # type: ignore[index, call-overload]
            new_rate = n / best["new"]
            line = (
                f"{ruleset:16} new {new_rate:7.2f} games/s a CPU"
                f" ({n / wall['new']:.2f} by the clock)"
            )
            if ruleset in DRAWN:
                line += f", {acts['new'] / best['new']:.0f} actions/s a CPU"
            if "base" in best and ruleset in DRAWN:
                base_rate = n / best["base"]
                bad = replay(new_src, ruleset, n)
                ok, words = sanity(rows["base"], rows["new"], OFFERS_GREW.get(ruleset, ""))
                line += (
                    f"; base ({ref}) {base_rate:6.2f} games/s ({n / wall['base']:.2f}),"
                    f" {acts['base'] / best['base']:.0f} actions/s;"
                    f" {new_rate / base_rate:5.2f}x games/s a CPU,"
                    f" {(acts['new'] / best['new']) / (acts['base'] / best['base']):5.2f}x"
                    f" actions/s a CPU, {wall['base'] / wall['new']:.2f}x games/s by the clock;"
                    f" {n} games a side, {acts['base'] / n:.0f} (base) and {acts['new'] / n:.0f}"
                    " (new) actions a game\n  games not compared one by one: the random policy"
                    " draws its lines otherwise (the same law, docs/simulation.md);"
                    f" every new game replays identically through the referee's engine:"
                    f" {'yes' if not bad else 'NO ' + str(bad)}\n  statistical sanity (mean"
                    " actions and turns within 3 s.e.; win rates' 95% Wilson intervals overlap):"
                    f" {'yes' if ok else 'NO'}: {words}"
                )
                print(line, flush=True)
                if bad:
                    raise SystemExit("a simulated game the engine does not replay the same")
                if not ok and not QUICK:  # 4 games a side: too few to hold a law, printed only
                    raise SystemExit("the new games look unlike the baseline's (statistics)")
                continue
            if "base" in best:
                base_rate = n / best["base"]
                # the same actions (their hash) make the same game; the turn reported is left
                # out: the baseline reported 0 turns for Solitaire ASL (it now reads the game turn)
                same = [_game(r) for r in rows["base"]] == [_game(r) for r in rows["new"]]
                line += (
                    f"; base ({ref}) {base_rate:6.2f} ({n / wall['base']:.2f});"
                    f" {new_rate / base_rate:5.2f}x a CPU, {wall['base'] / wall['new']:.2f}x by"
                    f" the clock; identical games: {'yes' if same else 'NO'}"
                )
                if not same and ruleset in LACKING:
                    line += (
                        " (the baseline lacks later rule fixes: "
                        + "; ".join(LACKING[ruleset])
                        + ")"
                    )
                elif not same:
                    raise SystemExit(line + "\nthe new code plays other games than the baseline")
            else:
                line += (
                    f"; {new_rate / RECORDED[ruleset]:5.2f}x the recorded"
                    f" {RECORDED[ruleset]} games/s (issue 29, quiet machine; no baseline run)"
                )
            print(f"{line}; {n} games, {acts['new'] / n:.0f} actions a game", flush=True)
        print(f"load after: {load()}")


if __name__ == "__main__":
    main()
