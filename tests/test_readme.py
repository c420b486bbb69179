"""The README is a student's page and the guides in docs/ say the rest: two set-up commands on
the first screen, the first starting a newcomer at lesson 01, CI running the second word for
word; every generated block current; no checkpoint's answer in any document; every command
they show one that works."""

import ast
import os
import pathlib
import re
import shlex
import subprocess
import sys

import pytest

from conftest import PROJECT
from course_copy import scratch_course

DOCUMENTS = [PROJECT / "README.md", *sorted((PROJECT / "docs").glob("*.md"))]
# what a student reads of a lab: its walkthrough (the notebook's source) and its starter file
LESSON_TEXTS = sorted([*(PROJECT / "lessons").glob("*/walkthrough.py"),
                       *(PROJECT / "lessons").glob("*/starter.py")])
FIRST_SCREEN = 40  # lines: what a reader sees before scrolling


def readme():
    return (PROJECT / "README.md").read_text(encoding="utf-8")


def sh_blocks(text):
    return re.findall(r"```sh\n(.*?)\n```", text, re.DOTALL)


def first_commands():
    return sh_blocks(readme())[:2]


def lab_check(copy, *args):
    return subprocess.run([sys.executable, str(copy / "lab" / "lab_check.py"), *args],
                          capture_output=True, text=True, cwd=copy, timeout=600)


# -- the first screen ---------------------------------------------------------------------------

def test_the_first_screen_holds_exactly_two_set_up_commands():
    screen = "\n".join(readme().splitlines()[:FIRST_SCREEN])

    blocks = sh_blocks(screen)

    assert len(blocks) == 2, f"expected two ```sh blocks in the README's first {FIRST_SCREEN} " \
        f"lines; found {len(blocks)}"
    assert all("\n" not in block for block in blocks), "each set-up command is one line"


def test_the_first_command_installs_what_a_notebook_needs_and_starts_at_lesson_01():
    check, _ = first_commands()

    assert "pip install -q -e '.[notebook]'" in check, check
    assert check.endswith("lab-check --reset --lesson 01 && .venv/bin/lab-check"), check


def test_ci_runs_the_readmes_test_command_word_for_word():
    _, tests = first_commands()

    ci = (PROJECT / ".ci" / "run").read_text().splitlines()
    assert tests in ci, f".ci/run should hold the README's test command as a line:\n{tests}"
    assert "pip install" in tests and "python -m pytest" in tests, tests
    assert "'.[test,notebook]'" in tests, "the suite opens notebooks: the test install brings " \
        "the notebook extra too"


def test_the_first_grading_starts_lesson_01_and_leaves_no_mark_on_a_lab_never_started(tmp_path):
    copy = scratch_course(tmp_path)
    check, _ = first_commands()
    grading = check.split(" && ", 2)[2]  # what runs once the lab is installed
    reset, grade = [shlex.split(part)[1:] for part in grading.split(" && ")]

    started, graded = lab_check(copy, *reset), lab_check(copy, *grade)
    shown = lab_check(copy, "--course")

    assert started.returncode == 0, started.stdout + started.stderr
    assert graded.returncode == 1 and "Traceback" not in graded.stderr, graded.stderr
    assert (copy / "harness.py").read_text().startswith("# lab: lesson 01"), "harness.py at 01"
    rows = {line.split()[0]: line for line in shown.stdout.splitlines()
            if re.match(r"  \S+ ", line)}
    assert "in progress" in rows["01"] and rows["01"].endswith("<- you are here"), shown.stdout
    assert all("in progress" not in row and "passed" not in row
               for name, row in rows.items() if name != "01"), shown.stdout


# -- the install line ---------------------------------------------------------------------------

def install_line():
    _, tests = first_commands()
    return tests.split(" && npm ci", 1)[0]


@pytest.mark.parametrize("present, nodejs_version, expected", [
    ({"chromium", "bwrap", "node", "npm"}, "18.19.0+dfsg-6", None),
    ({"bwrap", "node", "npm"}, "20.11.0-1nodesource1", "chromium"),
    ({"chromium", "node", "npm"}, "20.11.0-1nodesource1", "bubblewrap"),
    ({"chromium", "bwrap", "node"}, "20.11.0-1nodesource1", None),
    ({"chromium", "bwrap", "node"}, "18.19.0+dfsg-6", "npm"),
    ({"chromium", "bwrap"}, None, "nodejs npm"),
    (set(), None, "chromium bubblewrap nodejs npm"),
], ids=["nothing missing", "chromium missing beside nodesource", "bwrap missing",
        "nodesource without npm", "debian nodejs without npm", "no node at all", "bare machine"])
def test_the_install_line_installs_only_what_is_missing_and_never_npm_over_nodesource(
        tmp_path, present, nodejs_version, expected):
    bin_ = tmp_path / "bin"
    bin_.mkdir()
    log = tmp_path / "apt.log"
    for name in present:
        (bin_ / name).write_text("#!/bin/sh\nexit 0\n")
    for tool in ("grep", "xargs", "cat", "sh", "rm", "test"):
        found = next((p for p in ("/usr/bin", "/bin") if os.path.exists(f"{p}/{tool}")), None)
        if found:
            os.symlink(f"{found}/{tool}", bin_ / tool)
    (bin_ / "apt-get").write_text(f"#!/bin/sh\necho \"$@\" >> {log}\n")
    known = f"printf '%s' '{nodejs_version}'; exit 0" if nodejs_version else "exit 1"
    (bin_ / "dpkg-query").write_text(f"#!/bin/sh\n{known}\n")
    for tool in bin_.iterdir():
        tool.chmod(0o755)

    ran = subprocess.run(["/bin/bash", "-c", "set -euo pipefail; " + install_line()],
                         env={"PATH": str(bin_)}, cwd=tmp_path, capture_output=True, text=True,
                         timeout=60)

    assert ran.returncode == 0, ran.stderr
    calls = log.read_text().splitlines() if log.exists() else []
    installs = [call.split()[-len(expected.split()):] for call in calls if "install" in call] \
        if expected else []
    assert (installs == [expected.split()]) if expected else calls == [], (calls, expected)
    assert not list(tmp_path.glob(".missing*")), "the line leaves no file behind"


# -- generated blocks ---------------------------------------------------------------------------

def test_every_generated_block_is_what_its_command_makes():
    ran = subprocess.run([sys.executable, "-m", "lab.docs", "--check"], cwd=PROJECT,
                         capture_output=True, text=True, timeout=300)

    assert ran.returncode == 0, f"run python -m lab.docs to rewrite:\n{ran.stdout}{ran.stderr}"


def test_a_stale_block_is_caught_and_rewritten(tmp_path):
    from lab.docs import blocks, made

    for block in made.EVERY:
        path = tmp_path / block.document
        path.parent.mkdir(parents=True, exist_ok=True)
        text = (PROJECT / block.document).read_text(encoding="utf-8")
        path.write_text(blocks.replace(text, block.name, "stale\n"), encoding="utf-8")

    assert all(block.stale(tmp_path) for block in made.EVERY)
    assert all(made.rewrite(block, tmp_path) for block in made.EVERY)
    assert not any(block.stale(tmp_path) for block in made.EVERY)


def test_the_options_reference_names_every_option_the_parser_takes():
    from lab import lab_check as cli
    from lab.docs import blocks

    shown = blocks.read((PROJECT / "docs" / "options.md").read_text(encoding="utf-8"), "options")

    for action in cli.parser()._actions:
        for flag in action.option_strings:
            assert re.search(rf"[`, ]{re.escape(flag)}\b", shown), f"{flag} is not in docs/options.md"


# -- no checkpoint's answer ---------------------------------------------------------------------

STOP = {"the", "a", "an", "of", "to", "in", "on", "is", "its", "every", "out", "never", "not",
        "and", "or", "at", "by", "one"}


def checkpoint_answers():
    """For each checkpoint: its harnesses' names and, for each, the words of its missing idea."""
    found = []
    for folder in sorted((PROJECT / "lessons").glob("[A-Z]-*")):
        tree = ast.parse((folder / "finished.py").read_text(encoding="utf-8"))
        diagnosis = next(ast.literal_eval(node.value) for node in tree.body
                         if isinstance(node, ast.Assign)
                         and getattr(node.targets[0], "id", "") == "DIAGNOSIS")
        found.append({name: {w for w in idea.split("_") if w not in STOP}
                      for name, idea in diagnosis.items()})
    return found


def leaks(text):
    """The paragraphs of `text` that name a checkpoint's harness and say which ideas they lack
    (two or more of their missing ideas, each by two words of its own or more, in its prose:
    code in backticks, such as `is_empty_failure`, names a function, not an answer)."""
    found = []
    text = re.sub(r"^# ?", "", text, flags=re.MULTILINE)  # a walkthrough's markdown lines
    for paragraph in re.split(r"\n\s*\n", text):
        prose = re.sub(r"`[^`\n]*`", " ", paragraph)  # names of code are not what it says
        words = set(re.findall(r"[a-z]+", prose.lower()))
        for answers in checkpoint_answers():
            if not set(answers) & words:
                continue
            told = [name for name, idea in answers.items() if len(idea & words) >= 2]
            if len(told) >= 2:
                found.append((told, paragraph[:200]))
    return found


def test_the_leak_check_catches_the_old_readmes_list_of_checkpoint_as_missing_ideas():
    old = ("The grader holds five harnesses (auk, bittern, crane, dunlin, egret), each lesson "
           "05's finished harness with one idea taken out (a result filed under its call's id, "
           "every call of a reply answered in order, a run that carries on after a tool error, "
           "a turn limit that counts every request, an empty failure left out of the view).")

    assert leaks(old), "a paragraph naming the harnesses beside their missing ideas is a leak"
    assert not leaks("The grader holds five harnesses (auk, bittern, crane, dunlin, egret).")


@pytest.mark.parametrize("document", DOCUMENTS + LESSON_TEXTS,
                         ids=lambda p: p.relative_to(PROJECT).as_posix())
def test_no_document_gives_a_checkpoints_answer(document):
    assert leaks(document.read_text(encoding="utf-8")) == []


# -- every command shown works ------------------------------------------------------------------

def shown_commands():
    """Every command line of every ```sh block of the README and docs/, with its document."""
    for document in DOCUMENTS:
        for block in sh_blocks(document.read_text(encoding="utf-8")):
            for line in block.splitlines():
                line = line.split("  #", 1)[0].strip()
                if line and not line.startswith("#"):
                    yield document.relative_to(PROJECT).as_posix(), line


def lab_check_calls(line):
    """The lab-check invocations of a shell line (`a && b` gives each), as argument lists."""
    for part in line.split(" && "):
        first = part.split(maxsplit=2)
        if first and os.path.basename(first[0]) in ("lab-check", "lab_check.py"):
            yield shlex.split(part)[1:]
        elif first[:2] == ["python", "lab/lab_check.py"]:
            yield shlex.split(part)[2:]


def test_every_lab_check_command_shown_is_one_lab_check_takes():
    from lab import lab_check as cli

    calls = [(doc, line, args) for doc, line in shown_commands() for args in lab_check_calls(line)]

    assert len(calls) > 20, calls
    for doc, line, args in calls:
        parsed = cli.parser().parse_args(args)
        assert cli._mistake(parsed) is None, (doc, line, cli._mistake(parsed))


def test_the_readmes_student_commands_run_without_a_traceback(tmp_path):
    copy = scratch_course(tmp_path)
    calls = [args for doc, line in shown_commands() if doc == "README.md"
             for args in lab_check_calls(line)]

    assert any(args == ["--next"] for args in calls), calls
    for args in calls:
        ran = lab_check(copy, *args)
        assert "Traceback" not in ran.stdout + ran.stderr, (args, ran.stderr)
        assert ran.returncode in (0, 1), (args, ran.returncode, ran.stdout, ran.stderr)


def test_the_readmes_notebook_command_names_a_notebook_and_jupyter_lab_is_installed():
    lines = [line for doc, line in shown_commands() if "jupyter lab" in line]

    assert lines, "the README shows how to open a lesson's notebook"
    for line in lines:
        words = shlex.split(line)
        assert (PROJECT / words[-1]).is_file(), words[-1]
        jupyter = pathlib.Path(sys.executable).parent / os.path.basename(words[0])
        version = subprocess.run([str(jupyter), "lab", "--version"],
                                 capture_output=True, text=True, timeout=120)
        assert version.returncode == 0, version.stderr


# -- the options the README documented keep working (issue 29, item 8) --------------------------

# Every lab-check command line the README showed before it became a student's page, word for
# word: instructors script them, so each must still parse and pass lab-check's own checks.
DOCUMENTED_BEFORE = [
    "--harness harness.py --lesson 10",
    "--reset --lesson 01",
    "--course", "--next", "--reset --lesson 11",
    "--harness doctor.py", "--next --harness doctor.py",
    "--harness doctor.py --lesson B", "--where B", "--verify B",
    "--release B --output DIR", "--release B --gradescope FILE.zip",
    "--harness doctor_a.py --lesson A",
    "--harness harness.py --lesson 11",
    "--harness lessons/16-adapter/starter.py --lesson 16", "--where 16",
    "--format json", "--site site/", "--site site/ --lesson 10",
    "-k orphan", "--watch", "--hint", "--hint TEST", "--reset", "--where 10",
    "--harness harness.py --lesson 10 tests.py",
    "--harness harness.py --lesson 10 --format json --output FILE",
    "--harness harness.py --lesson 10 --format junit --output FILE",
    "--harness harness.py --lesson 10 --format gradescope --output FILE",
    "--lesson 10 --batch submissions/ --output graded/ --jobs 2 --seed 2026",
    "--lesson 10 --batch submissions/ --output graded/ --resume --jobs 2",
    "--lesson 10 --batch submissions/ --output graded/ --only alice 'José García'",
    "--lesson 10 --batch download/ --output graded/ --jobs 2 --export canvas --roster "
    "export.csv --assignment 'Lab 10 (4321)' --due 2026-12-01T23:59-05:00 --late-policy "
    "10%/day,max=50%",
    "--lesson 10 --batch download/ --output graded/ --export csv",
    "--lesson 10 --batch submissions/ --output results/ --format gradescope",
    "--lesson 10 --batch submissions/ --output graded/ --seed 7 --seed-per-student",
    "--lesson 10 --batch submissions/ --output graded/ --show-hidden",
    "--verify 10", "--release 10 --output lesson-10/",
    "--release 10 --gradescope lesson-10-autograder.zip",
    "--release 10 --gradescope FILE.zip --show-hidden",
    "--release 10 --gradescope FILE.zip --late-policy 10%/day",
    "--harness harness.py --time-limit 10 --memory-limit 2048",
    "--harness harness.py --require-isolation", "--harness harness.py --allow-unisolated "
    "--format json", "--verbose", "--seed 5",
]


@pytest.mark.parametrize("command", DOCUMENTED_BEFORE)
def test_an_option_the_readme_documented_still_parses_as_it_did(command):
    from lab import lab_check as cli

    parsed = cli.parser().parse_args(shlex.split(command))

    assert cli._mistake(parsed) is None, (command, cli._mistake(parsed))
    given = {word.split("=")[0] for word in shlex.split(command) if word.startswith("-")}
    for flag in given:
        action = next(a for a in cli.parser()._actions if flag in a.option_strings)
        assert getattr(parsed, action.dest) not in (None, False), (command, flag)
