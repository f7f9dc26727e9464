"""Settings for the whole suite.

Hypothesis's per-example deadline (200 ms by default) fails a property test on a loaded
machine although the property holds: tests never fail on timing, so no deadline here.
"""

from hypothesis import settings

settings.register_profile("vedette", deadline=None)
settings.load_profile("vedette")
