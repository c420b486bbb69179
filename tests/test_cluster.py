"""A class graded on a real Dask cluster (two worker processes on 127.0.0.1, started here): the
same rows as `--jobs 2` on this machine, though a worker is lost mid-batch, and a cluster with a
worker that would grade otherwise refused in one line before anything is graded."""

import contextlib
import json
import os
import shutil
import signal
import subprocess
import sys
import time

import dask
import distributed
import psutil
import pytest

from conftest import CACHES, PROJECT
from lab.course import lesson_files as lessons
from lab.worker import tidy

LESSON = lessons.lesson(10)
SEED = "7"


def lab_check(*args):
    return subprocess.run([sys.executable, str(PROJECT / "lab" / "lab_check.py"), *args],
                          capture_output=True, text=True, cwd=PROJECT, timeout=600)


def make_class(folder):
    """Four students: the finished harness, the starter, a wrong answer, and a file that does
    not parse (a row not graded, whose problem names the file)."""
    wrong = LESSON.variant(LESSON.wrong_answers[0])
    texts = [LESSON.finished.read_text(), LESSON.starter.read_text(), wrong, "def broken(:\n"]
    for number, text in enumerate(texts):
        (folder / f"student-{number}").mkdir(parents=True)
        (folder / f"student-{number}" / "harness.py").write_text(f"{text}\n# student {number}\n")
    return folder


def rows(out):
    summary = json.loads((out / "summary.json").read_text(encoding="utf-8"))
    return summary["submissions"]


@contextlib.contextmanager
def scratch(folder):
    """Dask's scratch space (its workers' and the scheduler's) in `folder`, for the processes
    started here and those they start."""
    folder.mkdir(parents=True, exist_ok=True)
    with dask.config.set({"temporary-directory": str(folder)}), \
            pytest.MonkeyPatch.context() as patch:
        patch.setenv("DASK_TEMPORARY_DIRECTORY", str(folder))
        yield folder


def lose(pid):
    """Kill a worker as a lost machine is lost: the worker and every process under it at once."""
    worker = psutil.Process(pid)
    for process in [worker, *worker.children(recursive=True)]:
        try:
            process.send_signal(signal.SIGKILL)
        except psutil.NoSuchProcess:
            pass


@pytest.fixture(scope="module")
def graded(tmp_path_factory):
    """The class graded with --jobs 2, and on a two-worker cluster that loses a worker busy
    grading once the first result is in."""
    root = tmp_path_factory.mktemp("cluster")
    submissions = make_class(root / "submissions")
    local = lab_check("--lesson", "10", "--batch", str(submissions), "--output",
                      str(root / "local"), "--jobs", "2", "--seed", SEED)
    with scratch(root / "dask"), \
            distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                     host="127.0.0.1",
                                     dashboard_address="127.0.0.1:0") as cluster, \
            distributed.Client(cluster) as client:
        out = root / "remote"
        batch = subprocess.Popen(
            [sys.executable, str(PROJECT / "lab" / "lab_check.py"), "--lesson", "10",
             "--batch", str(submissions), "--output", str(out), "--seed", SEED,
             "--cluster", cluster.scheduler_address],
            cwd=PROJECT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        lost = None
        deadline = time.monotonic() + 300
        while lost is None and batch.poll() is None and time.monotonic() < deadline:
            busy = {worker: keys for worker, keys in client.processing().items() if keys}
            if (out / "summary.json").is_file() and rows(out) and busy:
                worker, keys = sorted(busy.items())[0]
                pids = client.run(os.getpid, workers=[worker])
                lost = {"worker": worker, "keys": list(keys)}
                lose(pids[worker])
            time.sleep(0.05)
        said, complaint = batch.communicate(timeout=600)
    tidy.sweep_abandoned()  # what the lost worker's processes left in the run's /tmp
    return {"local": local, "remote": {"code": batch.returncode, "stdout": said,
                                       "stderr": complaint},
            "lost": lost, "root": root}


def test_a_class_graded_on_a_cluster_that_loses_a_worker_has_the_rows_of_jobs_2(graded):
    local, remote = graded["local"], graded["remote"]
    root = graded["root"]

    assert local.returncode == 0, local.stderr
    assert remote["code"] == 0, remote["stderr"]
    assert "Traceback" not in remote["stderr"], remote["stderr"]
    assert graded["lost"] is not None, "no worker was busy once the first result was in"
    ours, theirs = rows(root / "local"), rows(root / "remote")
    assert [r["submission"] for r in theirs] == [f"student-{n}" for n in range(4)]
    assert theirs == ours
    assert {r["status"] for r in theirs} == {"graded", "not graded"}
    for row in theirs:  # each result file whole, and naming the file as it is here
        result = json.loads((root / "remote" / row["result_file"]).read_text())
        assert result["score"] == row["score"]
        assert (root / "remote" / row["feedback_file"]).read_text() == \
            (root / "local" / row["feedback_file"]).read_text()


def test_a_submission_the_lost_worker_was_grading_is_graded_once_elsewhere(graded):
    keys = graded["lost"]["keys"]
    ids = [r["id"] for r in rows(graded["root"] / "remote")]
    lost = [i for i in ids if any(str(key).endswith(f"-{i}") for key in keys)]

    assert lost, (keys, ids)  # what it was grading, by the name the batch gave its task
    assert len(ids) == len(set(ids)) == 4, ids
    progress = [line for line in graded["remote"]["stderr"].splitlines() if line.startswith("[")]
    assert len(progress) == 4, graded["remote"]["stderr"]


@pytest.fixture
def other_project(tmp_path):
    """A copy of the project whose lesson 10 has one line more in its tests: a worker running
    from it would grade otherwise."""
    copy = tmp_path / "project"
    shutil.copytree(PROJECT / "lab", copy / "lab", ignore=shutil.ignore_patterns(*CACHES))
    shutil.copytree(PROJECT / "lessons", copy / "lessons", ignore=shutil.ignore_patterns(*CACHES))
    tests = copy / "lessons" / LESSON.folder.name / "tests.py"
    tests.write_text(tests.read_text() + "\n# a change the instructor does not have\n")
    return copy


def test_a_cluster_with_a_worker_that_has_other_lesson_sources_is_refused_in_one_line(
        tmp_path, other_project):
    submissions = make_class(tmp_path / "submissions")
    out = tmp_path / "out"
    with scratch(tmp_path / "dask"), \
            distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=True,
                                     host="127.0.0.1", dashboard_address="127.0.0.1:0") as cluster:
        env = dict(os.environ, PYTHONPATH=str(other_project))
        stranger = subprocess.Popen(
            [sys.executable, "-m", "distributed.cli.dask_worker", cluster.scheduler_address,
             "--nthreads", "1", "--no-nanny", "--host", "127.0.0.1", "--no-dashboard"],
            cwd=other_project, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            with distributed.Client(cluster) as client:
                client.wait_for_workers(2, timeout=120)
                where = client.run(lambda: __import__("lab").__file__)
            done = lab_check("--lesson", "10", "--batch", str(submissions), "--output", str(out),
                             "--cluster", cluster.scheduler_address)
        finally:
            stranger.terminate()
            stranger.wait(timeout=60)

    assert any(str(other_project) in path for path in where.values()), where
    assert done.returncode == 2, done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr
    assert "cannot grade this batch" in lines[0] and "lesson sources" in lines[0], lines[0]
    assert "project code" not in lines[0], lines[0]  # only the lesson was changed
    assert not out.exists(), "something was graded, or a summary begun, before the refusal"
