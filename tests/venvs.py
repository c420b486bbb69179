"""Fresh virtual environments for the release tests: made the ordinary way (python -m venv, no
packages of this one's), installed into from this machine's package index, first on PATH."""

import os
import pathlib
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
