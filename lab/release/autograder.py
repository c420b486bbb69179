"""Grade one Gradescope submission: what the autograder zip's run_autograder runs.

    python -m lab.release.autograder --lesson 10 [--root /autograder]     (or --lesson B)

Gradescope lays a submission out under ROOT (AUTOGRADER_ROOT, else /autograder): the student's
files in ROOT/submission, the results expected in ROOT/results/results.json. The file graded
is submission/harness.py; failing that, a harness.py anywhere in the submission (the student
uploaded a folder), the shallowest first; failing that, the only Python file there is, under
whatever name. Several Python files and none called harness.py, or none at all, is a score of
0 with a sentence saying what to upload. The grade is written in Gradescope's format
(lab.grading.formats.gradescope), each test with the manifest's visibility; what lab_check
would print goes to stdout, which Gradescope keeps from the student (it names hidden tests).
Exit status 0 whenever results.json was written: a low score is not a failure of the grader.
It grades as an instructor's grading does (isolated): never without a sandbox, and without
namespaces only once setup.sh has closed the project's folder to other users.
"""

import argparse
import dataclasses
import json
import os
import pathlib
import sys

from .. import lessons
from ..grading import formats, manifest
from ..grading.grade import grade
from ..grading.report import text_report
from ..grading.results import Grade

HARNESS = "harness.py"


def find_submission(folder):
    """(the file to grade or None, a sentence for the student or "")."""
    folder = pathlib.Path(folder)
    if (folder / HARNESS).is_file():
        return folder / HARNESS, ""
    files = sorted((p for p in folder.rglob("*.py") if p.is_file()
                    and not any(part.startswith((".", "__")) for part in
                                p.relative_to(folder).parts)),
                   key=lambda p: (len(p.relative_to(folder).parts), str(p)))
    named = [p for p in files if p.name == HARNESS]
    if named:
        return named[0], (f"Graded {named[0].relative_to(folder)}: your {HARNESS} was inside a "
                          "folder. Next time, upload the file itself.")
    if len(files) == 1:
        return files[0], (f"Graded {files[0].relative_to(folder)} as your {HARNESS}: it is the "
                          f"only Python file you submitted. Next time, name it {HARNESS}.")
    if not files:
        return None, (f"Your submission holds no Python file. Upload your {HARNESS} (the file "
                      "with your filled-in gaps) and submit again.")
    shown = ", ".join(str(p.relative_to(folder)) for p in files[:8])
    return None, (f"Your submission holds {len(files)} Python files ({shown}) and none called "
                  f"{HARNESS}, so it is not clear which one to grade. Upload your {HARNESS} "
                  "and submit again.")


def run(lesson, root):
    """Grade the submission under `root` and write root/results/results.json; the dict."""
    root = pathlib.Path(root)
    harness, note = find_submission(root / "submission")
    if harness is None:
        result = Grade(lesson=lesson.number, title=manifest.title(lesson), harness=HARNESS,
                       problem=note)
    else:
        result = dataclasses.replace(grade(harness, lesson, isolated=True),
                                     harness=str(harness.relative_to(root / "submission")))
    results = formats.gradescope(result)
    if note and harness is not None:
        results["output"] = f"{note}\n\n{results['output']}"
    sys.stdout.write(text_report(result))
    target = root / "results" / "results.json"
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(json.dumps(results, indent=1, ensure_ascii=False) + "\n")
    return results


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m lab.release.autograder",
                                     description=__doc__.split("\n")[0])
    parser.add_argument("--lesson", required=True, help="the lab's id: 10, or B")
    parser.add_argument("--root", default=os.environ.get("AUTOGRADER_ROOT", "/autograder"))
    args = parser.parse_args(argv)
    try:
        lesson = lessons.lesson(args.lesson)
    except (LookupError, ValueError) as error:
        print(f"autograder: {error}", file=sys.stderr)
        return 2
    run(lesson, args.root)
    return 0


if __name__ == "__main__":
    sys.exit(main())
