"""One course from one source: the order in lessons/course.toml, and every lab's harness
composed from the changes of the labs before it (lab.course.compose), never copied."""

import pathlib
import shutil
import subprocess
import sys

import pytest

from lab.course import (decompose as absorb, carry_forward as carry, compose, order as course, lesson_files as lessons, patches, starter)

from lab.course import gap_markers
from lab.course.loading import nearly_right
from conftest import PROJECT

SEED_ORDER = ["01", "02", "03", "04", "05", "A", "06", "07", "08", "09", "10", "B",
              "11", "12", "13", "14", "15", "16"]
CHECKPOINT_B = PROJECT / "lessons" / "B-transcript-doctor-ii"


def rebuild(project, *options):
    return subprocess.run([sys.executable, "-m", "lab.course.starter", *options], cwd=project,
                          capture_output=True, text=True, timeout=120)


@pytest.fixture
def scratch(tmp_path):
    """A copy of the project's labs, to change and rebuild without touching the real one."""
    for folder in ("lab", "lessons"):
        shutil.copytree(PROJECT / folder, tmp_path / folder,
                        ignore=shutil.ignore_patterns("__pycache__", "*.ipynb"))
    for name in ("harness.py", "doctor.py", "doctor_a.py", "damaged.py"):
        shutil.copy(PROJECT / name, tmp_path / name)
    return tmp_path


def edit(path, old, new):
    text = path.read_text()
    assert text.count(old) == 1, f"{old!r} should be in {path} once"
    path.write_text(text.replace(old, new))


# -- the order --

def test_the_course_lists_the_seed_lessons_thread_in_order():
    order = course.labs()

    assert [lab.label for lab in order] == SEED_ORDER
    for at, lab in enumerate(order):
        earlier = [one.id for one in order[:at]]
        assert lab.builds_on is None if at == 0 else lab.builds_on in earlier, lab


def test_every_lesson_folder_is_a_lab_of_the_course_and_every_written_lab_has_one():
    folders = {p.name for p in (PROJECT / "lessons").iterdir() if p.is_dir()}
    named = {lab.folder.name for lab in course.labs() if lab.folder is not None}

    assert folders == named
    assert sorted(str(lab.id) for lab in course.labs() if lab.written) == \
        sorted(str(n) for n in lessons.available())


def test_the_course_refuses_a_lab_that_builds_on_one_not_listed_before_it(tmp_path):
    (tmp_path / "course.toml").write_text(
        'home = "02"\n[[lab]]\nid = "02"\ntitle = "t"\npart = "p"\nbuilds_on = "01"\n'
        'minutes = 1\nadds = "a"\nfolder = ""\nreleased = false\n')

    with pytest.raises(course.CourseError, match="builds on 01, which is not listed before it"):
        course.labs(tmp_path)


# -- composition --

@pytest.mark.parametrize("number", [10, 11, 16])
def test_where_names_a_labs_files_and_every_source_its_harness_is_composed_from(number):
    lesson = lessons.lesson(number)

    run = subprocess.run([sys.executable, "-m", "lab.lab_check", "--where", str(number)],
                         cwd=PROJECT, capture_output=True, text=True, timeout=60)

    lines = run.stdout.splitlines()
    assert lines[:3] == [f"starter: {lesson.starter}", f"finished: {lesson.finished}",
                         f"tests: {lesson.tests}"], run.stdout
    sources = [pathlib.Path(line.removeprefix("source: ")) for line in lines[3:]]
    assert all(line.startswith("source: ") for line in lines[3:]) and sources, run.stdout
    chain = [link.folder.name for link in course.chain(course.find(number))]
    assert [path.parent.name for path in sources if path.name == "changes.py"] == chain
    for at, path in enumerate(sources):  # a lab's edits come just before its changes.py
        assert path.name == "changes.py" or sources[at + 1] == path.with_name("changes.py")



def test_every_composed_and_generated_file_is_current():
    run = rebuild(PROJECT, "--check")

    assert run.returncode == 0, f"stale files; run `python -m lab.course.starter`:\n{run.stdout}{run.stderr}"


def test_sixteen_is_fifteens_harness_with_the_adapter_after_it():
    fifteen, sixteen = (compose.parse(gap_markers.solve(lessons.lesson(n).finished.read_text()))
                        for n in (15, 16))

    assert sixteen.regions[:-1] == fifteen.regions
    assert sixteen.regions[-1].name == "the adapter"


def test_a_one_line_change_to_lesson_01_reaches_every_lab_built_on_it(scratch):
    edit(scratch / "lessons/01-who-said-that/changes.py",
         'SYSTEM = "You are a helpful assistant."', 'SYSTEM = "You are a careful assistant."')

    stale = rebuild(scratch, "--check")
    made = rebuild(scratch)
    harnesses = subprocess.run(
        [sys.executable, "-c", "import pathlib; from lab.course.loading import nearly_right\n"
         "for p in sorted(pathlib.Path('lessons/B-transcript-doctor-ii').rglob('*.patch'), key=lambda p: p.stem):\n"
         "    print(p.stem, nearly_right(p).SYSTEM)"],
        cwd=scratch, capture_output=True, text=True, timeout=60)

    assert stale.returncode == 1
    for name in ("lessons/01-who-said-that/finished.py", "lessons/09-but-i-had-something-to-say/finished.py",
                 "lessons/10-poisoned-transcript/finished.py", "lessons/11-power-cable/finished.py",
                 "lessons/16-adapter/finished.py", "lessons/16-adapter/starter.py", "harness.py"):
        assert f"stale: {name}" in stale.stdout.splitlines(), stale.stdout
    assert made.returncode == 0, made.stderr
    for lesson in ("10-poisoned-transcript", "11-power-cable", "16-adapter"):
        assert "You are a careful assistant." in (scratch / "lessons" / lesson / "finished.py").read_text()
    assert harnesses.returncode == 0, harnesses.stderr
    assert harnesses.stdout.split() == [w for name in ("ash", "birch", "cedar", "dogwood", "elm", "fir")
                                        for w in (name, "You", "are", "a", "careful", "assistant.")]
    assert rebuild(scratch, "--check").returncode == 0


def test_a_checkpoint_patch_the_harness_moved_on_under_fails_the_rebuild_by_name(scratch):
    edit(scratch / "lessons/10-poisoned-transcript/changes.py",
         "repair_tool_history. A new list comes back; the record and its messages are not touched.",
         "repair_tool_history. A new list comes back; the record and its messages stay as they were.")

    run = rebuild(scratch)

    assert run.returncode == 1
    broken = [line.split(":")[1].strip() for line in run.stderr.splitlines() if line.startswith("broken:")]
    assert broken == ["lessons/B-transcript-doctor-ii/harnesses/dogwood.patch"], run.stderr


def test_a_stale_file_is_named_and_fails_the_check(scratch):
    edit(scratch / "lessons/16-adapter/finished.py", "def safe_trim(", "def safe_trim_(")

    run = rebuild(scratch, "--check")

    assert run.returncode == 1
    assert run.stdout.splitlines() == ["stale: lessons/16-adapter/finished.py"]


# -- what a change means --

PARENT = '''# lab: lesson 01
"""The parent."""

import json

# == 1 messages ==
# Who said what.

A = 1
B = 2


def f():
    return A


# == 2 loop ==
# The loop.

def run():
    return f()


def g():
    return 0
'''


def composed(changes):
    return compose.compose(PARENT, changes, "# lab: lesson 02")


def test_a_definition_the_parent_has_is_replaced_where_it_stands():
    out = composed('"""The child."""\n\n# == messages ==\n\ndef f():\n    return B\n')

    assert out == PARENT.replace("# lab: lesson 01", "# lab: lesson 02").replace(
        '"""The parent."""', '"""The child."""').replace("    return A", "    return B")


def test_a_new_definition_follows_the_one_written_before_it_else_ends_its_region():
    out = composed("# == loop ==\n\ndef run():\n    return 1\n\n\ndef h():\n    return 2\n"
                   "\n\n# == messages ==\nC = 3\n")

    assert compose.parse(out).regions[1].units[1].names == ("h",)
    assert [u.names for u in compose.parse(out).regions[0].units] == [("A",), ("B",), ("f",), ("C",)]


def test_a_region_the_parent_lacks_goes_after_the_region_written_before_it_and_is_numbered():
    out = composed("# == messages ==\n\n\n# == the view ==\n# What is sent.\n\ndef view():\n"
                   "    return []\n")

    assert [r.name for r in compose.parse(out).regions] == ["messages", "the view", "loop"]
    assert "# == 2 the view ==\n# What is sent.\n\ndef view():" in out
    assert "# == 3 loop ==" in out


def test_a_definition_written_under_another_region_moves_there():
    out = composed("# == loop ==\n\ndef f():\n    return A\n")

    regions = compose.parse(out).regions
    assert [u.names for u in regions[0].units] == [("A",), ("B",)]
    assert [u.names for u in regions[1].units] == [("run",), ("g",), ("f",)]


def test_drop_takes_a_definition_out_and_imports_are_merged():
    out = composed("import os\nimport json\n\n# drop: g\n\n# == loop ==\n")

    assert "def g" not in out
    assert "import json\nimport os\n" in out


@pytest.mark.parametrize("changes, complaint", [
    ("# drop: nothing_here\n", "names nothing the parent defines"),
    ("# == messages ==\nA, B = 3, 4\nB = 5\n", "would split"),
    ("x = 1\n# == messages ==\n", "before the first region header"),
    ("# == messages ==\ndef broken(:\n", "line 2"),
])
def test_a_change_that_does_not_fit_is_refused_naming_what(changes, complaint):
    with pytest.raises(compose.ComposeError, match=complaint):
        composed(changes)


def test_a_gap_is_one_unit_with_every_name_in_it():
    changes = ("# == loop ==\n\n# --- your code ---\nX = 1\n\n\ndef y():\n    return X\n"
               "# --- starter ---\n#| # write X and y\n# --- end ---\n")

    unit = compose.parse(changes).regions[0].units[0]

    assert unit.names == ("X", "y")
    assert unit.text.endswith("# --- end ---\n")


# -- the checkpoint's harnesses are changes --

@pytest.mark.parametrize("patch", sorted(CHECKPOINT_B.rglob("*.patch")), ids=lambda p: p.stem)
def test_each_checkpoint_harness_is_lesson_10_with_a_few_lines_changed(patch):
    text = patch.read_text()
    changed = [line for line in text.splitlines()[1:]
               if line[:1] in "+-" and not line.startswith(("+++", "---"))]

    assert 0 < len(changed) <= 24, f"{patch.name} changes {len(changed)} lines: a copy, not a change"
    assert nearly_right(patch).MISSING == patches.description(text).rsplit("Missing: ", 1)[1]


def test_a_patch_is_applied_word_for_word_or_not_at_all():
    patch = patches.diff("a\nb\nc\n", "a\nB\nc\n", name="x")

    assert patches.apply("a\nb\nc\n", patch) == "a\nB\nc\n"
    assert patches.apply("new\nlines\na\nb\nc\n", patch) == "new\nlines\na\nB\nc\n"
    with pytest.raises(patches.PatchError, match="hunk 1: the lines it changes, from 'a' on, are not in"):
        patches.apply("A\nb\nc\n", patch)


# -- carrying a student's own file forward --

def test_carrying_lesson_10s_reference_forward_gives_exactly_lesson_11s_starter():
    ten = gap_markers.solve(lessons.lesson(10).finished.read_text())

    carried = carry.carry_forward(ten, course.find(11))

    assert carried.text == lessons.lesson(11).starter.read_text()
    assert "Harness" in carried.replaced and "load_record" in carried.added


def test_what_the_next_lab_does_not_change_stays_the_students_word_for_word():
    ten = gap_markers.solve(lessons.lesson(10).finished.read_text())
    mine = ten.replace('return {"role": "user", "content": text}',
                       'return dict(role="user", content=text)  # my own way')

    carried = carry.carry_forward(mine, course.find(11))

    assert 'return dict(role="user", content=text)  # my own way' in carried.text
    assert "user_message" not in carried.replaced + carried.added


def test_a_file_that_is_not_a_harness_cannot_be_carried_and_says_where():
    with pytest.raises(compose.ComposeError, match="line 1: code before the first region header"):
        carry.carry_forward("x = 1\n", course.find(11))


def test_lessons_01_to_10_compose_to_lesson_10s_harness_each_adding_to_the_one_before():
    chain = course.chain(course.find(10))
    names = [compose.parse(gap_markers.solve((link.folder / "finished.py").read_text())).names()
             for link in chain if link.changes is not None]

    assert [link.label for link in chain] == ["01", "02", "03", "04", "05", "06", "07", "08", "09", "10"]
    for before, after in zip(names, names[1:]):
        assert before <= after | {"repair_tool_history"}, before - after
    assert {"SYSTEM", "user_message", "text_of", "run_agent"} <= names[0]
    assert {"Harness", "JsonRenderer", "INTERRUPTED", "repair_tool_history"} <= names[-1]


# -- no line written twice --

@pytest.mark.parametrize("lab", [lab for lab in course.labs()
                                 if lab.changes is not None and lab.builds_on is not None],
                         ids=lambda lab: lab.label)
def test_each_labs_sources_hold_only_what_it_adds_and_edit_what_it_keeps(lab):
    parent = starter.finished_text(course.find(lab.builds_on))
    finished = (lab.folder / "finished.py").read_text()

    changes, patch = absorb.changes_of(parent, finished, starter.declares(lab))

    assert lab.changes.read_text() == changes and (lab.edits.read_text() if lab.edits else None) == patch, (
        f"lab {lab.label}'s changes.py restates lines of its parent's harness (or misses a "
        f"shorter form): run `python -m lab.course.starter --absorb {lab.label}` and commit")


def test_absorbing_an_edited_finished_file_gives_changes_that_compose_it_back(scratch):
    ten = scratch / "lessons/10-poisoned-transcript/finished.py"
    edit(ten, "    def render(self, event):\n        print(json.dumps(event), file=self.out)\n",
         "    def render(self, event):\n        # the door is open again\n"
         "        print(json.dumps(event), file=self.out)\n")

    edited = ten.read_text()
    absorbed = rebuild(scratch, "--absorb", "10")

    assert absorbed.returncode == 0, absorbed.stdout + absorbed.stderr
    assert ten.read_text() == edited, "the rebuild after absorbing must give the edited file back"
    assert rebuild(scratch, "--check").returncode == 0
    assert "# the door is open again" in (scratch / "lessons/10-poisoned-transcript/changes.patch").read_text()
    assert "class JsonRenderer" not in (scratch / "lessons/10-poisoned-transcript/changes.py").read_text()
    assert "# the door is open again" in (scratch / "lessons/16-adapter/finished.py").read_text()
