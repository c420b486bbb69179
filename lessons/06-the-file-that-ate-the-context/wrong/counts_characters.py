"""Wrong: the budget counted in characters, len(line), as if every character were a byte. A
file in French or with a ✓ in it comes back larger than the budget says.
Fails: test_a_budget_counts_bytes_of_utf8_not_characters
"""


def fit_budget(lines, max_lines, max_bytes):
    used = 0
    for count, line in enumerate(lines):
        used += len(line)
        if count == max_lines or used > max_bytes:
            return count
    return len(lines)
