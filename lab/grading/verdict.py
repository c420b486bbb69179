"""How a graded test says what is wrong: the rule, the input, what was expected, what came back.

    expect(view.shape == "U A U", CARD_2, given=record, expected="U A U", got=view.shape)

fails the test with

    card 2, an orphan result: ... (the rule, in the lesson's words)
      given:    U A R(c7) U
      expected: U A U
      got:      U A[c7] R(c7) U

Transcripts given as lists are written as their shape; strings are written as they are.
"""

import lab


class GradeFailure(AssertionError):
    """A graded test's verdict: the student's answer breaks a rule of the lesson."""


def expect(ok, rule, *, given=None, expected=None, got=None, note=None):
    """Pass when `ok`; otherwise fail the test with an explanation built from the rest."""
    if not ok:
        raise GradeFailure(explain(rule, given=given, expected=expected, got=got, note=note))


def explain(rule, *, given=None, expected=None, got=None, note=None):
    lines = [rule]
    for label, value in (("given", given), ("expected", expected), ("got", got)):
        if value is not None:
            lines.append(f"  {label + ':':9} {_render(value)}")
    if note:
        lines.append(f"  {note}")
    return "\n".join(lines)


def _render(value):
    if isinstance(value, list):
        return lab.shape(value) if value else "(an empty list)"
    return str(value)
