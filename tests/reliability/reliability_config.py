"""Settings and environment knobs shared by the reliability suite.

* `RELIABILITY`: the Hypothesis settings every property test here derives from. Derandomized and
  without an example database, so a CI run tests exactly the same cases every time; a per-example
  deadline so one pathological case cannot eat the suite's time budget.
* `fuzz_examples(n)`: the example count of a test, `n` by default (sized so the whole suite runs in
  about two minutes on two cores). `FLOWGRAD_FUZZ_EXAMPLES=5000` scales every property test of the
  suite up to that many examples, and `FLOWGRAD_FUZZ_RANDOM=1` draws fresh examples each run
  instead of the fixed ones, for long local fuzzing sessions.
* `FLOWGRAD_FUZZ_SELFTEST=1` substitutes the real framework for flowgrad in the differential
  tests (torch for flowgrad.torch, paddle for flowgrad.paddle): every test must then pass, which
  validates the generators, the interpreters and the tolerances themselves.
"""
from __future__ import annotations

import os
from datetime import timedelta

from hypothesis import HealthCheck, settings

FUZZ_EXAMPLES = os.environ.get("FLOWGRAD_FUZZ_EXAMPLES", "").strip()
FUZZ_RANDOM = os.environ.get("FLOWGRAD_FUZZ_RANDOM", "").strip() not in ("", "0", "false", "False")
SELFTEST = os.environ.get("FLOWGRAD_FUZZ_SELFTEST", "").strip() not in ("", "0", "false", "False")

settings.register_profile(
    "flowgrad-reliability",
    derandomize=not FUZZ_RANDOM,
    database=None,
    deadline=timedelta(seconds=5),
    print_blob=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much,
                           HealthCheck.function_scoped_fixture],
)
# Not loaded globally (that would change the settings of every other test in the session):
# tests here use `@settings(parent=RELIABILITY, max_examples=fuzz_examples(n))`.
RELIABILITY = settings.get_profile("flowgrad-reliability")


def fuzz_examples(default: int) -> int:
    """`default`, or FLOWGRAD_FUZZ_EXAMPLES when it is set."""
    return int(FUZZ_EXAMPLES) if FUZZ_EXAMPLES else default

