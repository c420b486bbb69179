"""Grade one Gradescope submission: what the autograder zip's run_autograder runs.

    python -m lab.release.autograder --lesson 10 [--root /autograder]     (or --lesson B)

Gradescope lays a submission out under ROOT (AUTOGRADER_ROOT, else /autograder): the student's
files in ROOT/submission, the results expected in ROOT/results/results.json. The file graded
is found as a batch finds it (lab.grader.finder.in_folder): submission/harness.py (or the
file the lab's manifest names, `student_file`: a checkpoint's doctor.py), in any case; failing
that, one a folder down (the student uploaded a folder) or in a zip; failing
that, the only Python file there is, under whatever name. Several Python files and none called
harness.py, two harness.py as good as each other, a link, or nothing at all, is a score of 0
with a sentence saying what to upload. The grade is written in Gradescope's format
(lab.grader.formats.gradescope), each test with the manifest's visibility, and the overall
output, which every student sees, naming and counting the visible tests only (all of them with
--show-hidden, which `lab-check --release N --gradescope FILE.zip --show-hidden` bakes into
run_autograder); what lab_check would print goes to stdout, which Gradescope keeps from the
student (it names hidden tests).

It grades under the plan of every instructor's grading (lab.grader.plan.for_gradescope):
isolated, never without a sandbox, and without namespaces only once setup.sh has closed the
project's folder to other users. A failure of the grader's own is never the student's zero:
when no sandbox can start here, or the grader breaks while grading, no results.json is written
and the exit status is 1, with a message for the instructor on stdout and stderr, so that
Gradescope shows the run as failed (to be fixed and regraded), not as a score. Exit status 0
whenever results.json was written: a low score is not a failure of the grader; 2 no such lesson.

With --late-policy (baked in by `lab-check --release N --gradescope FILE.zip --late-policy
10%/day`), a submission that Gradescope's submission_metadata.json dates after its due date
loses what the policy says (lab.grader.gradebook.LatePolicy): the overall score is lowered
and the output's first line says by how much and why, naming the due date. That date is the
student's own when the metadata's entry for the student gives one (an extension), else the
assignment's; results.json's extra_data says which was used.
"""

import argparse
import dataclasses
import json
import os
import pathlib
import shutil
import sys
import tempfile

from lab.course import lesson_files as lessons
from lab.grader import finder, formats, gradebook, plan
from lab.course import manifest
from lab.grader.report import text_report
from lab.grader.results import Grade
from lab.kit.counting import counted

HARNESS = "harness.py"


def find_submission(folder, staging=None, wanted=HARNESS):
    """(the file to grade or None, a sentence for the student or ""), found as the batch finds
    one (lab.grader.finder.in_folder): `wanted` (harness.py, or the lab's manifest's
    student_file) in any case, one folder down, in a zip (read into `staging`, a private
    folder), else the only Python file."""
    return finder.in_folder(folder, staging, wanted)


class GraderFailed(Exception):
    """The grader could not grade this submission for a reason of its own; the message says
    what, for the instructor."""


def late(results, root, policy):
    """`results` (Gradescope's dict) with the declared late `policy` applied by Gradescope's
    ROOT/submission_metadata.json: the due date is the student's own when the metadata gives
    one (an extension; on a group submission the latest of the group's, see
    lab.grader.gradebook.gradescope_due), else the assignment's. extra_data records which
    (due_date, due_date_from). A submission after it loses the penalty from the overall score,
    and the output's first line says so and names the date; one on time by an extension is told
    so in that line. Unchanged when there is no policy, or no metadata with a due date."""
    if policy is None:
        return results
    try:
        meta = json.loads((pathlib.Path(root) / "submission_metadata.json").read_text())
        submitted = gradebook.metadata_time(meta["created_at"])
        due, source, whose = gradebook.gradescope_due(meta)
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return results
    if due is None or submitted is None:
        return results
    users = meta.get("users")
    group = isinstance(users, list) and len(users) > 1
    extra = dict(results.get("extra_data") or {}, due_date=due.isoformat(),
                 due_date_from=source)
    if whose:
        extra["due_date_of"] = whose
    results = dict(results, extra_data=extra)
    if source == gradebook.OWN_DUE:
        which = (f"{whose or 'a partner'}'s due date, {due.isoformat()}, the latest in your "
                 f"group" if group else f"your own due date, {due.isoformat()}")
        assignments = gradebook.assignment_due(meta)
        which += (f" ({'an extension: ' if assignments is None or due > assignments else ''}"
                  f"the assignment's is {assignments.isoformat() if assignments else 'not set'})")
    else:
        which = f"the assignment's due date ({due.isoformat()})"
    if submitted <= due:
        if source != gradebook.OWN_DUE:
            return results
        return dict(results, output=f"Submitted on time, by {which}.\n\n"
                                    f"{results.get('output', '')}")
    tests = results.get("tests", [])
    score = results.get("score", sum(t.get("score", 0) for t in tests))
    worth = sum(t.get("max_score", 0) for t in tests)
    off, why = policy.charge(worth, submitted - due, False)
    final = max(score - off, 0)
    return dict(results, score=final, output=(
        f"Submitted after {which}: {why}: {final:g} of {counted(worth, 'point')}.\n\n"
        f"{results.get('output', '')}"))



def run(lesson, root, show_hidden=False, late_policy=None):
    """Grade the submission under `root` and write root/results/results.json; the dict.
    GraderFailed, with nothing written, when the failure is the grader's."""
    root = pathlib.Path(root)
    chosen = plan.for_gradescope(show_hidden)
    _, problem = chosen.isolation()
    if problem:
        raise GraderFailed(f"no sandbox can start here: {problem}")
    staging = tempfile.mkdtemp(prefix="lab-autograder-")  # a file read from a zip lands here
    try:
        wanted = finder.student_file(lesson)
        harness, note = find_submission(root / "submission", staging, wanted)
        if harness is None:
            result = Grade(lesson=lesson.number, title=manifest.title(lesson), harness=wanted,
                           problem=note)
        else:
            result = dataclasses.replace(chosen.grade(harness, lesson),
                                         harness=_shown(harness, root / "submission"))
        if result.exit_code == 3:
            raise GraderFailed(_what_broke(result))
        results = formats.gradescope(result, show_hidden=chosen.show_hidden)
        if note and harness is not None:
            results["output"] = f"{note}\n\n{results['output']}"
        results = late(results, root, late_policy)
        sys.stdout.write(text_report(result))
        target = root / "results" / "results.json"
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(json.dumps(results, indent=1, ensure_ascii=False) + "\n")
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    return results


def _shown(harness, submission):
    """The graded file's name as the student knows it: its path in the submission, or, for one
    read from a zip, its name."""
    try:
        return str(harness.relative_to(submission))
    except ValueError:
        return harness.name


def _what_broke(result):
    """What the instructor is told of a grading the grader broke on: how many tests, and the
    explanation of the first."""
    broken = result.errors
    return (f"the grader broke on {len(broken)} of {counted(len(result.tests), 'test')} of "
            f"{result.harness} (sha256 {result.sha256 or 'unknown'}). The first said:\n"
            + broken[0].message)


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m lab.release.autograder",
                                     description=__doc__.split("\n")[0])
    parser.add_argument("--lesson", required=True, help="the lab's id: 10, or B")
    parser.add_argument("--root", default=os.environ.get("AUTOGRADER_ROOT", "/autograder"))
    parser.add_argument("--show-hidden", action="store_true",
                        help="let the overall output name and count the hidden tests too")
    parser.add_argument("--late-policy", metavar="POLICY",
                        help="take points off late work (lab.grader.gradebook.LatePolicy), "
                             "by submission_metadata.json's times")
    args = parser.parse_args(argv)
    try:
        lesson = lessons.lesson(args.lesson)
        policy = gradebook.LatePolicy.parse(args.late_policy) if args.late_policy else None
    except (LookupError, ValueError) as error:
        print(f"autograder: {error}", file=sys.stderr)
        return 2
    try:
        run(lesson, args.root, show_hidden=args.show_hidden, late_policy=policy)
    except GraderFailed as failure:
        said = (f"autograder: the grader failed, not the submission, so no score was given: "
                f"{failure}\nNo results.json was written, and Gradescope shows this run as "
                "failed. Fix the autograder (or the machine it runs on) and regrade the "
                "submission.\n")
        sys.stdout.write(said)
        sys.stderr.write(said)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
