"""lab_check on submissions that misbehave on purpose: whatever a harness does, lab_check
finishes in time, gives the right verdict, says in a line what happened, and leaves every file
it was given exactly as it was.

Each file in tests/submissions/ is one submission, its expectations in a header of comments:

    # base: finished      what it is appended to: finished (the lesson's finished harness),
    #                     starter (the student's starting point), or none (it is the whole file)
    # args: --time-limit 1 -k "orphan or steering"     lab_check's options for it
    # exit: 1             the exit status it must get
    # says: timed out after 1 s in `repair_tool_history`    (any number of them) a phrase the
    #                     report must contain
    # closing: 2 passed, 1 failed     the verdict on the report's score line, when given
    # needs: root         only graded as root (where the child becomes a user of its own)

Every submission is graded by a real `python lab/lab_check.py` process from a folder of its
own, several at once. Besides its verdict, each run must end within its time limits (one a
test and one for the import check) and a few seconds more, and leave its folder
byte-identical; and after the whole corpus the project must be byte-identical too, with no
process a submission started still running. Files that are not Python at all are graded here
without a header: each must exit 2 with a sentence saying what is wrong.
"""

import hashlib
import os
import pathlib
import re
import shlex
import shutil
import stat
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

import pytest

from conftest import LESSON_10, PROJECT
from lab.grading import account, linux
from lab.grading.sandbox import Limits

SUBMISSIONS = PROJECT / "tests" / "submissions"
BASES = {"finished": LESSON_10 / "finished.py", "starter": LESSON_10 / "starter.py"}
NEIGHBOURS = {"notes.txt": "my notes, not to be touched\n", "helper.py": "VALUE = 1\n"}
SLACK = 12          # seconds on top of the limits: two Pythons and pytest starting, on a busy machine
WORKERS = 4         # runs at once: most of a run is waiting, for a child or for a timeout
REPORT_LIMIT = 64 * 1024  # bytes of report; what a submission prints is capped well below this
LEFTOVER = "lab-corpus-leftover"  # in the command line of every process a submission leaves
CACHES = {".git", ".venv", "__pycache__", ".hypothesis", ".pytest_cache"}
IS_ROOT = os.geteuid() == 0
SCORE = re.compile(r"^score: .* points, (?P<passed>\d+) passed, (?P<failed>\d+) failed$",
                   re.MULTILINE)


# -- the corpus --------------------------------------------------------------------------------

@dataclass(frozen=True)
class Case:
    """One submission of the corpus and what it must get."""
    name: str
    text: str
    exit: int
    says: tuple = ()
    closing: str = ""
    args: tuple = ()
    needs_root: bool = False

    @classmethod
    def read(cls, path):
        """The case the file at `path` stands for; ValueError when its header lacks a base
        or an exit status."""
        source = path.read_text()
        header = {}
        for line in source.splitlines():
            if not line.startswith("#"):
                break
            found = re.match(r"# (base|args|exit|says|closing|needs): (.*)$", line)
            if found:
                header.setdefault(found[1], []).append(found[2])
        if "base" not in header or "exit" not in header:
            raise ValueError(f"{path.name} needs a '# base:' and an '# exit:' line in its header")
        base = header["base"][0]
        text = source if base == "none" else (
            f"{BASES[base].read_text()}\n\n# == tests/submissions/{path.name}, appended ==\n{source}")
        return cls(name=path.stem, text=text, exit=int(header["exit"][0]),
                   says=tuple(header.get("says", ())), closing=header.get("closing", [""])[0],
                   args=tuple(shlex.split(header.get("args", [""])[0])),
                   needs_root=header.get("needs", [""])[0] == "root")

    @property
    def time_limit(self):
        """The seconds each of its tests may take, as its args set them."""
        if "--time-limit" not in self.args:
            return Limits.seconds
        return float(self.args[self.args.index("--time-limit") + 1])


CASES = [Case.read(path) for path in sorted(SUBMISSIONS.glob("*.py"))]
RUNNABLE = [case for case in CASES if IS_ROOT or not case.needs_root]


@dataclass
class Run:
    """What one lab_check process did with one submission."""
    returncode: int
    stdout: str
    stderr: str
    seconds: float
    folder_before: dict
    folder_after: dict

    @property
    def graded(self):
        """How many tests the report counts on its score line."""
        found = SCORE.search(self.stdout)
        return int(found["passed"]) + int(found["failed"]) if found else 0

    @property
    def closing(self):
        return verdict_of(self.stdout)


def verdict_of(report):
    """A report's verdict: "N passed, N failed" from its score line, else its last line."""
    found = SCORE.search(report)
    lines = report.strip().splitlines()
    return f"{found['passed']} passed, {found['failed']} failed" if found \
        else (lines[-1] if lines else "")


@dataclass
class Corpus:
    """Every run by submission name, the project before and after, what was left running."""
    runs: dict
    project_before: dict
    project_after: dict
    leftovers: list
    seconds: float = 0.0


def lab_check(folder, *args, timeout, preexec_fn=None, project=PROJECT):
    """A real lab_check process, the one in `project`, working in `folder`, with no standard
    input."""
    return subprocess.run([sys.executable, str(pathlib.Path(project) / "lab" / "lab_check.py"),
                           *args], cwd=folder, timeout=timeout, capture_output=True, text=True,
                          stdin=subprocess.DEVNULL, preexec_fn=preexec_fn)


def submission_folder(parent, text):
    """A folder as a student's looks: harness.py and a few neighbours; readable by anyone."""
    folder = pathlib.Path(parent)
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "harness.py").write_text(text)
    for name, content in NEIGHBOURS.items():
        (folder / name).write_text(content)
    folder.chmod(0o755)
    return folder


def grade_case(case, parent, project=PROJECT):
    """The Run of lab_check (the one in `project`) on `case`, from a new folder `parent`."""
    folder = submission_folder(parent, case.text)
    before = tree(folder)
    started = time.monotonic()
    budget = 2 * case.time_limit * 21 + 60  # only so that a broken grader cannot hang the suite
    try:
        done = lab_check(folder, "--harness", str(folder / "harness.py"), "--lesson", "10",
                         *case.args, timeout=budget, project=project)
        returncode, stdout, stderr = done.returncode, done.stdout, done.stderr
    except subprocess.TimeoutExpired as expired:
        returncode, stdout, stderr = None, str(expired.stdout or ""), "still running after " \
            f"{budget} s: the suite stopped it"
    return Run(returncode, stdout, stderr, time.monotonic() - started, before, tree(folder))


def tree(root, skip=frozenset()):
    """{path relative to `root`: what it is}: the mode and sha256 of each file, the target of
    each link, the mode of anything else (a folder, a pipe: never read, a pipe would block);
    nothing under a name in `skip`."""
    found = {}
    for folder, folders, files in os.walk(root):
        folders[:] = sorted(name for name in folders if name not in skip)
        for name in folders + sorted(files):
            path = os.path.join(folder, name)
            mode = os.lstat(path).st_mode
            if stat.S_ISLNK(mode):
                what = "link to " + os.readlink(path)
            elif stat.S_ISREG(mode):
                what = f"{oct(mode)} {hashlib.sha256(pathlib.Path(path).read_bytes()).hexdigest()}"
            else:
                what = oct(mode)
            found[os.path.relpath(path, root)] = what
    return found


def changes(before, after):
    return ([f"changed: {p}" for p in sorted(before) if p in after and before[p] != after[p]]
            + [f"gone: {p}" for p in sorted(set(before) - set(after))]
            + [f"new: {p}" for p in sorted(set(after) - set(before))])


def leftover_processes():
    """Command lines of the processes still running that a submission marked as its own."""
    found = []
    for pid, (_, _, state) in linux.processes().items():
        try:
            words = pathlib.Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
        except OSError:  # it ended while we looked: not a leftover
            continue
        if state != "Z" and any(LEFTOVER.encode() in word for word in words):
            found.append(f"{pid}: {b' '.join(words).decode(errors='replace')}")
    return found


@pytest.fixture(scope="module")
def corpus(tmp_path_factory):
    """Every runnable submission graded, WORKERS at a time, by the lab_check of a copy of the
    project made for the corpus (so that nobody's editing of the project meanwhile can look
    like a submission's doing), that copy hashed before and after, and the processes the
    submissions marked looked for at the end."""
    parent = tmp_path_factory.mktemp("corpus")
    project = parent / "project"
    shutil.copytree(PROJECT, project, ignore=shutil.ignore_patterns(*CACHES))
    for folder in [parent, *(path for path in project.rglob("*") if path.is_dir())]:
        folder.chmod(0o755)  # as an installed project is: readable by anyone, written by root
    project_before = tree(project, skip=CACHES)
    started = time.monotonic()
    with ThreadPoolExecutor(WORKERS) as pool:
        runs = dict(zip([case.name for case in RUNNABLE], pool.map(
            lambda case: grade_case(case, parent / "students" / case.name, project), RUNNABLE)))
    seconds = time.monotonic() - started
    print(f"\nthe corpus: {len(runs)} submissions graded in {seconds:.1f} s")
    return Corpus(runs=runs, project_before=project_before,
                  project_after=tree(project, skip=CACHES), leftovers=leftover_processes(),
                  seconds=seconds)


def runnable(case):
    if case.needs_root and not IS_ROOT:
        pytest.skip("as an ordinary user, the grader cannot make the child anyone else: only "
                    "its scratch folder keeps it from the student's files")
    return case


def ids(case):
    return case.name


# -- what every submission must get ------------------------------------------------------------

@pytest.mark.parametrize("case", CASES, ids=ids)
def test_each_misbehaving_submission_gets_its_verdict_and_says_why(corpus, case):
    run = corpus.runs[runnable(case).name]

    shown = f"exit {run.returncode}\n{run.stdout[-6000:]}\nstderr:\n{run.stderr[-3000:]}"
    assert run.returncode == case.exit, f"{case.name}: expected exit {case.exit}, got {shown}"
    for phrase in case.says:
        assert phrase in run.stdout, f"{case.name}: the report should say {phrase!r}: {shown}"
    if case.closing:
        assert run.closing == case.closing, f"{case.name}: expected {case.closing!r}: {shown}"
    assert len(run.stdout) < REPORT_LIMIT, \
        f"{case.name}: a report of {len(run.stdout)} bytes; what a harness prints is capped"


@pytest.mark.parametrize("case", CASES, ids=ids)
def test_each_run_ends_within_its_time_limits_and_a_few_seconds(corpus, case):
    run = corpus.runs[runnable(case).name]

    limit = (run.graded + 1) * case.time_limit + SLACK
    assert run.seconds <= limit, (f"{case.name}: {run.graded} tests of {case.time_limit:g} s "
                                  f"and the import check took {run.seconds:.1f} s, more than "
                                  f"{limit:g} s")


@pytest.mark.parametrize("case", CASES, ids=ids)
def test_each_submission_leaves_its_folder_byte_identical(corpus, case):
    run = corpus.runs[runnable(case).name]

    assert run.folder_after == run.folder_before, \
        f"{case.name} changed its folder: {changes(run.folder_before, run.folder_after)}"


def test_the_project_is_byte_identical_after_the_whole_corpus(corpus):
    assert corpus.runs, "no submission was graded"

    assert corpus.project_after == corpus.project_before, \
        f"the project changed: {changes(corpus.project_before, corpus.project_after)[:20]}"


def test_no_process_a_submission_started_outlives_its_grading(corpus):
    assert "hides_processes_it_started" in corpus.runs, "the submission that hides is missing"

    assert not corpus.leftovers, f"still running: {corpus.leftovers}"


def test_no_submission_passes_unless_its_header_says_it_should(corpus):
    passed = sorted(name for name, run in corpus.runs.items() if run.returncode == 0)

    expected = sorted(case.name for case in RUNNABLE if case.exit == 0)
    assert passed == expected, f"passed: {passed}; should have: {expected}"


# -- the limits: documented, and changed from the command line ---------------------------------

def test_lab_check_help_documents_both_limits_and_their_defaults(tmp_path):
    run = lab_check(tmp_path, "--help", timeout=60)

    text = " ".join(run.stdout.split())
    assert "--time-limit SECONDS how long each test may take" in text, run.stdout
    assert f"(default {Limits.seconds:g})" in text, run.stdout
    assert "--memory-limit MB how many MiB your code may allocate in each test" in text, run.stdout
    assert f"(default {Limits.memory_mb})" in text, run.stdout


def test_a_harness_within_the_default_memory_limit_fails_a_smaller_one_and_says_which(tmp_path):
    case = next(case for case in CASES if case.name == "allocates_a_few_hundred_megabytes")
    folder = submission_folder(tmp_path, case.text)

    run = lab_check(folder, "--harness", "harness.py", "--lesson", "10", "--memory-limit", "200",
                    "-k", "orphan", timeout=120)

    assert run.returncode == 2, f"exit {run.returncode}:\n{run.stdout}\n{run.stderr}"
    assert "ran out of memory while being imported" in run.stdout, run.stdout
    assert "the lab allows 200 MiB (lab_check --memory-limit)" in run.stdout, run.stdout


# -- as an ordinary user, where the child cannot become anyone else -----------------------------

def as_an_ordinary_user():
    """In the child, before exec: become `nobody`, keeping only the right to read any file (the
    Python running these tests may live in a folder only root can read)."""
    linux.prctl(linux.PR_SET_KEEPCAPS, 1)
    os.setgroups([])
    os.setgid(account.NOBODY)
    os.setuid(account.NOBODY)
    linux.keep_only(linux.CAP_DAC_READ_SEARCH)


def graded_as_an_ordinary_user(name, tmp_path, *args):
    """lab_check on the corpus's submission `name`, run as nobody when these tests run as root
    (as whoever runs them otherwise)."""
    case = next(case for case in CASES if case.name == name)
    folder = submission_folder(tmp_path / "student", case.text)
    tmp_path.chmod(0o755)
    return lab_check(folder, "--harness", str(folder / "harness.py"), "--lesson", "10", *args,
                     timeout=120, preexec_fn=as_an_ordinary_user if IS_ROOT else None)


def test_a_harness_that_kills_its_grader_as_an_ordinary_user_gets_a_failure_that_says_so(
        tmp_path):
    run = graded_as_an_ordinary_user("kills_its_grader", tmp_path, "--time-limit", "3",
                                     "-k", "orphan or steering")

    assert run.returncode == 1, f"exit {run.returncode}:\n{run.stdout}\n{run.stderr}"
    assert "the grading process was killed by SIGKILL" in run.stdout, run.stdout
    assert verdict_of(run.stdout) == "0 passed, 1 failed", run.stdout


def test_as_an_ordinary_user_the_processes_a_harness_hides_are_killed_too(tmp_path):
    run = graded_as_an_ordinary_user("hides_processes_it_started", tmp_path, "--time-limit", "3",
                                     "-k", "orphan or steering")

    assert run.returncode == 0, f"exit {run.returncode}:\n{run.stdout}\n{run.stderr}"
    assert not leftover_processes(), f"still running: {leftover_processes()}"


# -- files that are not Python at all ----------------------------------------------------------

def _write(name, data):
    def make(folder):
        path = folder / name
        path.write_bytes(data)
        return name
    return make


def _folder(folder):
    (folder / "harness.py").mkdir()
    return "harness.py"


def _fifo(folder):
    os.mkfifo(folder / "harness.py")
    return "harness.py"


NOT_PYTHON = {
    "empty": (_write("harness.py", b""), "is empty"),
    "only blank lines": (_write("harness.py", b"\n  \n\t\n"), "is empty"),
    "binary": (_write("harness.py", b"\x7fELF\x02\x01\x01\x00\x00\x00"), "is a binary file"),
    "not utf-8": (_write("harness.py", b"# caf\xe9\nSYSTEM = 'x'\n"), "is not UTF-8 text (byte 5"),
    "too large": (_write("harness.py", b"#" * (6 * 1024 * 1024)), "larger than the 5 MiB"),
    "a folder": (_folder, "is a folder, not a file"),
    "a named pipe": (_fifo, "is not a regular file"),
    "no such file": (lambda folder: "nowhere/harness.py", "does not exist"),
    "a syntax error": (_write("harness.py", b"def repair(:\n"), "syntax error on line 1"),
}


@pytest.mark.parametrize("make, phrase", NOT_PYTHON.values(), ids=NOT_PYTHON.keys())
def test_a_file_that_is_not_python_source_exits_2_with_a_sentence(tmp_path, make, phrase):
    name = make(tmp_path)

    run = lab_check(tmp_path, "--harness", name, "--lesson", "10", timeout=60)

    assert run.returncode == 2, f"exit {run.returncode}:\n{run.stdout}\n{run.stderr}"
    assert phrase in run.stdout, f"the report should say {phrase!r}:\n{run.stdout}"
    assert run.stdout.strip().endswith("nothing was graded"), run.stdout
