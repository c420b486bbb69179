"""Wrong: a line that does not fit is skipped and the lines after it are still taken, so the
count no longer says where the shown text ends: the lines are not "in order from the first".
Fails: test_only_whole_lines_fit_and_none_after_the_first_that_does_not
"""


def fit_budget(lines, max_lines, max_bytes):
    used, count = 0, 0
    for line in lines:
        size = len(line.encode())
        if count < max_lines and used + size <= max_bytes:
            used, count = used + size, count + 1
    return count
