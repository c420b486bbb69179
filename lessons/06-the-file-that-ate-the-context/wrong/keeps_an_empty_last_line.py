"""Wrong: the text split at every "\\n" and each piece but the last given its newline back, so
a text that ends in "\\n" (nearly every file) gets one more line, empty, after its last: wc -l
counts 2 lines in "a\\nb\\n", and this counts 3.
Fails: test_only_a_newline_ends_a_line_as_for_wc
"""


def lines_of(text):
    pieces = text.split("\n")
    return [piece + "\n" for piece in pieces[:-1]] + [pieces[-1]]
