"""What the worker reported, reconciled with the manifest: which tests count, and how.

A grade counts only the lesson's own tests, each exactly once, with the points the manifest
gives it. A report that lacks a listed test, names one the lesson does not have, or names one
twice did not come from an honest run of the lesson's tests (or the worker broke): the whole
grading is then a failure that says so, never a pass.
"""

from .results import Outcome


def name_of(nodeid):
    """The test function's name in a pytest node id: tests.py::test_x[3] -> test_x."""
    return str(nodeid).split("::")[-1].split("[")[0]


def outcomes(entries, listed, *, partial=False):
    """Outcomes for the worker's `entries` (dicts with nodeid, outcome, message, judged,
    seconds, printed), given the manifest's `listed` tests ({name: meta}). `partial`: a
    selection (-k) or other test files were asked for, so not every listed test need appear,
    and tests the manifest does not list count one point each."""
    names = [name_of(entry.get("nodeid")) for entry in entries]
    total = sum(meta.get("points", 1) for meta in listed.values())
    twice = sorted({name for name in names if names.count(name) > 1})
    unknown = [name for name in names if name not in listed]
    wrong = []
    if twice:
        wrong.append(f"reported more than once: {', '.join(twice[:5])}")
    if unknown and not partial:
        wrong.append(f"not tests of this lesson: {', '.join(unknown[:5])}")
    if wrong:
        return [Outcome(test="grading", outcome="failed", points=total, message=(
            "the grading's report does not match the lesson's tests (" + "; ".join(wrong)
            + "), so no test counts. Did the harness tamper with the grader?"))]
    found = [_outcome(entry, listed.get(name_of(entry.get("nodeid")), {})) for entry in entries]
    if not partial:
        found += [Outcome(test=name, outcome="failed", points=meta.get("points", 1),
                          gap=meta.get("gap", ""), visibility=meta.get("visibility", "visible"),
                          message="this test never reported a result, so it does not count.")
                  for name, meta in listed.items() if name not in names]
        order = list(listed)
        found.sort(key=lambda outcome: order.index(outcome.test))
    return found


def _outcome(entry, meta):
    outcome = entry.get("outcome")
    message = str(entry.get("message") or "")
    if outcome == "unfinished" or outcome not in ("passed", "failed", "skipped"):
        outcome, message = "failed", "this test never finished, so it does not count."
    elif outcome == "failed" and not entry.get("judged"):
        outcome = "error"
    seconds = entry.get("seconds")
    return Outcome(test=name_of(entry.get("nodeid")), outcome=outcome, message=message,
                   printed=str(entry.get("printed") or ""),
                   seconds=seconds if type(seconds) in (int, float) else 0.0,
                   points=meta.get("points", 1), gap=meta.get("gap", ""),
                   visibility=meta.get("visibility", "visible"))
