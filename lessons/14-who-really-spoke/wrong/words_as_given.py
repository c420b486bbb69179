"""Wrong: the words come back as they were given, not in capitals.
Fails: test_the_first_gap_says_its_words_in_capitals
"""


def first_gap(words):
    return words
