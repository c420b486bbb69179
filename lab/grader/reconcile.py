"""The worker's report, checked against the tests the manifest lists, then graded.

A worker reports one result a test (lab.sandbox.outcome.TestResult, the one record of a test's
result from the test to the report). Only that report says what happened, so before it is
believed it must be exactly what the manifest leads us to expect: every selected test once, in
any order, and nothing else. Then

    a test with no report                fails: it never reported a result (its process died,
                                         or something stopped it from reporting);
    a name the manifest does not list,
    a test reported twice, a test the
    selection left out, or an entry
    that is not a test's record          make every selected test fail, with a message
                                         saying what was wrong with the report.

The second rule is what keeps forgery pointless: a report into which results were added or
repeated loses every point, rather than gaining one. (An outcome rewritten in place cannot be
told from an honest one here: that is for the channel the report travels on to prevent.) Whose
fault a failure is, the worker says where the test ran (its outcome, "failed" or "error");
the manifest's points, gap and visibility are added here, to the same records (`graded`).
"""


from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace
from typing import Any

from lab.sandbox.outcome import TestResult

NEVER_REPORTED = ("this test never reported a result: the grading stopped before it finished, "
                  "or something kept its result from the grader. It counts as failed.")
SHOWN_NAMES = 5   # of the names that make a report untrustworthy, how many a message names
NAME_CHARS = 80   # of each of those names, how many characters are shown


def graded(entries: Iterable[object], listed: Mapping[str, Mapping[str, Any]], *,
           partial: bool = False) -> list[TestResult]:
    """Every graded test's TestResult, from the worker's report `entries` (its frame's tests,
    as JSON: TestResult.from_wire reads each), given the manifest's `listed` tests ({name:
    meta}), with each test's points, gap and visibility added. `partial`: a selection (-k) or
    other test files were asked for, so only the tests reported count (a test the manifest
    does not list, one point), and each only once."""
    reported = [TestResult.from_wire(entry) for entry in entries]
    names = list(dict.fromkeys(result.test for result in reported))
    if partial:
        final = reconcile(reported, names + [n for n in listed if n not in names], names)
    else:
        final = reconcile(reported, list(listed))
    return [result.graded(listed.get(result.test, {})) for result in final]


def reconcile(reported: Sequence[TestResult], listed: Sequence[str],
              selected: Sequence[str] | None = None) -> list[TestResult]:
    """The final result of every selected test, in the manifest's order.

    `reported` is the worker's report, in any order. `listed` is the manifest's test names in
    order; `selected` the names a -k selection chose, None for all of them. A selected test
    missing from the report fails, saying it never reported a result; anything else wrong
    with the report (see the module's docstring) makes every selected test fail with one
    message that says what. ValueError when `listed` repeats a name or `selected` names a
    test `listed` does not: that is the caller's mistake, not the report's."""
    listed = list(listed)
    expected = _expected(listed, selected)
    found: dict[str, TestResult] = {}
    for result in reported:
        found.setdefault(result.test, result)
    wrong = _what_is_wrong([result.test for result in reported], listed, expected)
    if wrong:
        message = (f"the grading's report cannot be trusted: {wrong}. So no test counts, as "
                   "if each had failed: a report with results added or repeated must never "
                   "earn points. If your code does not touch the grader, this is a bug "
                   "in the lab: please report it.")
        return [replace(found[name], outcome="failed", message=message) if name in found
                else TestResult(name, "failed", message) for name in expected]
    return [found.get(name) or TestResult(name, "failed", NEVER_REPORTED) for name in expected]


def _expected(listed, selected):
    """The selected names, in the manifest's order; ValueError for the caller's mistakes."""
    repeated = _repeated(listed)
    if repeated:
        raise ValueError(f"the manifest lists {_names(repeated)} more than once; list each "
                         "test once")
    if selected is None:
        return listed
    unknown = sorted(set(selected) - set(listed))
    if unknown:
        raise ValueError(f"the selection names {_names(unknown)}, which the manifest does not "
                         "list; select among the manifest's tests")
    chosen = set(selected)
    return [name for name in listed if name in chosen]


def _what_is_wrong(names, listed, expected):
    """What makes a report of results under `names` untrustworthy, as a phrase; "" when it is
    sound."""
    unknown = sorted({name for name in names if name not in listed})
    if unknown:
        return f"it reports {_names(unknown)}, which the lesson's manifest does not list"
    repeated = _repeated(names)
    if repeated:
        return f"it reports {_names(repeated)} more than once"
    unselected = sorted(set(names) - set(expected))
    if unselected:
        return f"it reports {_names(unselected)}, which the selection (-k) left out"
    return ""


def _repeated(names):
    """The names given more than once, each once, in the order they first appear."""
    counts = Counter(names)
    return [name for name in counts if counts[name] > 1]


def _names(names):
    shown = ", ".join(repr(name[:NAME_CHARS]) for name in names[:SHOWN_NAMES])
    more = len(names) - SHOWN_NAMES
    return f"{shown} and {more} more" if more > 0 else shown
