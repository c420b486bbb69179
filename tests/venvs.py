"""Fresh virtual environments for the release tests: made the ordinary way (python -m venv, no
packages of this one's), installed into from this machine's package index, first on PATH."""

import glob
import os
import pathlib
import shutil
import subprocess
import sys

INSTALL_TIMEOUT = 900  # seconds: a fresh venv downloads the lab's requirements


def fresh_venv(folder, python=None):
    """A new, empty virtual environment at `folder`, made by `python` (this run's own base
    interpreter unless named); its bin folder."""
    folder = pathlib.Path(folder)
    base = python or getattr(sys, "_base_executable", sys.executable)
    subprocess.run([base, "-m", "venv", str(folder)], check=True, timeout=300)
    return folder / "bin"


def env_first_on_path(bin_folder, **more):
    """os.environ with `bin_folder` first on PATH, as an activated venv has it, and no
    variable of this test run that would reach into the project (LAB_HARNESS, PYTHONPATH)."""
    env = {k: v for k, v in os.environ.items()
           if k not in ("LAB_HARNESS", "PYTHONPATH", "VIRTUAL_ENV", "PYTEST_ADDOPTS")}
    env["PATH"] = f"{bin_folder}{os.pathsep}{env.get('PATH', '')}"
    env["VIRTUAL_ENV"] = str(pathlib.Path(bin_folder).parent)
    env.update(more)
    return env


def shell(command, cwd, env, timeout=INSTALL_TIMEOUT):
    """Run one shell command line as a terminal would (bash -e), output captured."""
    return subprocess.run(["bash", "-e", "-c", command], cwd=cwd, env=env, text=True,
                          capture_output=True, timeout=timeout)


def python_of(minor):
    """An interpreter of Python 3.`minor` on this machine that runs: one pyenv installed (this
    machine's image has 3.10 there), else one on PATH; None when there is none."""
    roots = [os.environ.get("PYENV_ROOT", ""), os.path.expanduser("~/.pyenv"), "/root/.pyenv"]
    candidates = [path for root in roots if root for path in sorted(glob.glob(
        os.path.join(root, "versions", f"3.{minor}.*", "bin", f"python3.{minor}")))]
    candidates.append(shutil.which(f"python3.{minor}"))  # perhaps pyenv's shim: tried last
    for path in filter(None, candidates):
        try:
            said = subprocess.run([path, "-c", "import sys; print(*sys.version_info[:2])"],
                                  capture_output=True, text=True, timeout=60).stdout.split()
        except OSError:
            continue
        if said == ["3", str(minor)]:
            return path
    return None
