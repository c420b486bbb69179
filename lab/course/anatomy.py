"""Does a lab's folder have the anatomy of a lesson? The course's own reading of what a lesson
is (lesson 10 is the worked example): the parts a walkthrough must have, in the reader's
terms, and the honesty rules a reader can check from the text.

    problems(lab)   what the lab's folder lacks, one sentence each; [] when it has it all
    summary(lab)    a line of figures for a passing lab ("13 questions, 3 figures, ...")

What is read: the walkthrough's source (walkthrough.py, in the percent format lab.notebook.ipynb
reads), the starter and the manifest (the names a cell may ask of the reader's harness), the
hints (one for every gap) and, for a lesson, its ready.py (lab.course.readiness). What it asks:

  - a header: the lab's id and title as the course lists them, how long it takes, and, when it
    builds on a lab, that lab's id;
  - questions: a markdown cell offering three or more options, each folded (<details>) under a
    summary that starts with its letter, A, B, C...; eight for a lesson, four for a checkpoint;
  - at least two figures, numbered after the lab (Figure 10.1, Figure A.2) in a caption;
  - the sections a lesson closes with: common answers and what each misses, a production
    harness compared, in your own words, a further case, wrapping up, and what comes next;
  - honesty: no lesson named as "an earlier lesson" (name it by number), and no file cited that
    a student's copy lacks (a wrong/ or right/ answer, a file of this project's tests/; a
    production harness's own tests/ may be cited);
  - the notebook runs for every reader: every `harness.NAME` a code cell uses is a name the
    starter defines or a gap of the manifest asks for;
  - nothing of lab.cli.new_lab's skeleton is left: no place still marked TO WRITE.

Whether the cells run, and print what they should, is the notebook runs' business (the lab
proof executes them); this reads text only, and takes a second for the whole course.
"""

from __future__ import annotations

import ast
import pathlib
import re
from dataclasses import dataclass

from lab.course import order as course, readiness, tomlread
from lab.kit.counting import counted

SOURCE = "walkthrough.py"
CELL = re.compile(r"^# %%(?P<markdown> \[markdown\])?")  # lab.notebook.ipynb checks the rest of a marker
PLACEHOLDER = "TO WRITE"  # what lab.cli.new_lab's skeleton marks every place to write with
GENERATED = {"finished.py", "starter.py", "walkthrough.ipynb"}  # made from the others
QUESTIONS = {"lesson": 8, "checkpoint": 4}
FIGURES = 2
SECTIONS = {  # what a reader looks for, and the words that show it is there
    "common answers, and what each one misses": r"common (answers|replies|mistakes)",
    "a production harness compared": r"compared with|in production|production harness",
    "in your own words": r"in your own words",
    "a further case": r"a further case|one more case",
    "wrapping up": r"wrapping up|you built",
    "what comes next": r"\bnext\b",
}
VAGUE = re.compile(r"\b(an|a|the) (earlier|previous|prior|early) (lesson|lab)\b", re.IGNORECASE)
ABSENT_FILE = re.compile(r"(?:^|[\s`(\"'])((?:wrong|right)/[\w.-]+\.py|tests/test_\w+\.py)")
OPTION = re.compile(r"<details>\s*<summary>\s*<b>([A-Z])</b>")


@dataclass(frozen=True)
class Cell:
    kind: str  # "markdown" or "code"
    text: str  # a markdown cell without its "# " prefixes


def cells(source: str) -> list[Cell]:
    """The cells of a walkthrough.py, in order; comments before the first marker are left out."""
    found: list[Cell] = []
    kind: str | None = None
    lines: list[str] = []
    for line in source.splitlines():
        marker = CELL.match(line)
        if marker:
            if kind is not None:
                found.append(Cell(kind, "\n".join(lines)))
            kind, lines = ("markdown" if marker["markdown"] else "code"), []
        elif kind == "markdown":
            lines.append(line[2:] if line.startswith("# ") else line.lstrip("#"))
        elif kind == "code":
            lines.append(line)
    if kind is not None:
        found.append(Cell(kind, "\n".join(lines)))
    return found


def questions(parts: list[Cell]) -> int:
    """How many markdown cells offer three or more folded options lettered from A on."""
    count = 0
    for cell in parts:
        if cell.kind != "markdown":
            continue
        letters = OPTION.findall(cell.text)
        if len(letters) >= 3 and letters[:3] == ["A", "B", "C"]:
            count += 1
    return count


def figures(lab: course.Lab, text: str) -> set[str]:
    """The figure numbers the walkthrough gives ("10.1", "A.2"), numbered after the lab."""
    number = str(lab.id)
    return set(re.findall(rf"\bFigure\s+({re.escape(number)}\.\d+)\b", text))


def problems(lab: course.Lab) -> list[str]:
    """What `lab`'s folder lacks of a lesson's anatomy, one sentence each."""
    if lab.folder is None:
        return [f"lab {lab.label} has no folder: its `folder` in lessons/course.toml is empty"]
    folder = lab.folder
    walkthrough = folder / SOURCE
    if not walkthrough.is_file():
        return [f"{_shown(walkthrough)} is missing: the lesson's text and cells live there"]
    found = _placeholders(folder)
    parts = cells(walkthrough.read_text(encoding="utf-8"))
    markdown = "\n".join(c.text for c in parts if c.kind == "markdown")
    code = "\n".join(c.text for c in parts if c.kind == "code")
    found += _header(lab, parts)
    least = QUESTIONS["checkpoint" if lab.is_checkpoint else "lesson"]
    asked = questions(parts)
    if asked < least:
        found.append(f"{counted(asked, 'question')} with three or more folded options "
                     f"(at least {least})")
    drawn = figures(lab, markdown + "\n" + code)
    if len(drawn) < FIGURES:
        found.append(f"{counted(len(drawn), 'figure')} numbered Figure {lab.id}.N "
                     f"(at least {FIGURES})")
    lower = markdown.lower()
    found += [f"no section for {name}" for name, words in SECTIONS.items()
              if not re.search(words, lower)]
    vague = VAGUE.search(markdown)
    if vague:
        found.append(f"names a lab as {vague.group(0)!r}: name it by number")
    cited = sorted({path for path in ABSENT_FILE.findall(markdown)  # a production repo's
                    if not path.startswith("tests/") or (course.PROJECT / path).is_file()})
    if cited:
        found.append(f"cites {', '.join(cited)}, which a student's copy does not hold")
    found += _names_the_starter_lacks(folder, code)
    found += _hints_for_every_gap(folder)
    if not lab.is_checkpoint:
        try:
            readiness.of(folder)
        except readiness.NotReadyToPick as missing:
            found.append(str(missing))
    return found


def summary(lab: course.Lab) -> str:
    parts = cells((lab.folder / SOURCE).read_text(encoding="utf-8"))  # type: ignore[operator]
    text = "\n".join(c.text for c in parts)
    return f"{counted(questions(parts), 'question')}, {counted(len(figures(lab, text)), 'figure')}"


def _placeholders(folder: pathlib.Path) -> list[str]:
    left = []
    for path in sorted(folder.rglob("*")):
        if path.is_file() and path.suffix in (".py", ".toml") and path.name not in GENERATED:
            text = path.read_text(encoding="utf-8", errors="replace")
            left += [f"{path.relative_to(folder)}:{number}"
                     for number, line in enumerate(text.splitlines(), 1) if PLACEHOLDER in line]
    if not left:
        return []
    return [f"{len(left)} places of the new lab's skeleton are still marked {PLACEHOLDER} "
            f"({', '.join(left[:4])}{', ...' if len(left) > 4 else ''})"]


def _header(lab: course.Lab, parts: list[Cell]) -> list[str]:
    first = next((c.text for c in parts if c.kind == "markdown"), "")
    found = []
    title = f"# {lab.label} · {lab.title}"
    if not first.lstrip().startswith(title):
        found.append(f"the first markdown cell does not open with its header, {title!r}")
    if not re.search(r"\d+\s*min(utes)?\b", first):
        found.append("the header does not say how long the lab takes (\"about 50 minutes\")")
    if lab.builds_on is not None and f"builds on {course.label(lab.builds_on)}" not in \
            " ".join(first.split()):
        found.append(f"the header does not say what it builds on (\"builds on "
                     f"{course.label(lab.builds_on)} · ...\")")
    return found


def _names_the_starter_lacks(folder: pathlib.Path, code: str) -> list[str]:
    starter = folder / "starter.py"
    if not starter.is_file():
        return [f"{_shown(starter)} is missing"]
    given = _top_level_names(starter.read_text(encoding="utf-8"))
    manifest = folder / "manifest.toml"
    if manifest.is_file():
        data = tomlread.loads(manifest.read_text(encoding="utf-8"))
        for gap in data.get("gaps", {}).values():
            given |= set(gap.get("names", []))
    reader = "doctor" if (folder / "harnesses").is_dir() else "harness"
    asked = set(re.findall(rf"\b{reader}\.([A-Za-z_]\w*)", code))
    lacking = sorted(n for n in asked - given if not n.startswith("__") and n != "py")
    if lacking:
        return [f"cells use {', '.join(f'{reader}.{n}' for n in lacking)}, which the starter "
                "does not define: a reader on the starter would stop there"]
    return []


def _hints_for_every_gap(folder: pathlib.Path) -> list[str]:
    hints, manifest = folder / "hints.toml", folder / "manifest.toml"
    if not hints.is_file():
        return [f"{_shown(hints)} is missing: every gap has hints (lab-check --hint)"]
    if not manifest.is_file():
        return [f"{_shown(manifest)} is missing"]
    gaps = set(tomlread.loads(manifest.read_text(encoding="utf-8")).get("gaps", {}))
    hinted = set(tomlread.loads(hints.read_text(encoding="utf-8")).get("gaps", {}))
    missing = sorted(gaps - hinted - {"given"})
    return [f"hints.toml has no hints for the gap {', '.join(missing)}"] if missing else []


def _top_level_names(text: str) -> set[str]:
    names: set[str] = set()
    for node in ast.parse(text).body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, ast.Assign):
            names |= {t.id for t in node.targets if isinstance(t, ast.Name)}
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            names.add(node.target.id)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            names |= {(a.asname or a.name).split(".")[0] for a in node.names}
    return names


def _shown(path: pathlib.Path) -> str:
    try:
        return str(path.relative_to(course.PROJECT))
    except ValueError:
        return str(path)
