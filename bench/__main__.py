"""Run every benchmark: ``python -m bench``."""

from __future__ import annotations

import runpy
import sys
from pathlib import Path

HERE = Path(__file__).parent


def main() -> None:
    for f in sorted(HERE.glob("bench_*.py")):
        print(f"== {f.stem} ==", flush=True)
        runpy.run_path(str(f), run_name="__main__")
        print(flush=True)


if __name__ == "__main__":
    sys.path.insert(0, str(HERE.parent))
    main()
