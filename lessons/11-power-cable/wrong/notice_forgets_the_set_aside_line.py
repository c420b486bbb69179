"""Tells the user only about the calls that did not finish, and nothing about the line it set
aside. The torn line is kept in .set_aside, but nobody reads that; the one person who could
say what it was is not shown it.

Fails: test_resume_notice_quotes_each_line_it_set_aside
"""

_notice_of_both = resume_notice


def resume_notice(interrupted, set_aside):
    return _notice_of_both(interrupted, [])
