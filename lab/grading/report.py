"""The text report a student reads: a line a test, then what went wrong, then the count."""

import textwrap

PASS, FAIL = "✓", "✗"
PRINTED_LINES = 12  # of what the student's code printed, the last lines shown under a failure


def text_report(grade):
    """The whole report as one string. Its last line is "N passed, N failed", or "nothing was
    graded" after the reason; above it, the grader's version and the graded file's sha256."""
    lines = [f"lab_check: lesson {grade.lesson}, {grade.title}: {grade.harness}", ""]
    stamp = grade.version + (f", file sha256 {grade.sha256}" if grade.sha256 else "")
    if grade.problem:
        return "\n".join(lines + [grade.problem, "", stamp, "nothing was graded"]) + "\n"
    for test in grade.tests:
        lines.append(f"  {PASS if test.outcome == 'passed' else FAIL} {test.title}")
    first_with = {}  # a message already shown -> the test it was shown under
    for test in grade.tests:
        if test.outcome != "passed":
            said = test.message.rstrip()
            if said in first_with:
                said = f"the same as for \"{first_with[said]}\" above."
            else:
                first_with[said] = test.title
            lines += ["", f"{FAIL} {test.title}", textwrap.indent(said, "  ")]
            if test.printed:
                shown = test.printed.rstrip().splitlines()[-PRINTED_LINES:]
                lines.append("  your code printed (the last lines):")
                lines += [f"    | {line}" for line in shown]
    lines += ["", stamp, f"score: {grade.score:g} of {grade.max_score:g} points",
              f"{grade.passed} passed, {grade.failed} failed"]
    return "\n".join(lines) + "\n"
