"""The Gradescope zip's requirements.txt: one file of pins that installs on every Python the
zip claims.

The zip claims the course's requires-python (">=3.10"): setup.sh takes whichever Python 3.10 or
newer the image has. Pinning what is installed here, as if every Python were this one, fails
twice: a version that needs a newer Python than the image's (hypothesis 6.170 needs 3.11;
Gradescope's default image has 3.10), and a dependency wanted only on older Pythons
(exceptiongroup and tomli, which pytest needs below 3.11) left out, or written twice.

So the pins are resolved once for every Python at the same time, by uv's universal resolution
(`uv pip compile --universal`, the tool made for one requirements file with environment markers
that holds across Pythons; pip cannot: it evaluates a dependency's markers for the Python it runs
on whatever --python-version says, pypa/pip issue 13296). The versions installed here, where the
lab was proved, are constraints for this Python's minor version, so that on it the zip installs
exactly them; where one of them cannot be installed on another Python, uv forks it by marker
(`hypothesis==6.168.5 ; python_full_version < '3.11'`). Resolving asks the package index, as
installing the zip does.

`problems` then reads the file back as pip would on each claimed Python and says where it does
not hold: a package named twice, a version installed here whose Requires-Python leaves that
Python out, a dependency the lab or a pinned package needs there that nothing pins. The zip is
not built while it says anything (`lab-check --release` and `--verify` build it afresh).
"""

from __future__ import annotations

import importlib.metadata
import pathlib
import subprocess
import sys
import tempfile
from collections.abc import Iterable, Sequence

from packaging.markers import default_environment
from packaging.requirements import Requirement
from packaging.specifiers import SpecifierSet
from packaging.utils import canonicalize_name

from lab.course import lesson_files as lessons, tomlread
from lab.kit.counting import counted

# The newest minor version of Python the file is read back for. uv's resolution holds for every
# Python from the floor up; the check reads the markers for each released minor version.
NEWEST_MINOR = 14
RESOLVE_TIMEOUT = 300  # seconds: uv asks the package index for every version it considers


class PinsError(ValueError):
    """The zip's requirements could not be pinned so as to hold on every Python it claims."""


def project() -> dict[str, object]:
    return tomlread.loads((lessons.PROJECT / "pyproject.toml").read_text())["project"]


def dependencies() -> list[str]:
    """The lab's own requirements, as pyproject.toml lists them."""
    return [str(r) for r in project().get("dependencies", [])]  # type: ignore[attr-defined]


def claimed(requires_python: str | None = None) -> list[str]:
    """Every minor version of Python the zip claims ("3.10", "3.11", ...): those the course's
    requires-python admits, up to NEWEST_MINOR."""
    spec = SpecifierSet(requires_python or str(project().get("requires-python", ">=3.10")))
    return [f"3.{minor}" for minor in range(6, NEWEST_MINOR + 1) if f"3.{minor}" in spec]


def installed_here(wanted: Iterable[str]) -> dict[str, str]:
    """{canonical name: version} of the installed distributions `wanted` (requirements) needs
    on this Python, theirs included: what the lab was proved with here."""
    found: dict[str, str] = {}
    todo = [Requirement(r) for r in wanted]
    while todo:
        requirement = todo.pop(0)
        key = canonicalize_name(requirement.name)
        if key in found or (requirement.marker and not requirement.marker.evaluate()):
            continue
        try:
            dist = importlib.metadata.distribution(requirement.name)
        except importlib.metadata.PackageNotFoundError:
            continue  # uv's resolution finds it; nothing here to hold it to
        found[key] = dist.version
        todo += [Requirement(r) for r in dist.requires or []
                 if not _needs_extra(Requirement(r))]
    return found


def requirements() -> str:
    """requirements.txt for the zip: the lab's dependencies and theirs, pinned for every Python
    the zip claims (see the module's docstring); PinsError when that cannot be done."""
    wanted = dependencies()
    here = installed_here(wanted)
    minor = f"{sys.version_info[0]}.{sys.version_info[1]}"
    oldest = claimed()[0]
    with tempfile.TemporaryDirectory(prefix="lab-pins-") as scratch:
        folder = pathlib.Path(scratch)
        (folder / "wanted.in").write_text("".join(f"{r}\n" for r in wanted))
        (folder / "here.txt").write_text("".join(
            f"{name}=={version} ; python_version == '{minor}'\n"
            for name, version in sorted(here.items())))
        command = [_uv(), "pip", "compile", "--universal", "--quiet", "--no-header",
                   "--no-annotate", "--python", sys.executable, "--python-version", oldest,
                   "--constraint", str(folder / "here.txt"), "--output-file",
                   str(folder / "requirements.txt"), str(folder / "wanted.in")]
        try:
            ran = subprocess.run(command, capture_output=True, text=True,
                                 timeout=RESOLVE_TIMEOUT, cwd=scratch)
        except subprocess.TimeoutExpired:
            raise PinsError(f"uv could not resolve the zip's requirements in "
                            f"{RESOLVE_TIMEOUT} s: is the package index reachable?") from None
        if ran.returncode != 0:
            raise PinsError("uv could not pin the zip's requirements for every Python from "
                            f"{oldest} on, with this Python's versions as installed here:\n"
                            + ran.stderr.strip()[-3000:])
        text = (folder / "requirements.txt").read_text()
    found = problems(text)
    if found:
        raise PinsError("the zip's requirements.txt would not install on every Python it "
                        "claims:\n  " + "\n  ".join(found))
    return text


def problems(text: str, pythons: Sequence[str] | None = None) -> list[str]:
    """Where requirements.txt `text` does not hold on the Pythons `pythons` (minor versions;
    every one the zip claims when None), read as pip reads it there: [] when it holds."""
    pins = [_pin(line) for line in text.splitlines() if line.strip()
            and not line.lstrip().startswith("#")]
    said: list[str] = []
    lab_needs = [Requirement(r) for r in dependencies()]
    for python in pythons or claimed():
        where = _environment(python)
        chosen: dict[str, list[Requirement]] = {}
        for pin in pins:
            if pin.marker is None or pin.marker.evaluate(where):
                chosen.setdefault(canonicalize_name(pin.name), []).append(pin)
        for name, lines in chosen.items():
            if len(lines) > 1:
                said.append(f"Python {python}: {name} is pinned {counted(len(lines), 'time')} "
                            f"({'; '.join(str(line) for line in lines)})")
        versions = {name: _version(lines[0]) for name, lines in chosen.items()}
        for name, version in versions.items():
            said += _fits(python, name, version)
            said += [f"Python {python}: {name}=={version} needs {need.name}{need.specifier or ''}"
                     ", which nothing pins"
                     f"{' at a version it accepts' if canonicalize_name(need.name) in versions else ''}"
                     for need in _requires(name, version, where)
                     if not _met(need, versions)]
        said += [f"Python {python}: the lab needs {need.name}{need.specifier or ''}, which "
                 "nothing pins"
                 for need in lab_needs
                 if (need.marker is None or need.marker.evaluate(where))
                 and not _met(need, versions)]
    return said


def _fits(python, name, version):
    """[] when the version of `name` pinned for `python` admits it, as far as this machine
    knows (its metadata, when that version is installed here)."""
    try:
        dist = importlib.metadata.distribution(name)
    except importlib.metadata.PackageNotFoundError:
        return []
    needed = next(iter(dist.metadata.get_all("Requires-Python") or []), "")
    if dist.version != version or not needed or f"{python}.0" in SpecifierSet(needed):
        return []
    return [f"Python {python}: {name}=={version} needs Python {needed}"]


def _requires(name, version, where):
    """What `name`, at `version`, needs on the Python `where` describes (its installed
    metadata; nothing known when another version is installed here)."""
    try:
        dist = importlib.metadata.distribution(name)
    except importlib.metadata.PackageNotFoundError:
        return []
    if dist.version != version:
        return []
    needs = [Requirement(r) for r in dist.requires or []]
    return [r for r in needs if not _needs_extra(r)
            and (r.marker is None or r.marker.evaluate(where))]


def _met(need: Requirement, versions: dict[str, str]) -> bool:
    version = versions.get(canonicalize_name(need.name))
    return version is not None and need.specifier.contains(version, prereleases=True)


def _needs_extra(requirement: Requirement) -> bool:
    return requirement.marker is not None and "extra" in str(requirement.marker)


def _environment(python: str) -> dict[str, str]:
    """The marker environment of a Linux CPython `python` (a minor version): Gradescope's."""
    where = {key: str(value) for key, value in default_environment().items()}
    where.update(python_version=python, python_full_version=f"{python}.0",
                 implementation_version=f"{python}.0", sys_platform="linux",
                 platform_system="Linux", implementation_name="cpython",
                 platform_python_implementation="CPython", os_name="posix")
    return where


def _pin(line: str) -> Requirement:
    requirement = Requirement(line.strip())
    if len(requirement.specifier) != 1 or next(iter(requirement.specifier)).operator != "==":
        raise PinsError(f"requirements.txt line {line.strip()!r} is not one pinned version")
    return requirement


def _version(pin: Requirement) -> str:
    return next(iter(pin.specifier)).version


def _uv() -> str:
    """The uv executable: the one the `uv` package installs (the instructor's extra), else one
    on PATH."""
    try:
        from uv import find_uv_bin

        return str(find_uv_bin())
    except (ImportError, FileNotFoundError):
        import shutil

        found = shutil.which("uv")
        if found is None:
            raise PinsError("the Gradescope zip's pins are resolved by uv, which is not "
                            "installed: pip install -e '.[instructor]'") from None
        return found
