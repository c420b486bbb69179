"""Wrong: a line that fills the budget exactly is turned away (>= where > was meant): the
budget is "at most", and a line that makes it exactly fits.
Fails: test_only_whole_lines_fit_and_none_after_the_first_that_does_not
"""


def fit_budget(lines, max_lines, max_bytes):
    used = 0
    for count, line in enumerate(lines):
        used += len(line.encode())
        if count == max_lines or used >= max_bytes:
            return count
    return len(lines)
