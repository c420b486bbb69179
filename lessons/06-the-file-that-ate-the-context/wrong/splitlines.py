"""Wrong: str.splitlines, which also breaks at a form feed, a lone "\\r", U+2028 and four more;
the read's line numbers then disagree with wc -l and grep -n, and an offset taken from grep
lands on the wrong line.
Fails: test_only_a_newline_ends_a_line_as_for_wc
"""


def lines_of(text):
    return text.splitlines(keepends=True)
