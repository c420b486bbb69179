"""How a graded test says what is wrong: the rule, the input, what was expected, what came back.

    expect(view.shape == "U A U", CARD_2, given=record, expected="U A U", got=view.messages)

fails the test with

    card 2, an orphan result: ... (the rule, in the lesson's words)
      given:    U A R(c7) U
      expected: U A U
      got:      U A[c7] R(c7) U
                    ^ first difference: messages[2]

One notation throughout: a transcript (a list of messages) is written as its shape. Where the
expected and the got differ, a caret marks the first difference (see difference.py); when two
transcripts have the same shape, the first message that differs is written out in full,
labelled so. Other text is written as it is, a value of several lines indented under its label.
Inside a hypothesis search, `given` is the smallest failing case found, and says so, and a
short one is shown message by message too.

Every value of an explanation is written through one notation.Naming: ids a provider made up
are shown short, with an `ids:` legend, and a test's lead-in is folded (see notation.py).
expect_untouched says, before anything else, what a student's function did to its input.
"""

from __future__ import annotations

from hypothesis import currently_in_test_context
from collections.abc import Sequence
from typing import Any

import lab

from lab.testkit import difference, notation

INDENT = " " * 12        # where a value starts: two spaces, a label of nine, one space
MOST_OBJECTIONS = 3      # of the strict provider's objections, shown; the rest are counted
SHOWN_IN_FULL = 8        # a counterexample of at most this many messages is shown in full


class GradeFailure(AssertionError):
    """A graded test's verdict: the student's answer breaks a rule of the lesson."""


def expect(ok: object, rule: str, *, given: object = None, expected: object = None,
           got: object = None, note: str | None = None) -> None:
    """Pass when `ok`; otherwise fail the test with an explanation built from the rest."""
    if not ok:
        raise GradeFailure(explain(rule, given=given, expected=expected, got=got, note=note))


def explain(rule: str, *, given: object = None, expected: object = None, got: object = None,
            note: str | None = None) -> str:
    """The explanation, every value written through one notation.Naming: random ids short (a
    legend under it gives the real ones), a test's lead-in folded."""
    naming = notation.Naming(given, expected, got, note)
    given, expected, got, note = (naming.apply(v) for v in (given, expected, got, note))
    lines = [rule]
    if given is not None:
        lines += _given(given, naming)
    if expected is not None and got is not None:
        lines += _compared(expected, got, naming)
    else:
        lines += [_line(label, _render(value, naming)) for label, value
                  in (("expected", expected), ("got", got)) if value is not None]
    if note:
        lines += [f"  {line}" for line in note.splitlines()]
    legend = naming.legend("\n".join(lines))
    if legend:
        lines.append(_line("ids", legend))
    return "\n".join(lines)


def expect_untouched(before: list[Any], after: list[Any], rule: str, *, kept_objects: bool = True,
                     what: str = "the record") -> None:
    """`after` (the list a student's function was handed, as it left it) is `before` (as it
    was handed over), holding the very same objects; else the test fails saying first which
    message changed and how (difference.changes). A test checks this before what the
    function returned: a mutated input explains most of what comes after it."""
    said = difference.changes(before, after, kept_objects)
    expect(not said, rule, expected=before, got=after,
           note=f"expected and got are {what} before and after your code ran; it changed:\n"
                + "\n".join(f"  {line}" for line in said)
                + f"\nleave {what} as it is: build a new list, and change a copy of a message")


def objections(problems: Sequence[object], most: int = MOST_OBJECTIONS) -> str:
    """The strict provider's objections (lab.validate's list), a line each: the first `most`,
    and how many more there are."""
    if not problems:
        return "no objection"
    head = (f"the strict provider has {lab.counted(len(problems), 'objection')}:"
            if len(problems) > 1
            else "the strict provider objects:")
    lines = [head] + [f"  {problem}" for problem in problems[:most]]
    if len(problems) > most:
        lines.append(f"  and {len(problems) - most} more")
    return "\n".join(lines)


def _given(value, naming):
    lines = [_line("given", _render(value, naming))]
    if currently_in_test_context():  # the failing example hypothesis shrank to, run once more
        lines.append(f"{INDENT}(the smallest failing case hypothesis found)")
        if isinstance(value, list) and 0 < len(value) <= SHOWN_IN_FULL:
            lines += [f"{INDENT}[{i}] {line}" for i, line
                      in enumerate(lab.show(value, clip=60).splitlines())]
    return lines


def _compared(expected, got, naming):
    """The expected and got lines, and under them a caret at their first difference: the first
    message that differs, when both are lists of messages (a made-up U is not the recorded U
    after it), else the first token."""
    want, have = difference.as_tokens(expected), difference.as_tokens(got)
    both = _messages(expected) and _messages(got)
    if want is not None and have is not None and want != have:
        index = difference.first_difference(expected if both else want, got if both else have)
        count = naming.folded(expected, want)
        fold = count if count and naming.folded(got, have) == count and index >= count else 0
        shown_want, shown_have, column, index = difference.of_shapes(want, have, index, fold)
        lines = [_line("expected", shown_want or EMPTY), _line("got", shown_have or EMPTY),
                 _caret(column, f"first difference: messages[{index}]")]
        if both and index < min(len(expected), len(got)) and want[index] == have[index]:
            full_want, full_have, column = difference.of_messages(expected[index], got[index])
            lines[-1] += ", in full:"
            lines += [_line("expected", full_want), _line("got", full_have),
                      _caret(column, "first difference")]
        return lines
    if want is not None and want == have and both:
        index = difference.first_difference(expected, got)
        if index is not None:
            full_want, full_have, column = difference.of_messages(expected[index], got[index])
            return [_line("expected", _render(expected, naming)),
                    _line("got", f"the same shape, but messages[{index}] differs; in full:"),
                    _line("expected", full_want), _line("got", full_have),
                    _caret(column, "first difference")]
    rendered = [_render(expected, naming), _render(got, naming)]
    lines = [_line("expected", rendered[0]), _line("got", rendered[1])]
    cut = difference.of_texts(*rendered) if "\n" not in "".join(rendered) else None
    if cut:
        lines = [_line("expected", cut[0]), _line("got", cut[1]), _caret(cut[2], "first difference")]
    return lines


EMPTY = "(no messages)"  # an empty transcript, where a shape would be nothing at all


def _messages(value):
    return isinstance(value, list) and all(isinstance(m, dict) for m in value)


def _render(value, naming):
    """A value as one notation writes it: a transcript as its shape (its lead-in folded), any
    other value as text."""
    tokens = difference.as_tokens(value)
    if tokens is not None and (isinstance(value, str) or value):
        fold = naming.folded(value, tokens)
        return " ".join(([notation.lead_in_token(fold)] if fold else []) + tokens[fold:])
    if isinstance(value, list):
        return lab.shape(value) if value else EMPTY
    if isinstance(value, str) and not value:
        return '"" (no text at all)'
    return str(value)


def _line(label, text):
    first, *rest = text.splitlines() or [""]
    return "\n".join([f"  {label + ':':9} {first}"] + [INDENT + line for line in rest])


def _caret(column, words):
    return f"{INDENT}{' ' * column}^ {words}"
