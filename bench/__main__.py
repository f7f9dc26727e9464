"""Run every benchmark: ``python -m bench`` (``--quick``: each small, in seconds, as CI runs
them; ``VEDETTE_BENCH_QUICK=1`` does the same). Each bench runs in its own process with a time
limit; the run fails (exit 1) if any bench fails or overruns, after running the others."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).parent
#: seconds a bench may take (quick mode; a full run has none)
QUICK_LIMIT = 120
#: arguments of a bench that takes its size on the command line, in quick mode
QUICK_ARGS = {"bench_simulate": ["2"]}


def main(argv: list[str]) -> int:
    env = dict(os.environ)
    if "--quick" in argv:
        env["VEDETTE_BENCH_QUICK"] = "1"
    quick = env.get("VEDETTE_BENCH_QUICK", "") not in ("", "0")
    only = [a for a in argv if not a.startswith("-")]
    failed = []
    for f in sorted(HERE.glob("bench_*.py")):
        if only and f.stem not in only and f.stem.removeprefix("bench_") not in only:
            continue
        print(f"== {f.stem} ==", flush=True)
        t = time.monotonic()
        try:
            rc = subprocess.run(
                [sys.executable, str(f), *(QUICK_ARGS.get(f.stem, []) if quick else [])],
                env=env,
                timeout=QUICK_LIMIT if quick else None,
            ).returncode
        except subprocess.TimeoutExpired:
            rc = -1
            print(f"{f.stem}: over {QUICK_LIMIT} s", flush=True)
        a, b, c = os.getloadavg()
        print(
            f"({f.stem}: {time.monotonic() - t:.1f} s, load {a:.2f} {b:.2f} {c:.2f})\n", flush=True
        )
        if rc != 0:
            failed.append(f.stem)
    if failed:
        print(f"FAILED: {', '.join(failed)}", flush=True)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
