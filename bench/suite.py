"""The whole suite's wall time, against the developers' goal: under 30 minutes on two cores.

    .venv/bin/python bench/suite.py                  # the README's test command, timed
    .venv/bin/python bench/suite.py tests/test_x.py  # the same command on some files only

The command is the README's own (the pytest part of its second set-up block, which .ci/run
runs word for word: tests/test_readme.py checks that), run from the project's folder, so the
figure is the one CI would see on this machine. It prints the wall time, the CPU seconds the
suite's processes spent (children of this one, waited for), the machine's load meanwhile, and
whether the wall time is within SUITE_TARGET. A wall time on a machine shared with other work
is stretched by it: the load says how much. Nothing is written.
"""

import os
import pathlib
import re
import resource
import shlex
import subprocess
import sys
import time

PROJECT = pathlib.Path(__file__).resolve().parent.parent
SUITE_TARGET = 30 * 60  # seconds of wall time for the whole suite, on two cores


def readme_test_command(readme: str) -> list[str]:
    """The argv of the README's test command: from `.venv/bin/python -m pytest` on, in the
    second ```sh block."""
    blocks = re.findall(r"```sh\n(.*?)\n```", readme, re.DOTALL)
    if len(blocks) < 2:
        raise SystemExit("bench/suite.py: the README has no second ```sh block (its tests)")
    words = shlex.split(blocks[1].split("&&")[-1])
    if words[1:3] != ["-m", "pytest"]:
        raise SystemExit(f"bench/suite.py: the README's last command is not pytest: {words}")
    return words


def main(argv: list[str]) -> int:
    command = readme_test_command((PROJECT / "README.md").read_text(encoding="utf-8")) + argv
    print(f"bench/suite.py: {shlex.join(command)}", flush=True)
    cores, started = len(os.sched_getaffinity(0)), time.monotonic()
    finished = subprocess.run(command, cwd=PROJECT)
    wall = time.monotonic() - started
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    load = os.getloadavg()[1]  # over the last five minutes
    verdict = "within" if wall <= SUITE_TARGET else "OVER"
    print(f"suite: {wall:.0f} s wall ({verdict} the {SUITE_TARGET // 60} minutes' goal), "
          f"{used.ru_utime + used.ru_stime:.0f} CPU s in its processes, load {load:.1f} on "
          f"{cores} cores at the end; pytest exited {finished.returncode}")
    return finished.returncode


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
