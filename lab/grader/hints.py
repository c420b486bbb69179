"""A lesson's hints.toml: where its notebook teaches each gap and each graded test, up to three
hints a test, and what to do once everything passes.

It lives beside the lesson's manifest.toml, one file a lesson:

    [passed]
    next = "what comes after this lesson"
    [gaps.repair]
    section = "Five wrecks"                      # a heading of walkthrough.py
    [tests.test_orphan_result_is_dropped_without_inventing_a_call]
    section = "Card 2 · `damaged.orphan_result`"
    hints = ["a nudge", "a step closer", "nearly there"]

A lesson without the file has no hints, and its report points at nothing: that is allowed.
"""

from __future__ import annotations

import functools
import pathlib
import textwrap
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any
from lab.course import tomlread
from dataclasses import dataclass, field

if TYPE_CHECKING:
    from lab.course.lesson_files import Lesson

MOST = 3    # hints a test may have
WIDTH = 96  # columns hints are wrapped to


@dataclass(frozen=True)
class Guide:
    gap_sections: dict[str, str] = field(default_factory=dict)        # gap -> notebook section
    tests: dict[str, dict[str, Any]] = field(default_factory=dict)    # test -> {"section", "hints"}
    after: str = ""    # what to do once every test passes

    def section(self, test: str | None = None, gap: str | None = None) -> str:
        """The notebook section that teaches `test` (else its `gap`), or ""."""
        return (self.tests.get(test, {}).get("section")  # type: ignore[arg-type]
                or self.gap_sections.get(gap, ""))  # type: ignore[arg-type]

    def hints(self, test: str) -> list[str]:
        return list(self.tests.get(test, {}).get("hints", []))[:MOST]


def guide(lesson: Lesson) -> Guide:
    """The Guide of `lesson` (a lessons.Lesson), empty when it has no hints.toml."""
    return read_file(pathlib.Path(lesson.folder) / "hints.toml")


@functools.cache
def read_file(path: pathlib.Path) -> Guide:
    if not path.exists():
        return Guide()
    data = tomlread.loads(path.read_text(encoding="utf-8"))
    return Guide(gap_sections={gap: meta.get("section", "")
                               for gap, meta in data.get("gaps", {}).items()},
                 tests=data.get("tests", {}), after=data.get("passed", {}).get("next", ""))


def text(test: str, lesson: Lesson) -> str:
    """What `lab-check --hint` prints for `test` of `lesson`: its hints, numbered, and the
    notebook section that teaches it."""
    found = guide(lesson)
    title = test.removeprefix("test_").replace("_", " ")
    given = found.hints(test)
    if not given:
        return f"lab_check: lesson {lesson.number} has no hints for \"{title}\".\n"
    lines = [f"hints for \"{title}\", each a step closer: read one, try it, then the next."]
    for number, hint in enumerate(given, 1):
        lines += textwrap.wrap(hint, WIDTH, initial_indent=f"  {number}. ",
                               subsequent_indent="     ")
    section = found.section(test)
    if section:
        lines.append(f"The notebook's \"{section}\" teaches it "
                     f"({pathlib.Path(lesson.folder).name}/walkthrough.ipynb).")
    return "\n".join(lines) + "\n"


def matching(names: Iterable[str], words: str) -> list[str]:
    """The test names among `names` that `words` picks: the exact name, the name without its
    test_ prefix, its title (spaces for underscores), or else every name holding the words."""
    wanted = words.strip().lower().replace(" ", "_")
    exact = [n for n in names if wanted in (n, n.removeprefix("test_"))]
    return exact or [n for n in names if wanted in n]


def every_test(lesson: Lesson, graded: Iterable[str] = ()) -> list[str]:
    """Every graded test `lab-check --hint` picks among for `lesson`: those of its tests.py, in
    file order, then any of `graded` (the tests a grading ran: of test files of one's own, say)
    not among them. Words picked unique among these are unique whatever -k selected."""
    from lab.course import manifest

    names: list[str] = []
    tests = getattr(lesson, "tests", None)
    if tests is not None and pathlib.Path(tests).is_file():
        try:
            names = manifest.graded_tests(pathlib.Path(tests))
        except (OSError, SyntaxError, ValueError):
            names = []
    return names + [name for name in graded if name not in names]


def short_name(test: str, names: Iterable[str]) -> str:
    """The fewest leading words of `test`'s name that `matching` takes for it alone among
    `names` (every test of the lab: every_test), joined by spaces and quoted when there are
    several: what to type after --hint."""
    words = test.removeprefix("test_").split("_")
    for count in range(1, len(words) + 1):
        if matching(names, "_".join(words[:count])) == [test]:
            picked = " ".join(words[:count])
            return f'"{picked}"' if count > 1 else picked
    return test.removeprefix("test_")


def menu(lesson: Lesson, names: Sequence[str], among: Iterable[str] | None = None) -> str:
    """The words `lab-check --hint WORDS` takes, one line a test of `names` that has hints
    (only those of `among`, when given and not empty), each the shortest that names it alone
    among every one of `names`; "" when none has a hint."""
    found = guide(lesson)
    shown = [n for n in (among or names) if found.hints(n)]
    if not shown:
        return ""
    lines = ["hints, one test at a time: lab-check --hint WORDS, with WORDS one of"]
    lines += [f"  {short_name(n, names):<28} {n.removeprefix('test_').replace('_', ' ')}"
              for n in shown]
    return "\n".join(lines) + "\n"
