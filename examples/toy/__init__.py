"""The toy ruleset, the worked example of docs/architecture.md ("The worked example"): a
counter moved by d6 rolls, in the package shape every ruleset has.

* ``advance`` (Toy 1): roll 1d6 (+ a bonus); 3+ advances the counter by the roll. A natural 6
  makes a ``cheer`` owed (Toy 3): the turn may not end (``rest``) until it is made or waived.
* ``cheer`` (Toy 3): discharges the owed step. ``rest`` (Toy 4): ends the turn.
* At the limit, ``advance`` is refused (Toy 2).

The files, in the package shape every ruleset has (docs/architecture.md): ``ruleset.py`` (the
Ruleset class, declarations only), ``model.py`` (the state), ``requests.py`` (one declared
request per procedure), ``events.py`` (typed events and their folds), ``flow.py`` (what the
rules owe), ``counter.py`` (plan and resolve, by rule: a topic module), ``data/`` (the players'
page and a bundled scenario), and this module, which names the ruleset's ``RULESET``. It
plays once registered (one line: ``vedette.rules.register("toy", "examples.toy")``; the tests
do it in ``tests/toy.py``).
"""

from examples.toy.ruleset import RULESET, Toy

__all__ = ["RULESET", "Toy"]
