"""Every written lab's walkthrough read as one text, held against lessons/course.toml.

The course's order lives in one file; the walkthroughs are prose written by hand. These tests
are what keeps the two from drifting apart: each lab's header says its part, its time and the
lab it builds on, as course.toml has them; its footer names the lab before it and the lab after
it in the course's order; a lesson's closing checklist is course.toml's `adds` lines, in order,
with its own line marked new; and its walkthrough describes, one line each, every test its
tests.py holds.

The wording each test expects is written out here, once, from course.toml: a lab renamed or
moved in course.toml fails these tests until its text, and its neighbours' texts, follow.

How a walkthrough names the test a line describes: the line ends with an HTML comment,
`<!-- test: test_name -->`. A notebook shows the line and hides the comment, so the reader
reads a sentence about behaviour, and the suite can check that every test of tests.py has one.
"""

import ast
import re

import pytest

from lab.course import order as course, tomlread
from lab.notebook.ipynb import SOURCE

WRITTEN = [lab for lab in course.labs() if lab.written]
LESSONS = [lab for lab in WRITTEN if not lab.is_checkpoint]
DESCRIBED = re.compile(r"<!-- test: (test_\w+) -->")


def label(lab):
    return lab.label


def markdown_cells(lab):
    """The walkthrough's markdown cells, each as its text with the leading '# ' taken off."""
    cells, kind, lines = [], None, []
    for line in (lab.folder / SOURCE).read_text(encoding="utf-8").splitlines():
        if line.startswith("# %%"):
            if kind == "markdown":
                cells.append("\n".join(lines))
            kind, lines = ("markdown" if "[markdown]" in line else "code"), []
        elif kind == "markdown":
            lines.append(line[2:] if line.startswith("# ") else line.lstrip("#"))
    if kind == "markdown":
        cells.append("\n".join(lines))
    return cells


def before(lab):
    """The written lab just before `lab` in the course's order (None for the first)."""
    earlier = [other for other in WRITTEN if course.labs().index(other) < course.labs().index(lab)]
    return earlier[-1] if earlier else None


def expected_header(lab):
    """The header line: part, time, labs, and what it builds on, as course.toml says."""
    parent = course.find(lab.builds_on) if lab.builds_on is not None else None
    builds = (f"builds on {parent.label} · {parent.title}" if parent
              else "builds on nothing: the course starts here")
    return f"*{lab.part} · ~{lab.minutes} min · 1 lab · {builds}*"


def expected_next(lab):
    following = course.after(lab)
    if following is None:
        return "**Next:** nothing yet."
    return f"**Next:** {following.heading}"


def expected_checklist(lab):
    """What a lesson's harness can do, one line a lesson of its chain, this lesson's marked."""
    lines = []
    for n, each in enumerate([l for l in course.chain(lab) if not l.is_checkpoint], 1):
        said = each.adds[0].upper() + each.adds[1:] + "."
        lines.append(f"{n}. {'**New:** ' if each.id == lab.id else ''}{said}")
    return lines


def checklist(cells):
    """The numbered lines under the walkthrough's "Your harness can" heading ([] if none)."""
    for cell in cells:
        if "### Your harness can" not in cell:
            continue
        after = [line for line in cell.split("### Your harness can", 1)[1].splitlines() if line]
        items = []
        for line in after:
            if re.match(r"\d+\. ", line):
                items.append(line)
            elif line.startswith("   ") and items:
                items[-1] += " " + line.strip()
            elif items:
                break
        return items
    return []


def graded_tests_of(lab):
    tree = ast.parse((lab.folder / "tests.py").read_text(encoding="utf-8"))
    return [node.name for node in tree.body
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))
            and node.name.startswith("test_")]


@pytest.mark.parametrize("lab", WRITTEN, ids=label)
def test_the_header_names_the_lab_its_part_its_time_and_what_it_builds_on(lab):
    first = markdown_cells(lab)[0]

    title = first.splitlines()[0]

    assert title == f"# {lab.label} · {lab.title}", (
        f"expected the walkthrough to open on '# {lab.label} · {lab.title}'; got {title!r}")
    assert expected_header(lab) in first.splitlines(), (
        f"expected the header to hold the line {expected_header(lab)!r}; its first cell is:\n"
        + first[:600])


@pytest.mark.parametrize("lab", WRITTEN, ids=label)
def test_a_newcomer_is_sent_to_lesson_01(lab):
    first = " ".join(markdown_cells(lab)[0].split())

    elsewhere = re.findall(r"[Ss]tart at lesson (\d+)", first)

    if lab.id == 1:
        assert "This is the place to start" in first, first[:600]
    else:
        assert "New here? Start at lesson 01" in first, (
            f"expected lesson {lab.label}'s header to send a newcomer to lesson 01; it says:\n"
            + first[:600])
    assert set(elsewhere) <= {"01"}, f"a newcomer is sent to lesson {elsewhere}, not to 01"


@pytest.mark.parametrize("lab", WRITTEN, ids=label)
def test_the_footer_names_the_lab_before_it_and_the_lab_after_it_in_the_course(lab):
    cells = markdown_cells(lab)
    wrap_up = "\n".join(cells[next(i for i, c in enumerate(cells) if "## Wrapping up" in c):])
    previous = before(lab)

    nexts = re.findall(r"\*\*Next:\*\*[^\n]*", wrap_up)
    previouses = re.findall(r"\*\*Previous:\*\*[^\n]*", wrap_up)

    assert len(nexts) == 1 and nexts[0].startswith(expected_next(lab)), (
        f"expected one line starting {expected_next(lab)!r} after '## Wrapping up'; got {nexts}")
    if previous is None:
        assert previouses == [], f"the first lab has no previous; got {previouses}"
    else:
        wanted = f"**Previous:** {previous.heading}."
        assert previouses == [wanted], f"expected {wanted!r} after '## Wrapping up'; got {previouses}"


@pytest.mark.parametrize("lab", LESSONS, ids=label)
def test_the_closing_checklist_is_what_course_toml_says_each_lesson_adds(lab):
    got = checklist(markdown_cells(lab))

    wanted = expected_checklist(lab)

    assert got == wanted, (
        f"expected lesson {lab.label}'s '### Your harness can' list to read, line for line:\n"
        + "\n".join(wanted) + "\n--- got\n" + "\n".join(got))


@pytest.mark.parametrize("lab", WRITTEN, ids=label)
def test_the_walkthrough_describes_every_test_its_tests_py_holds(lab):
    markdown = "\n".join(markdown_cells(lab))
    held = graded_tests_of(lab)

    described = DESCRIBED.findall(markdown)

    missing = [name for name in held if name not in described]
    stale = [name for name in described if name not in held]
    assert missing == [], (
        f"lesson {lab.label}'s walkthrough describes no test {missing}: add a line for each, "
        "ending with <!-- test: NAME -->, to its list of graded tests")
    assert stale == [], f"lesson {lab.label}'s walkthrough describes tests it does not hold: {stale}"
    assert len(described) == len(set(described)), "a test is described twice"


@pytest.mark.parametrize("lab", [lab for lab in WRITTEN if (lab.folder / "hints.toml").is_file()],
                         ids=label)
def test_every_section_a_hint_points_to_is_a_heading_of_the_walkthrough(lab):
    hints = tomlread.loads((lab.folder / "hints.toml").read_text(encoding="utf-8"))
    headings = {line.lstrip("#").strip() for cell in markdown_cells(lab)
                for line in cell.splitlines() if line.startswith("#")}

    sections = [entry["section"] for group in ("gaps", "tests")
                for entry in hints.get(group, {}).values()
                if isinstance(entry, dict) and "section" in entry]

    missing = sorted({section for section in sections if section not in headings})
    assert missing == [], (f"lesson {lab.label}'s hints.toml sends the student to sections its "
                           f"walkthrough has no heading for: {missing}")


def test_the_checks_above_can_fail():
    """The helpers read what they are given: a header, a footer and a checklist that are wrong
    are each told apart from right ones."""
    lab = course.find(10)
    wrong_checklist = ["1. Hold a conversation.", "2. **New:** Send a valid transcript."]

    assert checklist(["### Your harness can\n\n" + "\n".join(wrong_checklist)]) == wrong_checklist
    assert wrong_checklist != expected_checklist(lab)
    assert expected_header(lab) == ("*Watching and steering a run · ~50 min · 1 lab · builds on "
                                    "09 · But I had something to say*")
    assert expected_next(lab) == "**Next:** Checkpoint B · Transcript doctor II"
    assert before(course.find("B")).id == 10 and before(course.find(11)).id == "B"
    assert DESCRIBED.findall("a line <!-- test: test_x_y --> and <!--test: test_z -->") == ["test_x_y"]
