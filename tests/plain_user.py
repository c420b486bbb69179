"""Running lab_check as a plain user, from a suite that may run as root (as CI does).

Root's Python may live where no one else can read it (under /root), so a plain user gets a
Python of its own: a virtual environment of the system's python3, holding copies of the
distributions lab_check needs, and a copy of the project, all readable by anyone. Commands run
as an unused uid (setpriv), with no groups: no account is added to the system. Everything made
here is removed when the suite's process ends.
"""

import atexit
import functools
import importlib.metadata
import os
import pathlib
import re
import shutil
import subprocess
import tempfile

from conftest import CACHES

IS_ROOT = os.geteuid() == 0
UID = 4_000_000 + os.getpid() % 1000  # no account has it (and user namespaces can map it)
SYSTEM_PYTHON = "/usr/bin/python3"
NEEDED = ("pytest", "hypothesis")  # what lab_check imports beyond the standard library
_MADE = []  # every folder environment() made, to be removed by remove_all()


def available():
    """Why plain-user runs cannot be made here, or ""."""
    if not IS_ROOT:
        return ""  # we are a plain user already
    if not shutil.which("setpriv"):
        return "setpriv is not installed"
    if not os.path.exists(SYSTEM_PYTHON):
        return f"{SYSTEM_PYTHON} is missing"
    return ""


def _closure(names):
    """Every distribution `names` need, themselves included."""
    found, todo = {}, list(names)
    while todo:
        name = re.split(r"[ ;<>=!~\[]", todo.pop(), maxsplit=1)[0]
        key = name.lower().replace("_", "-")
        if key in found:
            continue
        try:
            dist = importlib.metadata.distribution(name)
        except importlib.metadata.PackageNotFoundError:
            continue
        found[key] = dist
        todo += [r for r in (dist.requires or []) if "extra ==" not in r]
    return found.values()


@functools.cache
def environment(project):
    """(python, project copy): a plain user's Python and copy of `project`, made once."""
    root = pathlib.Path(tempfile.mkdtemp(prefix="lab-plain-user-"))
    _MADE.append(root)
    root.chmod(0o755)
    copy = root / "project"
    shutil.copytree(project, copy, ignore=shutil.ignore_patterns(*CACHES, "*.ipynb"))
    if not IS_ROOT:
        return os.path.realpath(os.sys.executable), copy
    venv = root / "venv"
    subprocess.run([SYSTEM_PYTHON, "-m", "venv", "--without-pip", str(venv)], check=True)
    site = next(venv.glob("lib/python3*/site-packages"))
    for dist in _closure(NEEDED):
        for file in dist.files or []:
            source = pathlib.Path(dist.locate_file(file))
            if source.is_file() and ".." not in file.parts:
                target = site / file
                target.parent.mkdir(parents=True, exist_ok=True)
                shutil.copyfile(source, target)
    for path in [root, *root.rglob("*")]:
        if not path.is_symlink():  # chmod follows links: never touch the system's Python
            path.chmod(0o755 if path.is_dir() else 0o644)
    for script in (venv / "bin").iterdir():
        if not script.is_symlink():
            script.chmod(0o755)
    return str(venv / "bin" / "python"), copy


def remove_all():
    """Remove every environment made here (a plain user's leftovers in them included)."""
    from lab.worker.tidy import remove_tree

    while _MADE:
        remove_tree(_MADE.pop())
    environment.cache_clear()


atexit.register(remove_all)


def command(project, *args):
    """The argv that runs the copy's lab_check with `args` as a plain user."""
    python, copy = environment(project)
    argv = [python, str(copy / "lab" / "lab_check.py"), *args]
    if IS_ROOT:
        argv = ["setpriv", f"--reuid={UID}", f"--regid={UID}", "--clear-groups", *argv]
    return argv
