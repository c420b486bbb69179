"""Start a module of the lab in a new Python as `python -P -m MODULE` would, on Python 3.10 too.

`-P` (3.11 on) keeps the working folder off sys.path, so that a folder the student controls
(their submission, a grading's private folder) can never supply a module that shadows the
lab's or the standard library's. Python 3.10 has no -P. `-c` puts the working folder first on
sys.path as "" and nothing else; CODE takes exactly that entry out before it imports
anything (sys is built in), then runs the module as -m would (its sys.argv[0] its file,
the rest its arguments).
When nothing was put there (PYTHONSAFEPATH, or -P given by a caller), nothing is taken out.
Site-wide start-up (site, sitecustomize) runs before "" is put on sys.path, with -P or -c.
"""

from __future__ import annotations

import shlex
import sys

CODE = ('import sys\n'  # built in: nothing is read from a folder to import it
        'if sys.path[:1] == [""]: del sys.path[0]\n'
        'import runpy\n'
        'runpy.run_module(sys.argv.pop(1), run_name="__main__", alter_sys=True)')


def command(module: str, *args: object, python: str | None = None) -> list[str]:
    """The argv that runs `module` with `args`, the working folder never searched."""
    return [python or sys.executable, "-c", CODE, module, *map(str, args)]


def shell(module: str, python: str = '"$PY"') -> str:
    """The same as a shell command line (for run_autograder); `python` is put in as is."""
    return f"{python} -c {shlex.quote(CODE)} {module}"
