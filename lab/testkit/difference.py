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

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from difflib import SequenceMatcher
from typing import Any

from lab.kit.display import show, tokens
from lab.testkit.notation import lead_in_token

WIDTH = 84     # characters of a value shown on one line, at most
CONTEXT = 36   # characters kept before the first difference when a value must be cut
ELLIPSIS = "…"
TOKEN = re.compile(r"U|A(\[[^\]\s]*\])?(\(error\))?|R\([^)\s]*\)")


def first_difference(a: Sequence[Any], b: Sequence[Any]) -> int | None:
    """The index of the first position where sequences `a` and `b` differ (the length of the
    shorter one when one is the start of the other), or None when they are equal."""
    for index, (x, y) in enumerate(zip(a, b)):
        if x != y:
            return index
    return None if len(a) == len(b) else min(len(a), len(b))


def window(expected: str, got: str, at: int, width: int = WIDTH) -> tuple[str, str, int]:
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


def as_tokens(value: object) -> list[str] | None:
    """The shape tokens of `value` when it is a transcript (a list of messages) or a text in
    shape notation ("U A[c1] R(c1)"); None for anything else."""
    if isinstance(value, list) and all(isinstance(m, dict) for m in value):
        return tokens(value)
    if isinstance(value, str) and value.strip():
        words = value.split()
        if all(TOKEN.fullmatch(word) for word in words):
            return words
    return None


def of_shapes(expected: list[str], got: list[str], index: int | None = None,
              fold: int = 0) -> tuple[str, str, int, int]:
    """(expected, got, column, index) for two token lists that differ: the shapes as shown, the
    column of message `index` in them (the first differing token when not given), and that
    index. The first `fold` tokens, a lead-in both share, are shown as one token."""
    index = first_difference(expected, got) if index is None else index
    assert index is not None  # (the two differ)
    head = [lead_in_token(fold)] if fold else []
    expected, got = head + expected[fold:], head + got[fold:]
    at = index - fold + len(head)
    column = len(" ".join(got[:at])) + (1 if at else 0)
    shown_expected, shown_got, column = window(" ".join(expected), " ".join(got), column)
    return shown_expected, shown_got, column, index


def of_messages(expected: Mapping[str, Any], got: Mapping[str, Any]) -> tuple[str, str, int]:
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


def of_texts(expected: str, got: str) -> tuple[str, str, int] | None:
    """(expected, got, column) for two texts that differ and share a beginning, or None when
    they have nothing in common at the start (then a caret would point at nothing useful)."""
    at = first_difference(expected, got)
    if not at:
        return None
    return window(expected, got, at)


def changes(before: Sequence[Any], after: object, kept_objects: bool = True) -> list[str]:
    """What a function did to the list of messages it was handed, a sentence a change, in the
    order of the list: `before` as it was handed over, `after` as it was left. Each says which
    message and how: removed, inserted, replaced (by another kind of message), or changed (and
    which fields); changed "in place" when the list still holds the very objects it was
    handed (`kept_objects`), which only the student's process can see. Empty when nothing
    changed; when the values are equal but the objects are not, one sentence says so."""
    if not isinstance(after, list):
        return [f"it is no longer a list of messages, but {type(after).__name__}"]
    keys = [_key(m) for m in before], [_key(m) for m in after]
    said = []
    for op, i1, i2, j1, j2 in SequenceMatcher(None, *keys, autojunk=False).get_opcodes():
        if op == "equal":
            continue
        if op == "replace" and i2 - i1 == j2 - j1:
            for i, j in zip(range(i1, i2), range(j1, j2)):
                said.append(_changed(before[i], after[j], i, kept_objects))
            continue
        said += [f"given[{i}] {_token(before[i])} removed" for i in range(i1, i2)]
        place = f"before given[{i2}]" if i2 < len(before) else "at the end"
        said += [f"{_token(after[j])} inserted {place}" for j in range(j1, j2)]
    if not said and not kept_objects:
        said.append("every message reads the same, but some are new objects put in place of "
                    "the ones handed over")
    return said


def _changed(old, new, index, in_place):
    if not (isinstance(old, dict) and isinstance(new, dict)) or old.get("role") != new.get("role"):
        return f"given[{index}] {_token(old)} replaced by {_token(new)}"
    fields = [k for k in list(old) + [k for k in new if k not in old] if old.get(k) != new.get(k)]
    if "content" in fields and isinstance(old.get("content"), list) \
            and isinstance(new.get("content"), list) and len(old["content"]) == len(new["content"]):
        at = fields.index("content")
        fields[at:at + 1] = [f"content[{b}].{k}" for b, (x, y) in
                             enumerate(zip(old["content"], new["content"])) if x != y
                             for k in _fields(x, y)]
    how = "edited in place" if in_place else "changed"
    return f"given[{index}] {_token(old)} {how}: its {', '.join(fields)}"


def _fields(old, new):
    if not (isinstance(old, dict) and isinstance(new, dict)):
        return ["(whole)"]
    return [k for k in list(old) + [k for k in new if k not in old] if old.get(k) != new.get(k)]


def _token(message):
    return tokens([message])[0] if isinstance(message, dict) else repr(message)[:40]


def _key(message):
    return json.dumps(message, sort_keys=True, default=repr)
