"""python -m lab.docs [--check]: rewrite every generated block of README.md and docs/ (see
lab/docs/__init__.py); --check writes nothing, names each stale block, and exits 1 if any."""

from __future__ import annotations

import sys

from lab.docs import blocks
from lab.docs.made import EVERY, rewrite


def main(argv: list[str] | None = None) -> int:
    check = "--check" in (sys.argv[1:] if argv is None else argv)
    stale = 0
    for made in EVERY:
        try:
            if check:
                out = made.stale()
                stale += out
                said = "stale: python -m lab.docs rewrites it" if out else "current"
            else:
                said = "rewritten" if rewrite(made) else "current"
        except (blocks.MissingBlock, OSError, ValueError) as error:
            print(f"{made.document}: {made.name}: {error}", file=sys.stderr)
            return 2
        print(f"{made.document}: {made.name}: {said}")
    return 1 if stale else 0


if __name__ == "__main__":
    sys.exit(main())
