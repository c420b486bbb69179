"""Lesson 10 handed to a class: the student's edition holds none of the answer, installs with
its own README's command into a fresh virtual environment, grades what it carries, runs its
notebook on a real kernel, and its GitHub Classroom workflow, run step by step here, hands the
grading reporter the points the manifest gives.

The edition is built once for the module (lab-check --release 10 --output DIR, its notebook
executed on the finished harness), and installed once into a fresh venv made with
`python -m venv` (no packages of this test run's: pip fetches the lab's requirements from this
machine's package index, as a student's would). Each test that changes harness.py works in a
copy of the edition.
"""

import base64
import json
import re
import shutil
import subprocess
import sys
import tomllib

import nbformat
import pytest
import yaml
from jupyter_client.kernelspec import KernelSpecManager
from jupyter_client.manager import KernelManager
from nbclient import NotebookClient

from lab.course import lesson_files as lessons
from lab.course import manifest
from lab.release import classroom, leaks, visible
from conftest import PROJECT
from seed_outputs import SEED
from venvs import env_first_on_path, fresh_venv, shell

LESSON = lessons.lesson(10)
LISTED = manifest.read(LESSON)["tests"]
VISIBLE = [name for name, meta in LISTED.items() if meta["visibility"] == "visible"]
HIDDEN = [name for name in LISTED if name not in VISIBLE]
CELL_TIMEOUT = 120


@pytest.fixture(scope="module")
def edition(tmp_path_factory):
    folder = tmp_path_factory.mktemp("release") / "lesson-10"
    made = subprocess.run([sys.executable, str(PROJECT / "lab" / "lab_check.py"), "--release",
                           "10", "--output", str(folder)], capture_output=True, text=True,
                          timeout=600)
    assert made.returncode == 0, f"expected the edition to be built; got {made.stderr}"
    return folder


@pytest.fixture(scope="module")
def venv(edition, tmp_path_factory):
    """A fresh venv, first on PATH, into which the README's install block was run."""
    bin_folder = fresh_venv(tmp_path_factory.mktemp("student") / ".venv")
    env = env_first_on_path(bin_folder)
    installed = shell(readme_block(edition, "## 1. Install"), edition, env)
    assert installed.returncode == 0, f"the README's install failed:\n{installed.stderr[-3000:]}"
    return env


def readme_block(edition, heading):
    """The first ```sh block under `heading` in the edition's README.md."""
    text = (edition / "README.md").read_text()
    found = re.search(re.escape(heading) + r"\n.*?```sh\n(.*?)```", text, re.DOTALL)
    assert found, f"expected a ```sh block under {heading!r} in the edition's README"
    return found.group(1).strip()


def copy_of(edition, tmp_path, harness_text=None):
    copy = tmp_path / "student"
    shutil.copytree(edition, copy)
    if harness_text is not None:
        (copy / "harness.py").write_text(harness_text)
    return copy


# -- none of the answer --------------------------------------------------------------------

def test_no_line_of_any_gap_reaches_any_file_of_the_edition(edition):
    secret = leaks.answer_lines(LESSON.finished.read_text())

    found = leaks.leaks(edition, LESSON)

    assert len(secret) >= 10, f"expected the gaps to hold the answer's lines; found {secret}"
    assert found == [], "expected no trace of the answer; found:\n" + "\n".join(found)


def test_a_line_of_the_answer_hidden_in_a_notebook_output_is_found(edition, tmp_path):
    copy = copy_of(edition, tmp_path)
    nb = nbformat.read(copy / "walkthrough.ipynb", as_version=4)
    line = leaks.answer_lines(LESSON.finished.read_text())[-1]
    cell = next(c for c in nb.cells if c.cell_type == "code")
    cell.outputs.append(nbformat.v4.new_output("stream", name="stdout", text=f"    {line}\n"))
    nbformat.write(nb, copy / "walkthrough.ipynb")

    found = leaks.leaks(copy, LESSON)

    assert found == [f"walkthrough.ipynb: holds a line of the answer: {line}"], found


def test_edition_has_no_file_of_the_answer_and_no_instructor_tool(edition):
    files = [p.relative_to(edition) for p in edition.rglob("*") if p.is_file()]

    named = [str(p) for p in files if p.name == "finished.py"
             or {"right", "wrong", "release"} & set(p.parts[:-1])]

    assert named == [], f"expected no finished file, answers or release tools; found {named}"
    assert (edition / "harness.py").read_text() == LESSON.starter.read_text()


def test_edition_carries_the_visible_tests_only_and_counts_the_hidden_ones(edition):
    carried = manifest.graded_tests(edition / "tests.py")
    listed = tomllib.loads((edition / "manifest.toml").read_text())
    everything = "\n".join(p.read_text(errors="replace") for p in edition.rglob("*")
                           if p.is_file())

    assert carried == VISIBLE, f"expected the visible tests, in order; got {carried}"
    assert list(listed["tests"]) == VISIBLE
    assert listed["submission"] == {"hidden_tests": len(HIDDEN),
                                    "hidden_points": sum(LISTED[n]["points"] for n in HIDDEN)}
    assert [name for name in HIDDEN if name in everything] == []


def test_edition_notebook_shows_the_lessons_outputs_with_no_trace_of_where_they_came_from(edition):
    nb = nbformat.read(edition / "walkthrough.ipynb", as_version=4)
    code = [c for c in nb.cells if c.cell_type == "code"]
    shown = {c.id: "\n".join(line.rstrip() for line in "".join(
        o.get("text", "") for o in c.outputs).strip("\n").splitlines()) for c in code}

    unrun = [c.id for c in code if c.execution_count is None]
    errors = [c.id for c in code for o in c.outputs if o.output_type == "error"]
    differ = [cell_id for cell_id, text in SEED.items()
              if cell_id in shown and shown[cell_id] != "\n".join(
                  line.rstrip() for line in text.strip("\n").splitlines())]

    assert unrun == [] and errors == [], f"unrun cells {unrun}, cells in error {errors}"
    assert differ == [], f"expected these cells to print what the lesson shows: {differ}"
    assert shown["setup"].startswith("examples run on: harness.py"), shown["setup"]
    assert str(PROJECT) not in (edition / "walkthrough.ipynb").read_text()


def test_a_hidden_test_goes_with_what_only_it_used_and_its_section_comment():
    source = (
        "import copy\nimport lab\n\nSHARED = 1\nONLY_HIDDEN = 2\n\n\n"
        "def test_shown(student):\n    assert lab.shape([SHARED])\n\n\n"
        "# -- the hidden ones --\n\ndef made_up():\n    return copy.copy(ONLY_HIDDEN)\n\n\n"
        "@lab.given(made_up())\ndef test_hidden(student, record):\n    assert record\n")

    shown = visible.visible_tests(source, ["test_hidden"])

    assert shown == ("import lab\n\nSHARED = 1\n\n\n"
                     "def test_shown(student):\n    assert lab.shape([SHARED])\n"), shown


# -- installed as a student would ----------------------------------------------------------

def test_readme_check_on_the_starter_fails_and_counts_what_submission_adds(edition, venv):
    checked = shell(readme_block(edition, "## 2. Check"), edition, venv, timeout=600)

    assert checked.returncode == 1, f"expected the starter to fail; got {checked.returncode}:\n" \
                                    f"{checked.stdout[-2000:]}{checked.stderr[-2000:]}"
    told = checked.stdout[checked.stdout.index("Not run here:"):]
    assert told.startswith(f"Not run here: {len(HIDDEN)} more tests"), checked.stdout[-800:]
    assert "on Gradescope" in told and "this command does not" in told, told
    assert "neither does GitHub Classroom's check" in told, told
    assert f"0 of {sum(LISTED[n]['points'] for n in VISIBLE)} points" in checked.stdout


def test_the_seed_command_passes_every_visible_test_of_a_correct_harness(edition, venv, tmp_path):
    copy = copy_of(edition, tmp_path, harness_text=LESSON.finished.read_text())
    seed_command = "python lab/lab_check.py --harness harness.py --lesson 10 tests.py"

    checked = shell(seed_command + " --format json", copy, venv, timeout=600)

    grade = json.loads(checked.stdout)
    assert checked.returncode == 0, checked.stdout[-2000:] + checked.stderr[-2000:]
    assert [t["test"] for t in grade["tests"] if t["outcome"] == "passed"] == VISIBLE


def test_lab_check_in_the_edition_says_it_cannot_release_nor_verify(edition, venv):
    refused = shell("lab-check --release 10 --output elsewhere", edition, venv, timeout=120)
    verify = shell("lab-check --verify 10", edition, venv, timeout=120)

    assert refused.returncode == 2 and "student's copy" in refused.stderr, refused.stderr
    assert not (edition / "elsewhere").exists()
    assert verify.returncode == 2 and "student's copy" in verify.stderr, verify.stderr


def test_notebook_runs_in_the_edition_on_its_own_kernel_and_on_the_starter(edition, venv,
                                                                          tmp_path):
    copy = copy_of(edition, tmp_path)
    nb = nbformat.read(copy / "walkthrough.ipynb", as_version=4)
    kernels = tmp_path / "kernels" / "edition"
    kernels.mkdir(parents=True)
    python = venv["PATH"].split(":")[0] + "/python"
    (kernels / "kernel.json").write_text(json.dumps({
        "argv": [python, "-m", "ipykernel_launcher", "-f", "{connection_file}"],
        "display_name": "the edition's venv", "language": "python"}))
    specs = KernelSpecManager(kernel_dirs=[str(kernels.parent)])
    manager = KernelManager(kernel_name="edition", kernel_spec_manager=specs)
    client = NotebookClient(nb, km=manager, timeout=CELL_TIMEOUT, allow_errors=True,
                            resources={"metadata": {"path": str(copy)}})

    try:
        client.execute(env=venv, cwd=str(copy))
    finally:  # a client handed its manager leaves the kernel (and its connection file) running
        if manager.has_kernel:
            manager.shutdown_kernel(now=True)

    errors = [(c.id, o.ename, o.evalue) for c in nb.cells
              for o in c.get("outputs", []) if o.output_type == "error"]
    cell = {c.get("id"): c for c in nb.cells}
    setup, card = cell["setup"], cell["card-1"]
    assert errors == [], f"expected no cell to fail on the starter; got {errors}"
    setup = "".join(o.get("text", "") for o in setup.outputs)
    assert "it is your harness.py, which does not repair a dangling call yet" in setup, setup
    assert "view     U A[c1,c2] R(c1) U" in "".join(o.get("text", "") for o in card.outputs)


# -- GitHub Classroom --------------------------------------------------------------------

def run_workflow(copy, env, tmp_path):
    """Run classroom.yml's steps in order in `copy`: checkout is the copy itself, setup-python
    is the venv's Python (its version checked), `run` steps run in bash as on a runner, and
    the reporter step is read as the reporter reads its input. Returns the runners' results."""
    workflow = yaml.safe_load((copy / ".github" / "workflows" / "classroom.yml").read_text())
    outputs = {}
    for step in workflow["jobs"]["run-autograding-tests"]["steps"]:
        uses = step.get("uses", "")
        if uses.startswith("actions/checkout"):
            continue
        if uses.startswith("actions/setup-python"):
            asked = tuple(int(n) for n in str(step["with"]["python-version"]).split("."))
            assert sys.version_info[:len(asked)] >= asked, f"setup-python asks for {asked}"
            continue
        if "run" in step:
            output_file = tmp_path / f"output-{len(outputs)}"
            output_file.write_text("")
            ran = shell(step["run"], copy, dict(env, GITHUB_OUTPUT=str(output_file)))
            assert ran.returncode == 0, f"step {step['name']!r} failed:\n{ran.stderr[-2000:]}"
            if "id" in step:
                outputs[step["id"]] = dict(line.split("=", 1) for line in
                                           output_file.read_text().splitlines() if "=" in line)
            continue
        assert uses == classroom.REPORTER, f"expected only known steps; got {uses!r}"
        step_env = {name: re.sub(r"\$\{\{\s*steps\.([\w-]+)\.outputs\.(\w+)\s*\}\}",
                                 lambda m: outputs[m.group(1)][m.group(2)], value)
                    for name, value in step["env"].items()}
        return {runner: json.loads(base64.b64decode(step_env[f"{runner.strip().upper()}_RESULTS"]))
                for runner in step["with"]["runners"].split(",")}
    raise AssertionError("expected the workflow to end with the grading reporter")


def points(results):
    """(total, max) as the reporter adds them up for the classroom."""
    total = sum(t["score"] for r in results.values() if r["max_score"] for t in r["tests"])
    return total, sum(r["max_score"] for r in results.values())


@pytest.mark.parametrize("which", ["finished", "starter", "partial"])
def test_classroom_workflow_run_step_by_step_gives_the_reporter_the_manifests_points(
        edition, venv, tmp_path, which):
    harness = (LESSON.variant(LESSON.folder / "wrong" / "last_duplicate_wins.py")
               if which == "partial" else
               (LESSON.finished if which == "finished" else LESSON.starter).read_text())
    copy = copy_of(edition, tmp_path, harness_text=harness)
    worth = sum(LISTED[name]["points"] for name in VISIBLE)

    results = run_workflow(copy, venv, tmp_path)

    # one runner a visible test (classroom.py), each worth its test's points
    assert list(results) == [classroom.runner(i) for i in range(1, len(VISIBLE) + 1)]
    assert all(len(r["tests"]) == 1 for r in results.values())
    tests = [r["tests"][0] for r in results.values()]
    assert [t["name"] for t in tests] == [n.removeprefix("test_").replace("_", " ")
                                          for n in VISIBLE]
    assert [r["max_score"] for r in results.values()] == [LISTED[n]["points"] for n in VISIBLE]
    assert {t["status"] for t in tests} <= {"pass", "fail"}
    # the reporter's console and table score a runner as passed/total x max: the same sum here
    console = sum(sum(t["status"] == "pass" for t in r["tests"]) / len(r["tests"]) * r["max_score"]
                  for r in results.values())
    assert console == points(results)[0]
    if which == "finished":
        assert points(results) == (worth, worth)
    elif which == "partial":  # what lab-check gives the same file: the passed tests' points
        passed = [n for n, t in zip(VISIBLE, tests) if t["status"] == "pass"]
        assert 0 < points(results)[0] < worth
        assert points(results) == (sum(LISTED[n]["points"] for n in passed), worth)
    else:
        assert points(results) == (0, worth)
        given = [t for t in tests if t["status"] == "pass"]
        assert [t["score"] for t in given] == [0], "only the given test passes, worth 0"


def test_the_edition_installed_as_a_wheel_would_be_holds_every_module_of_its_lab(edition,
                                                                                 tmp_path):
    """pip's non-editable install copies only the packages pyproject.toml names: a folder of
    modules it leaves out (lab/sandbox has no __init__.py) is missing there, and so is
    the sandbox's side of lab_check."""
    target = tmp_path / "site-packages"
    done = subprocess.run([sys.executable, "-m", "pip", "install", "-q", "--no-deps",
                           "--target", str(target), str(edition)],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]

    shipped = {p.relative_to(edition).as_posix() for p in (edition / "lab").rglob("*.py")
               if "__pycache__" not in p.parts}
    installed = {p.relative_to(target).as_posix() for p in (target / "lab").rglob("*.py")
                 if "__pycache__" not in p.parts}
    assert "lab/sandbox/zygote.py" in shipped, sorted(shipped)
    assert shipped - installed == set(), f"not installed: {sorted(shipped - installed)}"
