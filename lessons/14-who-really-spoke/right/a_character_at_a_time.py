"""Right: capitals made a character at a time, which reads the same words."""


def first_gap(words):
    return "".join(character.upper() for character in words)
