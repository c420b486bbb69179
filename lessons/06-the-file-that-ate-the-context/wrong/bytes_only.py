"""Wrong: only the byte budget is kept; max_lines is never read. Two thousand lines of a few
bytes each would be fine, and twenty thousand still fit in 50,000 bytes.
Fails: test_the_line_budget_and_the_byte_budget_both_hold
"""


def fit_budget(lines, max_lines, max_bytes):
    used = 0
    for count, line in enumerate(lines):
        used += len(line.encode())
        if used > max_bytes:
            return count
    return len(lines)
