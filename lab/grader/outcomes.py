"""The tally: the outcomes a grading reported, checked against the tests the manifest lists.

A worker reports one (test name, outcome, message) a test. Only that report says what
happened, so before it is believed it must be exactly what the manifest leads us to expect:
every selected test once, in any order, and nothing else. Then

    a test with no report                fails: it never reported a result (its process died,
                                         or something stopped it from reporting);
    a name the manifest does not list,
    a test reported twice, a test the
    selection left out, a malformed
    entry or an unknown outcome          make every selected test fail, with a message
                                         saying what was wrong with the report.

The second rule is what keeps forgery pointless: a report into which results were added or
repeated loses every point, rather than gaining one. (An outcome rewritten in place cannot be
told from an honest one here: that is for the channel the report travels on to prevent.) Only
the report is judged here; whose fault a failure is, and its points, are the caller's to
attach.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, NamedTuple

if TYPE_CHECKING:
    from lab.grader.results import Outcome

OUTCOMES = ("passed", "failed", "error", "skipped")
NEVER_REPORTED = ("this test never reported a result: the grading stopped before it finished, "
                  "or something kept its result from the grader. It counts as failed.")
SHOWN_NAMES = 5   # of the names that make a report untrustworthy, how many a message names
NAME_CHARS = 80   # of each of those names, how many characters are shown


class Reported(NamedTuple):
    """One test's outcome: `outcome` is one of OUTCOMES, `message` says why when it is not
    "passed"."""
    test: str
    outcome: str
    message: str = ""


def reconcile(reported: Sequence[Sequence[Any]], listed: Sequence[str],
              selected: Sequence[str] | None = None) -> list[Reported]:
    """The final outcome of every selected test, in the manifest's order, as Reported tuples.

    `reported` is the worker's report: (test name, outcome, message) triples in any order.
    `listed` is the manifest's test names in order; `selected` the names a -k selection
    chose, None for all of them. A selected test missing from the report fails, saying it
    never reported a result; anything else wrong with the report (see the module's
    docstring) makes every selected test fail with one message that says what. ValueError
    when `listed` repeats a name or `selected` names a test `listed` does not: that is the
    caller's mistake, not the report's."""
    listed = list(listed)
    expected = _expected(listed, selected)
    wrong = _what_is_wrong(reported, listed, expected)
    if wrong:
        message = (f"the grading's report cannot be trusted: {wrong}. So no test counts, as "
                   "if each had failed: a report with results added or repeated must never "
                   "earn points. If your code does not touch the grader, this is a bug "
                   "in the lab: please report it.")
        return [Reported(name, "failed", message) for name in expected]
    found = {entry[0]: Reported(*entry) for entry in reported}
    return [found.get(name) or Reported(name, "failed", NEVER_REPORTED) for name in expected]


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


def _what_is_wrong(reported, listed, expected):
    """What makes the report untrustworthy, as a phrase; "" when it is sound."""
    entries = list(reported)
    malformed = [n for n, entry in enumerate(entries, 1) if not _well_formed(entry)]
    if malformed:
        return (f"entries {', '.join(map(str, malformed[:SHOWN_NAMES]))} of the report are not "
                "a (test name, outcome, message) of text with a known outcome "
                f"({', '.join(OUTCOMES)})")
    names = [entry[0] for entry in entries]
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


def _well_formed(entry):
    return (isinstance(entry, (tuple, list)) and len(entry) == 3
            and all(type(part) is str for part in entry) and entry[1] in OUTCOMES)


def _repeated(names):
    seen, repeated = set(), []
    for name in names:
        if name in seen and name not in repeated:
            repeated.append(name)
        seen.add(name)
    return repeated


def _names(names):
    shown = ", ".join(repr(name[:NAME_CHARS]) for name in names[:SHOWN_NAMES])
    more = len(names) - SHOWN_NAMES
    return f"{shown} and {more} more" if more > 0 else shown


# -- the worker's report as Outcomes ----------------------------------------------------------

def outcomes(entries: Iterable[object], listed: Mapping[str, Mapping[str, Any]], *,
             partial: bool = False) -> list[Outcome]:
    """Outcomes (results.Outcome) for the worker's `entries` (dicts with test, the test
    function's name, and outcome, message, judged, seconds, printed), given the manifest's `listed` tests ({name: meta}).
    `partial`: a selection (-k) or other test files were asked for, so only the tests reported
    count (a test the manifest does not list, one point), and each only once."""
    from lab.grader.results import Outcome

    details: dict[str, list[dict[str, Any]]] = {}
    for entry in entries:
        name = entry.get("test") if type(entry) is dict else None
        details.setdefault(name if type(name) is str else "", []).append(
            entry if type(entry) is dict else {})
    report = [(name, *_verdict(entry)) for name, found in details.items() for entry in found]
    if partial:
        names = list(details)
        reported = reconcile(report, names + [n for n in listed if n not in details], names)
    else:
        reported = reconcile(report, list(listed))
    found = []
    for test, outcome, message in reported:
        meta, entry = listed.get(test, {}), (details.get(test) or [{}])[0]
        seconds: Any = entry.get("seconds")
        found.append(Outcome(test=test, outcome=outcome, message=message,
                             printed=str(entry.get("printed") or ""),
                             seconds=seconds if type(seconds) in (int, float) else 0.0,
                             points=meta.get("points", 1), gap=meta.get("gap", ""),
                             visibility=meta.get("visibility", "visible")))
    return found


def _verdict(entry):
    """(outcome, message) of one entry, as reconcile takes them: a test that never finished
    failed; a failure that is no verdict on the student is the grader's error."""
    outcome, message = entry.get("outcome"), str(entry.get("message") or "")
    if outcome not in ("passed", "failed", "skipped"):
        return "failed", "this test never finished, so it does not count."
    if outcome == "failed" and not entry.get("judged"):
        return "error", message
    return outcome, message
