"""Where an expected answer and the one that came back part, shown so the eye lands on it.

Two texts are shown one above the other, cut to the same window around their first differing
character, with a caret under it, the way check50 shows expected and actual output:

    expected: …or may have run partly; check before repeating it."
    got:      …or may have run partly; check before repeating it"
                                                               ^ first difference

The window keeps CONTEXT characters before the difference, so it is never clipped away, and
marks what it leaves out at either end with "…". Two transcripts are compared by their shapes,
token by token (see lab.shape), and the caret sits under the first message that differs;
when their shapes are equal, that message is shown in full instead.
"""

import json
import re

from ..display import show, tokens

WIDTH = 84     # characters of a value shown on one line, at most
CONTEXT = 36   # characters kept before the first difference when a value must be cut
ELLIPSIS = "…"
TOKEN = re.compile(r"U|A(\[[^\]\s]*\])?(\(error\))?|R\([^)\s]*\)")


def first_difference(a, b):
    """The index of the first position where sequences `a` and `b` differ (the length of the
    shorter one when one is the start of the other), or None when they are equal."""
    for index, (x, y) in enumerate(zip(a, b)):
        if x != y:
            return index
    return None if len(a) == len(b) else min(len(a), len(b))


def window(expected, got, at, width=WIDTH):
    """(expected, got, column): both texts cut to the same window around position `at`, and
    the column of `at` in what is shown. Short texts are shown whole."""
    if max(len(expected), len(got)) <= width:
        return expected, got, at
    start = max(0, at - CONTEXT)
    shown = []
    for text in (expected, got):
        part = text[start:start + width]
        part = (ELLIPSIS if start else "") + part + (ELLIPSIS if start + width < len(text) else "")
        shown.append(part)
    return shown[0], shown[1], at - start + (1 if start else 0)


def as_tokens(value):
    """The shape tokens of `value` when it is a transcript (a list of messages) or a text in
    shape notation ("U A[c1] R(c1)"); None for anything else."""
    if isinstance(value, list) and all(isinstance(m, dict) for m in value):
        return tokens(value)
    if isinstance(value, str) and value.strip():
        words = value.split()
        if all(TOKEN.fullmatch(word) for word in words):
            return words
    return None


def of_shapes(expected, got):
    """(expected, got, column, index) for two token lists that differ: the shapes as shown, the
    column of the first differing token in them, and that token's index (the message's)."""
    index = first_difference(expected, got)
    column = len(" ".join(got[:index])) + (1 if index else 0)
    shown_expected, shown_got, column = window(" ".join(expected), " ".join(got), column)
    return shown_expected, shown_got, column, index


def of_messages(expected, got):
    """(expected, got, column): one message each, written out in full so that they differ on
    screen: as lab.show writes them when that tells them apart, else as JSON (tool_name, say,
    or the type of a value), keys in the order the expected message has them."""
    pair = [show([expected], clip=None), show([got], clip=None)]
    if pair[0] == pair[1]:
        order = list(expected) + sorted(set(got) - set(expected))
        pair = [json.dumps({k: m[k] for k in order if k in m}, ensure_ascii=False)
                for m in (expected, got)]
    at = first_difference(pair[0], pair[1]) or 0
    return window(pair[0], pair[1], at)


def of_texts(expected, got):
    """(expected, got, column) for two texts that differ and share a beginning, or None when
    they have nothing in common at the start (then a caret would point at nothing useful)."""
    at = first_difference(expected, got)
    if not at:
        return None
    return window(expected, got, at)
