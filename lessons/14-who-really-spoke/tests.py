"""The graded tests of lesson 14, "Who really spoke".

Run them with lab_check: each test asks your harness.py, in a process of its own, and judges
the plain data that comes back.

    python lab/lab_check.py --harness harness.py --lesson 14

TO WRITE: what the tests try, card by card, in a paragraph.
"""

from lab.testkit import expect

CAPITALS = "TO WRITE: the rule this test holds a harness to, as the student reads it when it fails."


def test_the_first_gap_says_its_words_in_capitals(student):
    got = student.value("first_gap", "refused").value

    expect(got == "REFUSED", CAPITALS, expected=repr("REFUSED"), got=repr(got))
