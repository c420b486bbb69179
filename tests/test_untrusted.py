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
    # exit (none): 1      any of exit, says and closing for one kind of isolation only
    #                     (bubblewrap, uid or none), in place of the lines for every kind

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
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

import pytest

import plain_user
from conftest import CACHES, LESSON_10, PROJECT
from lab.sandbox import ipc, landlock, linux
from lab.worker.tidy import remove_tree
from lab.sandbox.protocol import Limits

SUBMISSIONS = PROJECT / "tests" / "submissions"
BASES = {"finished": LESSON_10 / "finished.py", "starter": LESSON_10 / "starter.py"}
NEIGHBOURS = {"notes.txt": "my notes, not to be touched\n", "helper.py": "VALUE = 1\n"}
SLACK = 12          # seconds on top of the limits: two Pythons and pytest starting, on a busy machine
WORKERS = 4         # runs at once: most of a run is waiting, for a child or for a timeout
REPORT_LIMIT = 64 * 1024  # bytes of report; what a submission prints is capped well below this
LEFTOVER = "lab-corpus-leftover"  # in the command line of every process a submission leaves
IS_ROOT = os.geteuid() == 0
SEED = 1  # the corpus's inputs, the same every run: a verdict that depends on luck is no test
FORGEABLE = "not isolated: a submission could forge this grade"


@dataclass(frozen=True)
class Mode:
    """One way of grading the corpus: who runs lab_check (root, or a plain user: see
    plain_user.py) and which isolation it is told to use ("": the strongest there is)."""
    name: str
    who: str
    isolation: str = ""

    @property
    def env(self):
        return {"LAB_ISOLATION": self.isolation} if self.isolation else {}

    @property
    def kind(self):
        return self.isolation or "bubblewrap"

    def unavailable(self):
        """Why this mode cannot be had here, or ""."""
        if self.who != "root" or self.isolation == "uid":
            why = plain_user.available()
            if why:
                return f"no plain user's Python here: {why}"
        if self.isolation == "uid" and not IS_ROOT:
            return "only root can run a submission as a user of its own"
        if self.isolation != "uid" and self.isolation and not landlock.abi():
            return ("this kernel has no Landlock: with no sandbox at all, a submission can "
                    "reach the grader's files, so the corpus's verdicts would not hold")
        if not self.isolation and not shutil.which("bwrap"):
            return "bubblewrap is not installed (apt-get install bubblewrap)"
        return ""


# Every way this machine can grade: bubblewrap as root (as CI does, and a course server) and as
# a plain user; as root without namespaces (a Docker-based platform: the uid kind, with the
# project's folder closed to others); and a plain user with no sandbox at all. Run by a plain
# user, only the last two of those that need no root.
MODES = [Mode("bubblewrap as root", "root"), Mode("bubblewrap as a plain user", "plain user"),
         Mode("uid as root", "root", "uid"), Mode("none as a plain user", "plain user", "none")]
if not IS_ROOT:
    MODES = [Mode("bubblewrap as a plain user", "plain user"),
             Mode("none as a plain user", "plain user", "none")]
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
    kinds: tuple = ()  # ((kind, {"exit": ..., "says": ..., "closing": ...}), ...)

    def expected(self, kind):
        """(exit, says, closing) this case must get in isolation `kind`."""
        own = dict(self.kinds).get(kind, {})
        return (own.get("exit", self.exit), own.get("says", self.says),
                own.get("closing", self.closing))

    @classmethod
    def read(cls, path):
        """The case the file at `path` stands for; ValueError when its header lacks a base
        or an exit status."""
        source = path.read_text()
        header, kinds = {}, {}
        for line in source.splitlines():
            if not line.startswith("#"):
                break
            found = re.match(r"# (base|args|exit|says|closing)(?: \((bubblewrap|uid|none)\))?: "
                             r"(.*)$", line)
            if found and found[2]:
                kinds.setdefault(found[2], {}).setdefault(found[1], []).append(found[3])
            elif found:
                header.setdefault(found[1], []).append(found[3])
        if "base" not in header or "exit" not in header:
            raise ValueError(f"{path.name} needs a '# base:' and an '# exit:' line in its header")
        base = header["base"][0]
        text = source if base == "none" else (
            f"{BASES[base].read_text()}\n\n# == tests/submissions/{path.name}, appended ==\n{source}")
        return cls(name=path.stem, text=text, exit=int(header["exit"][0]),
                   says=tuple(header.get("says", ())), closing=header.get("closing", [""])[0],
                   args=tuple(shlex.split(header.get("args", [""])[0])),
                   kinds=tuple((kind, {
                       **({"exit": int(own["exit"][0])} if "exit" in own else {}),
                       **({"says": tuple(own["says"])} if "says" in own else {}),
                       **({"closing": own["closing"][0]} if "closing" in own else {})})
                       for kind, own in sorted(kinds.items())))

    @property
    def time_limit(self):
        """The seconds each of its tests may take, as its args set them."""
        if "--time-limit" not in self.args:
            return Limits.seconds
        return float(self.args[self.args.index("--time-limit") + 1])


CASES = [Case.read(path) for path in sorted(SUBMISSIONS.glob("*.py"))]
# LAB_CORPUS=name,name grades only those submissions (while working on them; never in CI)
ONLY = set(filter(None, os.environ.get("LAB_CORPUS", "").split(",")))
RUNNABLE = [case for case in CASES if not ONLY or case.name in ONLY]


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
    mode: Mode = None


def lab_check(folder, *args, timeout, project=PROJECT, who="root", env=None, python=None):
    """A real lab_check process, the one in `project` (as `who`: root, or whoever runs the
    suite, or a plain user with a copy of its own, see plain_user.py; run by `python`, this
    one when None), working in `folder`, with no standard input; `env` added to ours."""
    argv = ([python or sys.executable, str(pathlib.Path(project) / "lab" / "lab_check.py"), *args]
            if who == "root" else plain_user.command(project, *args))
    return subprocess.run(argv, cwd=folder, timeout=timeout, capture_output=True, text=True,
                          stdin=subprocess.DEVNULL, env={**os.environ, **(env or {})})


def submission_folder(parent, text):
    """A folder as a student's looks: harness.py and a few neighbours; readable by anyone."""
    folder = pathlib.Path(parent)
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "harness.py").write_text(text)
    for name, content in NEIGHBOURS.items():
        (folder / name).write_text(content)
    folder.chmod(0o755)
    return folder


def grade_case(case, parent, project=PROJECT, mode=None, python=None):
    """The Run of lab_check (the one in `project`) on `case`, from a new folder `parent`."""
    mode = mode or MODES[0]
    folder = submission_folder(parent, case.text)
    before = tree(folder, skip=RECORD)
    started = time.monotonic()
    budget = 2 * case.time_limit * 21 + 60  # only so that a broken grader cannot hang the suite
    try:
        done = lab_check(folder, "--harness", str(folder / "harness.py"), "--lesson", "10",
                         "--seed", str(SEED), *case.args, timeout=budget, project=project,
                         who=mode.who, env=mode.env, python=python)
        returncode, stdout, stderr = done.returncode, done.stdout, done.stderr
    except subprocess.TimeoutExpired as expired:
        returncode, stdout, stderr = None, str(expired.stdout or ""), "still running after " \
            f"{budget} s: the suite stopped it"
    return Run(returncode, stdout, stderr, time.monotonic() - started, before, tree(folder, skip=RECORD))


# lab-check's own record of a grading, kept beside the student's file for --course (its help
# says so): the one thing a grading may add to the student's folder.
RECORD = frozenset({".lab-check"})


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


@pytest.fixture(scope="module", params=MODES, ids=lambda mode: mode.name)
def corpus(request):
    """Every runnable submission graded, WORKERS at a time, by the lab_check of a copy of the
    project made for the corpus (so that nobody's editing of the project meanwhile can look
    like a submission's doing), in one of the MODES; that copy hashed before and after, the
    processes the submissions marked looked for at the end, and everything removed after."""
    mode = request.param
    why = mode.unavailable()
    if why:
        pytest.skip(f"no runs {mode.name} here: {why}")
    parent = pathlib.Path(tempfile.mkdtemp(prefix="lab-corpus-"))
    try:
        yield _graded_corpus(parent, mode)
    finally:
        remove_tree(parent)
        if mode.who != "root" and IS_ROOT:  # what a submission left where no grader clears
            ipc.remove(uid=plain_user.UID)


def _graded_corpus(parent, mode):
    parent.chmod(0o755)  # a plain user grades from in here too
    project = parent / "project"
    shutil.copytree(PROJECT, project, ignore=shutil.ignore_patterns(*CACHES))
    for folder in [parent, *(path for path in project.rglob("*") if path.is_dir())]:
        folder.chmod(0o755)  # as an installed project is: readable by anyone, written by root
    python, graded = None, project
    if mode.isolation == "uid":  # a Python any user can read, and the project closed to them
        python, _ = plain_user.environment(project)
        project.chmod(0o750)
    elif mode.who != "root":  # the plain user's lab_check is its copy's: that is what to watch
        _, graded = plain_user.environment(project)
    project_before = tree(graded, skip=CACHES)
    started = time.monotonic()
    with ThreadPoolExecutor(WORKERS) as pool:
        runs = dict(zip([case.name for case in RUNNABLE], pool.map(
            lambda case: grade_case(case, parent / "students" / case.name, project, mode,
                                    python), RUNNABLE)))
    seconds = time.monotonic() - started
    print(f"\nthe corpus, {mode.name}: {len(runs)} submissions graded in {seconds:.1f} s")
    return Corpus(runs=runs, project_before=project_before,
                  project_after=tree(graded, skip=CACHES), leftovers=leftover_processes(),
                  seconds=seconds, mode=mode)


def runnable(case):
    return case


def ids(case):
    return case.name


# -- what every submission must get ------------------------------------------------------------

@pytest.mark.parametrize("case", RUNNABLE, ids=ids)
def test_each_misbehaving_submission_gets_its_verdict_and_says_why(corpus, case):
    run = corpus.runs[runnable(case).name]

    exit, says, closing = case.expected(corpus.mode.kind)
    shown = f"exit {run.returncode}\n{run.stdout[-6000:]}\nstderr:\n{run.stderr[-3000:]}"
    assert run.returncode == exit, f"{case.name}: expected exit {exit}, got {shown}"
    for phrase in says:
        assert phrase in run.stdout, f"{case.name}: the report should say {phrase!r}: {shown}"
    if closing:
        assert run.closing == closing, f"{case.name}: expected {closing!r}: {shown}"
    if corpus.mode.isolation == "none" and run.graded:
        assert FORGEABLE in run.stdout, f"{case.name}: an unisolated grade must say so: {shown}"
    if corpus.mode.isolation != "none":
        assert FORGEABLE not in run.stdout, f"{case.name}: isolated, yet it says not: {shown}"
    assert len(run.stdout) < REPORT_LIMIT, \
        f"{case.name}: a report of {len(run.stdout)} bytes; what a harness prints is capped"


@pytest.mark.parametrize("case", RUNNABLE, ids=ids)
def test_each_run_ends_within_its_time_limits_and_a_few_seconds(corpus, case):
    run = corpus.runs[runnable(case).name]

    limit = ((run.graded + 1) * case.time_limit + SLACK) * busy()
    assert run.seconds <= limit, (f"{case.name}: {run.graded} tests of {case.time_limit:g} s "
                                  f"and the import check took {run.seconds:.1f} s, more than "
                                  f"{limit:g} s (the bound, at a load of {busy():.1f}× the cores)")


def busy():
    """How many times over the machine's cores are wanted right now (at least 1): on a machine
    shared with other work every process runs that much slower, so a bound on wall time that
    holds on a quiet machine is stretched by it. A grading that runs on past its limits (an
    endless test) overshoots by far more than any load."""
    return max(1.0, os.getloadavg()[0] / len(os.sched_getaffinity(0)))


@pytest.mark.parametrize("case", RUNNABLE, ids=ids)
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

    expected = sorted(case.name for case in RUNNABLE if case.expected(corpus.mode.kind)[0] == 0)
    assert passed == expected, f"passed: {passed}; should have: {expected}"


# -- the limits: documented, and changed from the command line ---------------------------------

def test_lab_check_help_documents_both_limits_and_their_defaults(tmp_path):
    run = lab_check(tmp_path, "--help", timeout=60)

    text = " ".join(run.stdout.split())
    assert "--time-limit SECONDS how long any one answer of your code may take" in text, run.stdout
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


# -- a classmate's work, in a batch ------------------------------------------------------------

THIEF = SUBMISSIONS / "batch" / "takes_a_classmates_work.py"
ROOT_MODES = [mode for mode in MODES if mode.who == "root"]


@pytest.mark.parametrize("mode", ROOT_MODES, ids=lambda mode: mode.name)
def test_a_submission_in_a_batch_cannot_take_a_classmates_work(mode):
    why = mode.unavailable()
    if why:
        pytest.skip(f"no batch {mode.name} here: {why}")
    parent = pathlib.Path(tempfile.mkdtemp(prefix="lab-batch-"))
    try:
        scores = _batch_of_three(parent, mode)
    finally:
        remove_tree(parent)

    assert scores["alice"] == scores["most"], f"the finished harness should score all: {scores}"
    assert scores["mallory"] == scores["bob"] < scores["most"], \
        f"the thief (on the starter) should score what the starter scores: {scores}"


def _batch_of_three(parent, mode):
    """{name: score} of a batch: alice hands in the finished harness, bob the starter, and
    mallory the starter with the thief appended; "most": what the tests are worth."""
    project, python = PROJECT, None
    if mode.isolation == "uid":
        project = parent / "project"
        shutil.copytree(PROJECT, project, ignore=shutil.ignore_patterns(*CACHES))
        python, _ = plain_user.environment(project)
        project.chmod(0o750)
    batch = parent / "submissions"
    texts = {"alice": BASES["finished"].read_text(), "bob": BASES["starter"].read_text(),
             "mallory": BASES["starter"].read_text() + "\n\n" + THIEF.read_text()}
    for name, text in texts.items():
        submission_folder(batch / name, text)
    subprocess.run(["chmod", "-R", "o-rwx", str(batch)], check=True)
    out = parent / "results"

    # the seed in the environment: without namespaces a batch refuses one on its command line
    run = lab_check(parent, "--lesson", "10", "--batch", str(batch), "--output", str(out),
                    "--jobs", "3", "-k", "orphan or steering or missing", timeout=600,
                    project=project, env={**mode.env, "LAB_SEED": str(SEED)}, python=python)

    assert run.returncode == 0, f"exit {run.returncode}:\n{run.stdout}\n{run.stderr}"
    import csv

    rows = list(csv.DictReader((out / "summary.csv").open()))
    scores = {row["submission"]: float(row["score"]) for row in rows}
    scores["most"] = max(float(row["max_score"]) for row in rows)
    return scores


# -- unisolated grades: labelled, and refused for an instructor ---------------------------------

NONE = next((mode for mode in MODES if mode.isolation == "none"), None)
INSTRUCTOR_FORMATS = ("json", "junit", "gradescope", "classroom")


@pytest.fixture
def open_folder():
    """A new folder any user may enter (pytest's own are root's alone), removed after."""
    folder = pathlib.Path(tempfile.mkdtemp(prefix="lab-open-"))
    folder.chmod(0o755)
    yield folder
    remove_tree(folder)


@pytest.mark.parametrize("fmt", INSTRUCTOR_FORMATS)
def test_every_instructor_format_refuses_an_unisolated_grading(open_folder, fmt):
    folder = submission_folder(open_folder / "student", BASES["finished"].read_text())

    run = lab_check(folder, "--harness", "harness.py", "--lesson", "10", "-k", "orphan",
                    "--format", fmt, timeout=120, who=NONE.who, env=NONE.env)

    said = run.stdout + run.stderr
    assert run.returncode == 2, f"exit {run.returncode}:\n{said}"
    assert "--allow-unisolated" in said and "only in a sandbox" in said, said


def test_an_unisolated_classroom_result_says_it_could_be_forged(open_folder):
    folder = submission_folder(open_folder / "student", BASES["finished"].read_text())

    run = lab_check(folder, "--harness", "harness.py", "--lesson", "10", "-k", "orphan",
                    "--format", "classroom", "--allow-unisolated", timeout=120, who=NONE.who,
                    env=NONE.env)

    assert run.returncode == 0, f"exit {run.returncode}:\n{run.stdout}\n{run.stderr}"
    import json

    said = json.loads(run.stdout)["extra_data"]
    assert said["isolation"] == "none" and said["warning"] == FORGEABLE, said


# -- the Gradescope autograder on a Docker-like machine: root, and no namespaces ----------------

from test_gradescope import TOTAL, archive, autograder, submit, world_readable  # noqa: E402,F401

ATTACKS = {"reads_the_answer_beside_the_grader": 0, "reads_the_gradings_secrets": TOTAL}


@pytest.mark.parametrize("name", ATTACKS)
def test_the_autograder_without_namespaces_gives_each_attack_what_its_code_deserves(
        autograder, name):
    why = Mode("uid", "root", "uid").unavailable()
    if why:
        pytest.skip(f"no uid grading here: {why}")
    root, env = autograder
    case = next(case for case in CASES if case.name == name)

    ran, results = submit((root, {**env, "LAB_ISOLATION": "uid"}), {"harness.py": case.text})

    assert ran.returncode == 0 and results, ran.stderr[-2000:]
    assert "isolation: uid (a user of its own, Landlock" in ran.stdout or not landlock.abi(), \
        ran.stdout[-2000:]
    assert results["score"] == ATTACKS[name], ran.stdout[-4000:]


# -- an instructor's first install -------------------------------------------------------------

def test_a_first_install_grades_a_batch_and_names_the_extra_the_notebook_commands_need(
        open_folder):
    from venvs import fresh_venv

    bin_folder = fresh_venv(open_folder / "venv")
    installed = subprocess.run([str(bin_folder / "pip"), "install", "-q", "-e", str(PROJECT)],
                               capture_output=True, text=True, timeout=900)
    assert installed.returncode == 0, installed.stderr[-2000:]
    batch = open_folder / "class"
    submission_folder(batch / "alice", BASES["finished"].read_text())
    subprocess.run(["chmod", "-R", "o-rwx", str(batch)], check=True)
    lab_check_command = str(bin_folder / "lab-check")

    said = {}
    for name, args in {"verify": ["--verify", "10"],
                       "release": ["--release", "10", "--output", str(open_folder / "edition")],
                       "gradescope": ["--release", "10", "--gradescope", str(open_folder / "g.zip")],
                       "batch": ["--lesson", "10", "--batch", str(batch), "--output",
                                 str(open_folder / "results"), "-k", "orphan"]}.items():
        said[name] = subprocess.run([lab_check_command, *args], cwd=open_folder, text=True,
                                    capture_output=True, timeout=600, stdin=subprocess.DEVNULL)

    for name in ("verify", "release", "gradescope"):
        run = said[name]
        assert run.returncode == 2 and "Traceback" not in run.stderr, f"{name}: {run.stderr}"
        assert run.stderr.strip().count("\n") == 0, f"{name}: more than one line: {run.stderr}"
        assert "pip install -e '.[instructor]'" in run.stderr, f"{name}: {run.stderr}"
    assert said["batch"].returncode == 0, said["batch"].stdout + said["batch"].stderr
    assert (open_folder / "results" / "summary.csv").is_file()


def test_the_autograder_takes_a_checkpoints_letter(open_folder):
    (open_folder / "submission").mkdir()

    ran = subprocess.run([sys.executable, "-P", "-m", "lab.release.autograder", "--lesson", "B",
                          "--root", str(open_folder)], cwd=PROJECT, capture_output=True,
                         text=True, timeout=120)

    import json

    results = json.loads((open_folder / "results" / "results.json").read_text())
    assert ran.returncode == 0, ran.stderr[-2000:]
    assert results["score"] == 0 and "holds no Python file" in results["output"], results
    assert results["extra_data"]["lesson"] == "B", results


# -- the bundle: what the sandbox holds of the lab ---------------------------------------------

def test_the_bundle_is_the_student_folder_and_importing_lab_there_needs_nothing_else():
    """In a real sandbox (bubblewrap, where nothing of the project is mounted; else an
    isolated Python whose only path to lab is the bundle), `import lab` and what the zygote
    imports load every module the bundle holds, each from the bundle, and need nothing more."""
    import json

    from lab.worker import bundle, launch

    code = ("import json, sys; sys.path[:0] = [sys.argv[1]]; "
            "import lab, lab.kit.wire_figure, lab.kit.escape, damaged, lab_inside.zygote; "
            "print(json.dumps({name: module.__file__ or list(module.__path__)[0] for name, module "
            "in sys.modules.items() if name.split('.')[0] in ('lab', 'lab_inside', 'damaged')}))")
    with bundle.Bundle() as made:
        root = made.path
        held = sorted(str(path.relative_to(root)) for path in pathlib.Path(root).rglob("*.py"))
        if not launch.bubblewrap_problem():
            root = launch.INSIDE
            argv = launch._bwrap_argv(made.path, os.devnull, 0)
        else:
            argv = []
        loaded = subprocess.run([*argv, launch.python(), "-I", "-S", "-B", "-c", code, root],
                                capture_output=True, text=True, timeout=60)

    assert loaded.returncode == 0, f"import lab fails in the sandbox's bundle:\n{loaded.stderr}"
    files = json.loads(loaded.stdout)
    outside = {name: file for name, file in files.items() if not file.startswith(root + "/")}
    assert not outside, f"loaded from outside the bundle: {outside}"
    used = sorted(os.path.relpath(file, root) for file in files.values() if file.endswith(".py"))
    expected = sorted([*(f"lab/{relative}" for relative in bundle.lab_files()),
                       *(f"lab_inside/{path.name}" for path in bundle.INSIDE.glob("*.py")
                         if path.name not in bundle.NOT_INSIDE),
                       "damaged.py"])
    assert held == expected, f"the bundle holds {held}, not lab/__init__.py, lab/kit/, " \
                             "lab/sandbox/ and damaged.py"
    assert used == held, (
        f"import lab and the zygote load {used}; the bundle holds {held}")
    assert sorted(name.split(".", 1)[1] if "." in name else "__init__"
                  for name in files if name.split(".")[0] == "lab") == sorted(bundle.modules())


def test_no_module_of_the_student_folder_imports_anything_outside_it():
    """Each module of lab/kit/ (and lab/__init__.py) imports the standard library and its
    neighbours, no more, wherever the import stands (in a function too); and no module of lab/
    shadows one of the folder's."""
    import ast

    from lab.worker import bundle

    ours = set(bundle.modules())
    found = []
    for relative, path in bundle.lab_files().items():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0:
                names = [node.module]
            elif isinstance(node, ast.ImportFrom):
                package = "lab.kit." if relative.startswith("kit/") else "lab."
                module = node.module or ""
                names = [f"{package}{module}"] if module else \
                    [f"{package}{alias.name}" for alias in node.names]
                if node.level > 1:
                    names = ["beyond lab"]
            else:
                continue
            for name in names:
                top, _, rest = name.partition(".")
                if top == "lab" and (rest in ours or rest.rpartition(".")[0] in ours):
                    continue
                if top != "lab" and top in sys.stdlib_module_names:
                    continue
                found.append(f"{relative}:{node.lineno} imports {name}")
    assert not found, "the student folder reaches outside itself:\n" + "\n".join(found)
    shadows = {path.stem for path in bundle.LAB.glob("*.py")} & (ours - {"__init__"})
    assert not shadows, f"lab/ and lab/kit/ both have {shadows}"


def test_the_kit_is_one_package_and_each_of_its_files_one_module():
    import lab.kit.wire

    assert lab.Violation is lab.kit.wire.Violation
    with pytest.raises(ModuleNotFoundError):
        import lab.wire  # noqa: F401 (a kit module has one name, lab.kit.<name>, never a second)
    assert "lab.wire" not in sys.modules


# -- a grading stopped from outside leaves nothing behind --------------------------------------

import signal  # noqa: E402

SLEEPER = (BASES["finished"].read_text() + "\n\nimport time as _time\n\n"
           "def repair_tool_history(messages):  # a grading that is still running when stopped\n"
           "    _time.sleep(60)\n")
STOPPED = [(MODES[0], signal.SIGTERM), (MODES[0], signal.SIGKILL)] + [
    (mode, signal.SIGKILL) for mode in MODES if mode.isolation in ("uid", "none")]


@pytest.mark.parametrize("mode, number", STOPPED,
                         ids=lambda x: x.name if isinstance(x, Mode) else x.name)
def test_a_grading_stopped_from_outside_removes_every_folder_it_made(mode, number):
    """lab_check, mid-grading, is told to stop (SIGTERM) or killed outright (SIGKILL, which it
    cannot catch): its worker ends the sandbox and the grader's folders are removed anyway."""
    why = mode.unavailable()
    if why:
        pytest.skip(f"no grading {mode.name} here: {why}")
    parent = pathlib.Path(tempfile.mkdtemp(prefix="lab-stopped-"))
    try:
        parent.chmod(0o755)
        temporary = parent / "tmp"
        temporary.mkdir(mode=0o1777)
        temporary.chmod(0o1777)
        project, python = PROJECT, None
        if mode.isolation == "uid":
            project = parent / "project"
            shutil.copytree(PROJECT, project, ignore=shutil.ignore_patterns(*CACHES))
            python, _ = plain_user.environment(project)
            project.chmod(0o750)
        folder = submission_folder(parent / "student", SLEEPER)
        args = ["--harness", str(folder / "harness.py"), "--lesson", "10", "-k", "orphan",
                "--time-limit", "60"]
        argv = ([python or sys.executable, str(project / "lab" / "lab_check.py"), *args]
                if mode.who == "root" else plain_user.command(project, *args))
        env = {**os.environ, **mode.env, "TMPDIR": str(temporary)}
        with subprocess.Popen(argv, cwd=folder, env=env, stdin=subprocess.DEVNULL,
                              stdout=subprocess.DEVNULL, stderr=subprocess.PIPE) as host:
            _wait_for(lambda: list(temporary.glob("lab-check-public-*/lab-bundle-*")), 60,
                      "the grading's sandbox to start")
            time.sleep(4)  # the tests are running: the student's code sleeps in one
            made = sorted(path.name for path in temporary.iterdir())
            host.send_signal(number)
            status = host.wait(timeout=30)
            said = host.stderr.read().decode(errors="replace")
        left = _wait_for(lambda: not any(temporary.iterdir()), 30, "")
        assert left, (f"left in the grading's temporary folder after {number.name}: "
                      f"{sorted(p.name for p in temporary.iterdir())} (it made {made})")
        if number == signal.SIGTERM:
            assert status == 128 + number and "Traceback" not in said, (status, said)
    finally:
        remove_tree(parent)


def _wait_for(condition, seconds, what):
    """condition()'s first true value within `seconds`; False, or a failure naming `what`."""
    ends = time.monotonic() + seconds
    while time.monotonic() < ends:
        found = condition()
        if found:
            return found
        time.sleep(0.2)
    if what:
        pytest.fail(f"waited {seconds} s for {what}")
    return False


# -- --watch's kept worker ---------------------------------------------------------------------

def test_a_kept_worker_grades_each_round_on_the_file_as_it_is_then():
    """lab-check --watch grades every save on one worker (pytest imported, the sandbox kept):
    each round still grades the file as that round found it, and the worker is the same."""
    from lab.grader.grade import grade
    from lab.grader.supervise import Warm

    lesson, scores, workers = lessons_10(), [], set()
    with tempfile.TemporaryDirectory() as folder, Warm() as warm:
        harness = pathlib.Path(folder, "harness.py")
        for base in ("finished", "starter", "finished"):
            harness.write_text(BASES[base].read_text())
            graded = grade(harness, lesson, select="orphan", seed=SEED, warm=warm)
            scores.append(graded.score)
            workers.add(tuple(warm.pids()))

    assert scores[0] == scores[2] > scores[1] == 0, scores
    assert len(workers) == 1, f"each round started workers of its own: {workers}"


def test_kept_workers_side_by_side_grade_as_one_worker_does():
    """Where the sandbox has namespaces of its own and the machine two cores, --watch shares
    the tests between two kept workers: every test is run once, by one of them, and each
    outcome is what a grading of its own gives, for the finished file and the starter."""
    from lab.worker import isolation
    from lab.grader.grade import grade
    from lab.grader.supervise import Warm

    if isolation.detect() != "bubblewrap" or len(os.sched_getaffinity(0)) < 2:
        pytest.fail("this machine should give bubblewrap and two cores (the suite needs both)")
    lesson = lessons_10()
    with tempfile.TemporaryDirectory() as folder, Warm() as warm:
        harness = pathlib.Path(folder, "harness.py")
        for base in ("finished", "starter"):
            harness.write_text(BASES[base].read_text())
            kept = grade(harness, lesson, seed=SEED, warm=warm)
            alone = grade(harness, lesson, seed=SEED)
            assert len(warm.pids()) == 2, warm.pids()
            assert [(t.test, t.outcome) for t in kept.tests] == \
                [(t.test, t.outcome) for t in alone.tests], base
            assert len({t.test for t in kept.tests}) == len(kept.tests) == len(alone.tests)
            assert kept.layers == alone.layers


def test_the_frames_of_workers_side_by_side_are_made_one_in_the_order_collected():
    """merged: the first Problem wins (each worker checked the same import); else the shares,
    every other test each, are put back in turn, with the longer time and only the walls both
    sandboxes had."""
    from lab.grader.supervise import merged

    def test(name):
        return {"test": name, "outcome": "passed"}

    first = {"tests": [test("a"), test("c"), test("e")], "seconds": 1.5, "layers": ["x", "y"]}
    second = {"tests": [test("b"), test("d")], "seconds": 2.5, "layers": ["y"]}
    one = merged([first, second])
    assert [t["test"] for t in one["tests"]] == ["a", "b", "c", "d", "e"]
    assert (one["seconds"], one["layers"]) == (2.5, ["y"])
    assert merged([first, {"problem": "no import"}]) == {"problem": "no import"}
    assert merged([first]) is first


def lessons_10():
    from lab.course import lesson_files as lessons

    return lessons.lesson(10)
