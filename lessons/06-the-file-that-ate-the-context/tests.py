"""The graded tests of lesson 06, "The file that ate the context".

Run them with lab_check, never by importing your harness here: each test asks your harness.py
for fit_budget's answers, or makes your read and bash tools over a workspace of the grader's and
runs them as the harness does (through run_tool), in a process of its own; the plain data that
comes back is judged here.

    python lab/lab_check.py --harness harness.py --lesson 06

First the budget itself (bytes, whole lines, both limits, what a line is); then the read tool
(the opening log, the offset a cut read names, a line alone over the budget, a read that fits);
then the bash tool (the end kept, and a note that says why); then code the lesson gives you;
last, the same rules on inputs made up by hypothesis. Every expected value is worked out here,
from the input, by the rule the lesson states.
"""

import re

from hypothesis import example, given, settings
from hypothesis import strategies as st

import lab
from lab.testkit import expect

BYTES = ("the budget counts bytes of UTF-8, not characters: \"é\" is two bytes, \"✓\" three, "
         "and a line's newline is one more.")
WHOLE = ("whole lines only, in order from the first: a line fits when the bytes so far, its "
         "own included, are at most the budget; the first line that does not fit is not taken, "
         "and neither is any line after it.")
BOTH = "two budgets, and both hold: at most max_lines lines and at most max_bytes bytes."
NEWLINE = ("only \"\\n\" ends a line, as for wc -l, grep -n and sed: a form feed, a lone "
           "\"\\r\" or U+2028 is part of its line.")
LAST_NEWLINE = ("a \"\\n\" at the end of a text ends its last line and starts no other: "
                "'a\\nb\\n' is two lines, as wc -l counts them, with no empty third line after.")
OPENING = ("the opening log: read within the budget, the model told the read was cut, so it "
           "looks at the end instead; no request is over the window, and the verdict is found.")
OFFSET = ("a cut read shows as many whole lines as fit from the offset, then one last line, in "
          "square brackets, naming offset=N: N the first line it did not show.")
LONG_LINE = ("a line alone over the byte budget is not cut: none of it is shown, and the note "
             "(one line in square brackets) names offset=N for the line after it.")
FITS = ("a read that fits and reaches the end of the file comes back exactly as the file is, "
        "with no note; one that stops short of the end (a limit) still names where to read on.")
TAIL = ("a long output keeps its end, where the verdict is: as many whole lines as fit, "
        "counted from the last, in their own order, after one first line in square brackets "
        "saying how many were left out.")
WHY = ("when even the last line of an output is over the byte budget, nothing is shown, and "
       "the note says why: it names that line's size in bytes and the byte budget.")
REFUSED = ("code the lesson gives you: a budget of less than one line or one byte is refused "
           "(ValueError) when the tool is made, naming the budget that is wrong.")
ANY_FIT = "fit_budget, on any lines and any budget: " + WHOLE
ANY_READ = ("reading on as told reads any file once, in order: every line shown exactly once "
            "except a line alone over the byte budget, which is named and skipped; every read "
            "within the budget, plus one note line.")
ANY_TAIL = "the bash tool, on any output and any budget: " + TAIL

NOTE = re.compile(r"^\[[^\n]*\]\n?$")
NEXT = re.compile(r"offset=(\d+)")


# -- the budget, worked out here by the rule -----------------------------------------------------

def fitting(lines, max_lines, max_bytes):
    """How many lines the rule lets in: the longest run from the first within both budgets."""
    sizes = [len(bytes(line, "utf-8")) for line in lines]
    taken = 0
    while taken < min(max_lines, len(sizes)) and sum(sizes[:taken + 1]) <= max_bytes:
        taken += 1
    return taken


def lines_of(text):
    return re.findall(r"[^\n]*\n|[^\n]+$", text)


def numbered(n, width=0, start=1):
    return "".join(f"line {k:0{width}}\n" for k in range(start, start + n))


def split_note(content, shown):
    """(the part before the note, the note) when `content` starts with `shown`; else None."""
    if not isinstance(content, str) or not content.startswith(shown):
        return None
    return shown, content[len(shown):]


def expect_read(content, lines, offset, max_lines, max_bytes, rule, limit=None):
    """`content` is what a read from `offset` must be, by the lesson's rule."""
    wanted = lines[offset - 1:] if limit is None else lines[offset - 1:offset - 1 + limit]
    shown = fitting(wanted, max_lines, max_bytes)
    shown_text = "".join(wanted[0:shown])
    final = offset - 1 + shown
    size = f"{len(lines)} line" + ("" if len(lines) == 1 else "s")
    given = f"a file of {size}, read from offset={offset}" + (
        f", limit={limit}" if limit else "") + (
        f", budget {lab.counted(max_lines, 'line')} / {lab.counted(max_bytes, 'byte')}")
    span = f"line {offset}" if shown == 1 else f"lines {offset}-{final}"
    parts = split_note(content, shown_text)
    expect(parts is not None, rule, given=given,
           expected=f"{span} as they are in the file" if shown
           else "none of the file's text", got=repr(content)[:300])
    note = parts[1]
    # What follows the lines that are right is judged alone, and the report says so: a "got"
    # of '' must read as "nothing after line 5", never as "your read returned nothing".
    right = f"after {span}, which {'is' if shown == 1 else 'are'} right: " if shown else ""
    rest = (f"{repr(note)[:300]} (after line {final})" if note else f"nothing after line {final}"
            ) if shown else repr(note)[:300]
    if shown == 0 and wanted:
        after = offset + 1 if offset < len(lines) else None
    else:
        after = final + 1 if final < len(lines) else None
    if after is None and not (shown == 0 and wanted):
        expect(note == "", rule, given=given,
               expected=f"{right}nothing more (the read reached the end, so no note)", got=rest)
        return
    expect(bool(NOTE.match(note)), rule, given=given,
           expected=f"{right}one line in square brackets, the note", got=rest)
    if after is not None:
        named = NEXT.findall(note)
        expect(named == [str(after)], rule, given=given, expected=f"the note names offset={after}",
               got=f"the note: {note!r}")


def expect_tail(content, output, max_lines, max_bytes, rule):
    lines = lines_of(output)
    kept = fitting(lines[::-1], max_lines, max_bytes)
    given = (f"an output of {lab.counted(len(lines), 'line')}, "
             f"{lab.counted(len(output.encode()), 'byte')}, "
             f"budget {lab.counted(max_lines, 'line')} / {lab.counted(max_bytes, 'byte')}")
    if kept == len(lines):
        expect(content == output, rule, given=given, expected="the whole output, as it is",
               got=repr(content)[:300])
        return
    kept_text = "".join(lines[-kept:]) if kept else ""
    first, _, rest = content.partition("\n") if isinstance(content, str) else ("", "", None)
    expect(bool(NOTE.match(first)) and rest == kept_text, rule, given=given,
           expected=f"one note line in square brackets, then the last {lab.counted(kept, 'line')} in order",
           got=repr(content)[:300])
    if kept == 0:
        size = len(lines[-1].encode())
        expect(str(size) in first and str(max_bytes) in first, WHY, given=given,
               expected=f"a note naming the last line's {lab.counted(size, 'byte')} and the "
                        f"{max_bytes}-byte budget",
               got=first)
    else:
        expect(str(len(lines) - kept) in first, rule, given=given,
               expected=f"a note that says {lab.counted(len(lines) - kept, 'line')} were left out",
               got=first)


def fit(student, lines, max_lines, max_bytes):
    return student.value("fit_budget", lines, max_lines, max_bytes).value


# -- the budget ---------------------------------------------------------------------------------

def test_a_budget_counts_bytes_of_utf8_not_characters(student, variation):
    word = variation.choice(["café", "naïve", "résumé", "✓ ok", "Zürich"])
    lines = [f"{word}\n"] * 6
    size, characters = len(lines[0].encode()), len(lines[0])
    budget = 0
    while fitting(lines, 100, budget) == min(len(lines), budget // characters):
        # a budget in which a count of characters lets in more lines than the count of bytes
        # does: "café\n" is 6 bytes and 5 characters, and 10 or 11 bytes hold 2 lines by both
        budget = size * variation.randint(2, 4) + variation.randrange(size - 1)

    got = fit(student, lines, 100, budget)

    expect(got == fitting(lines, 100, budget), BYTES,
           given=f"6 lines of {lines[0]!r}, {lab.counted(size, 'byte')} each "
                 f"({lab.counted(len(lines[0]), 'character')})",
           expected=f"{lab.counted(fitting(lines, 100, budget), 'line')} fit in "
                    f"{lab.counted(budget, 'byte')}", got=f"{got}")


def test_only_whole_lines_fit_and_none_after_the_first_that_does_not(student, variation):
    lines = ["short\n", "x" * variation.randint(30, 60) + "\n", "a\n", "b\n"]
    exact = len(lines[0].encode())
    cases = [(lines, exact), (lines, exact + 3), (lines, sum(len(l) for l in lines)),
             (lines[1:], 5), ([], 10)]

    for these, budget in cases:
        got = fit(student, these, 100, budget)

        expect(got == fitting(these, 100, budget), WHOLE,
               given=f"lines whose sizes in bytes are {[len(l.encode()) for l in these]}, "
                     f"a {budget}-byte budget",
               expected=lab.counted(fitting(these, 100, budget), "line"), got=f"{got}")


def test_the_line_budget_and_the_byte_budget_both_hold(student, variation):
    lines = [f"entry {k}\n" for k in range(variation.randint(8, 20))]
    max_lines = variation.randint(1, 5)

    by_lines = fit(student, lines, max_lines, 10_000)
    by_bytes = fit(student, lines, 100, len("".join(lines[:3]).encode()))

    expect(by_lines == max_lines, BOTH,
           given=f"{lab.counted(len(lines), 'short line')}, max_lines={max_lines}",
           expected=lab.counted(max_lines, "line"), got=f"{by_lines}")
    expect(by_bytes == 3, BOTH, given=f"{lab.counted(len(lines), 'short line')}, room for 3 in bytes",
           expected="3 lines", got=f"{by_bytes}")


def test_only_a_newline_ends_a_line_as_for_wc(student, variation):
    breaks = ["\f", "\v", "\r", "\u2028", "\x1c", "\x85"]
    variation.shuffle(breaks)
    text = f"first{breaks[0]}still first\nsecond{breaks[1]}\nthird{breaks[2]}end"

    got = student.value("lines_of", text).value

    expect(got == lines_of(text), NEWLINE, given=repr(text), expected=repr(lines_of(text)),
           got=repr(got))
    ends = student.value("lines_of", "a\nb\n").value
    expect(ends == ["a\n", "b\n"], LAST_NEWLINE, given=repr("a\nb\n"),
           expected=repr(["a\n", "b\n"]), got=repr(ends))


# -- the read tool ------------------------------------------------------------------------------

def test_the_opening_log_is_read_within_the_window(student, variation):
    failing = variation.choice(["test_parse_dates", "test_unicode_names", "test_retry"])
    body = "".join(f"[{k:06}] ok step {k}: compiled module_{k % 97}.py\n"
                   for k in range(variation.randint(4000, 6000)))
    log = body + f"FAILED tests/test_io.py::{failing}\n1 failed, 812 passed\n"
    window = 120_000

    seen = student.scenario("log_session", log=log, window=window)

    sizes = seen["sizes"]
    expect(all(size <= window for size in sizes), OPENING,
           given=f"a build log of {lab.counted(len(log.encode()), 'byte')}, a {window}-byte window",
           expected="every request within the window",
           got=f"request sizes in bytes: {sizes}")
    last = [m for m in seen["record"] if m["role"] == "assistant"]
    answer = next((m for m in last if any(b.get("type") == "text" and "1 failed" in b["text"]
                                          for b in m["content"])), None)
    expect(answer is not None, OPENING, expected="an answer that quotes '1 failed, 812 passed'",
           got=seen["record"])


def test_a_cut_read_says_the_offset_of_the_first_line_not_shown(student, variation):
    lines = lines_of(numbered(variation.randint(12, 30), width=variation.choice([0, 3])))
    max_lines = variation.randint(2, 5)
    offsets = [1, variation.randint(2, len(lines) - max_lines)]

    got = student.scenario("reads", files={"notes.txt": "".join(lines)},
                           calls=[{"path": "notes.txt", "offset": o} for o in offsets],
                           max_lines=max_lines)

    for (content, _), offset in zip(got, offsets):
        expect_read(content, lines, offset, max_lines, 50_000, OFFSET)


def test_a_line_alone_over_the_budget_is_not_cut_but_named_and_skipped(student, variation):
    wide = "{" + ", ".join(f'"k{k}": {k}' for k in range(variation.randint(40, 80))) + "}\n"
    lines = ["header\n", wide, "after\n", "end\n"]
    budget = variation.randint(60, len(wide.encode()) - 1)

    got = student.scenario("reads", files={"data.json": "".join(lines)},
                           calls=[{"path": "data.json", "offset": 2}], max_bytes=budget)

    expect_read(got[0][0], lines, 2, 2000, budget, LONG_LINE)


def test_a_read_that_fits_comes_back_whole_with_no_note(student, variation):
    text = numbered(variation.randint(3, 9)) + variation.choice(["", "no newline at the end"])
    lines = lines_of(text)
    limit = variation.randint(1, len(lines) - 1)

    got = student.scenario("reads", files={"small.txt": text},
                           calls=[{"path": "small.txt"}, {"path": "small.txt", "limit": limit}])

    expect(got[0][0] == text, FITS, given=f"a file of {lab.counted(len(lines), 'line')}", expected=repr(text),
           got=repr(got[0][0])[:300])
    expect_read(got[1][0], lines, 1, 2000, 50_000, FITS, limit=limit)


# -- the bash tool ------------------------------------------------------------------------------

def test_a_long_output_keeps_its_end_where_the_verdict_is(student, variation):
    output = numbered(variation.randint(30, 60)) + f"{variation.randint(1, 9)} failed, 40 passed\n"
    max_lines = variation.randint(3, 8)

    got = student.scenario("commands", files={"out.txt": output}, lines=["cat out.txt"],
                           max_lines=max_lines)

    expect_tail(got[0][0], output, max_lines, 50_000, TAIL)


def test_an_output_whose_last_line_alone_is_over_the_budget_says_why(student, variation):
    output = "building\n" + "=" * variation.randint(120, 300) + "\n"
    budget = variation.randint(20, 100)

    got = student.scenario("commands", files={"out.txt": output}, lines=["cat out.txt"],
                           max_bytes=budget)

    expect_tail(got[0][0], output, 2000, budget, WHY)


# -- code the lesson gives you ------------------------------------------------------------------

def test_a_budget_of_nothing_is_refused_when_the_tool_is_made(student, variation):
    tool = variation.choice(["read", "bash"])
    for max_lines, max_bytes, name in ((0, 50_000, "max_lines"), (2000, 0, "max_bytes")):
        seen = student.scenario("made", tool=tool, max_lines=max_lines, max_bytes=max_bytes)

        expect(seen["raised"] == "ValueError" and name in seen["message"], REFUSED,
               given=f"make_{tool}_tool(..., max_lines={max_lines}, max_bytes={max_bytes})",
               expected=f"ValueError naming {name}", got=seen["raised"] or "the tool was made")
        student.restart()


# -- the same rules, on inputs hypothesis makes up ----------------------------------------------

a_line = st.text(st.sampled_from("ab é✓ 1-=\t\f\u2028"), max_size=30).map(lambda s: s + "\n")
some_lines = st.lists(a_line, max_size=12)
a_budget = st.tuples(st.integers(1, 6), st.integers(1, 80))


@given(some_lines, a_budget)
@example(["ab\n", "é\n"], (5, 3))
@settings(max_examples=40)
def test_any_lines_fit_the_budget_as_counted_by_hand(student, lines, limits):
    got = fit(student, lines, *limits)

    expect(got == fitting(lines, *limits), ANY_FIT,
           given=f"lines whose sizes in bytes are {[len(l.encode()) for l in lines]}, budget {limits}",
           expected=lab.counted(fitting(lines, *limits), "line"), got=f"{got}")


@given(some_lines, st.sampled_from(["", "tail"]), a_budget)
@example(["a\n", "x" * 40 + "\n", "b\n"], "", (3, 10))
@settings(max_examples=25)
def test_reading_on_as_told_reads_any_file_once_in_order(student, lines, ending, limits):
    text = "".join(lines) + ending
    lines = lines_of(text)
    if not lines:
        return  # an empty file is read whole by test_a_read_that_fits_comes_back_whole_with_no_note
    max_lines, max_bytes = limits

    done = student.scenario("read_on", files={"f.txt": text}, path="f.txt", max_lines=max_lines,
                            max_bytes=max_bytes)

    offsets = []
    for offset, content, is_error in done:
        expect(not is_error, ANY_READ, given=f"read from offset={offset}", got=content)
        expect_read(content, lines, offset, max_lines, max_bytes, ANY_READ)
        offsets.append(offset)
    starts, offset = [], 1
    while offset <= len(lines):
        starts.append(offset)
        shown = fitting(lines[offset - 1:], max_lines, max_bytes)
        offset += shown or 1
    expect(offsets == starts, ANY_READ, expected=f"reads from offsets {starts}",
           got=f"reads from offsets {offsets}")


@given(some_lines, a_budget)
@example(["ok\n", "=" * 30 + "\n"], (4, 12))
@settings(max_examples=30)
def test_any_output_keeps_the_longest_end_that_fits_in_order(student, lines, limits):
    output = "".join(lines)

    got = student.scenario("commands", files={"out.txt": output}, lines=["cat out.txt"],
                           max_lines=limits[0], max_bytes=limits[1])

    expect_tail(got[0][0], output, *limits, ANY_TAIL)
