"""How a report writes a test's case: the card, not the grader's noise around it.

A graded test varies its inputs so that no answer can be written to the examples: a lead-in
of healthy turns before the card, and call ids the way a provider makes them
(`toolu_01p3mVx4y09plT`, `functions.run:hkB5rG5mWFpO`). Read back in a report, both hide the
case. So every explanation (verdict.explain) is written through a Naming:

    given:    (lead-in: 4 messages) U A[c1,c2] R(c1) U
    ids:      c1 toolu_01p3mVx4y09plT · c2 toolu_01VvKAuQEKPivl

- an id that looks random (a run of six or more letters and digits holding a digit or a
  capital: a provider's, or the grader's own) is shown short, c1, c2, ... in order of first
  appearance, the same name everywhere in the explanation, and the legend under it gives the
  real ones. Ids a lesson chose to read (c1, k3, call_0_1, functions.read:0) are shown as
  they are: a lesson about renaming ids must show the names it grades.
- a Record made by a test knows its lead-in and the names its card gives its ids; shown, the
  lead-in is one token, `(lead-in: N messages)`, counted from the record itself, and the card's
  ids keep the card's names (c7 of the orphan card stays c7).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from lab.kit.display import tokens as shape_tokens

LOOKED_AT = 200  # characters of an id read to tell: an id a million long is no faster to judge
LONG = re.compile(r"[A-Za-z0-9]{6,}")
TOKEN_IDS = re.compile(r"A\[([^\]\s]*)\]|R\(([^)\s]*)\)")
EDGE = r"(?<![A-Za-z0-9_]){}(?![A-Za-z0-9_])"


class Record(list[Any]):
    """A record a test made: a list of messages that also knows how many of its first messages
    are a lead-in (`lead_in`) and which short name the card gives each of its ids (`names`,
    real id -> name). It is sent like any list; only a report reads the rest."""

    def __init__(self, messages: Iterable[Any] = (), *, lead_in: int = 0,
                 names: Mapping[str, str] | None = None) -> None:
        super().__init__(messages)
        self.lead_in = lead_in
        self.names = dict(names or {})

    @property
    def lead(self) -> list[Any]:
        """The lead-in's messages."""
        return list(self[:self.lead_in])


def lead_in_token(count: int) -> str:
    return f"(lead-in: {count} message{'s' if count != 1 else ''})"


def looks_random(call_id: object) -> bool:
    """True for an id a provider (or the grader) made up: a run of six or more letters and
    digits with a digit or a capital in it."""
    return isinstance(call_id, str) and any(
        re.search(r"[0-9A-Z]", run) for run in LONG.findall(call_id[:LOOKED_AT]))


class Naming:
    """The short names of one explanation's ids, and its lead-in, found in its values."""

    def __init__(self, *values: object) -> None:
        records = [v for v in values if isinstance(v, Record)]
        preset = {real: name for r in records for real, name in r.names.items()}
        seen = []
        for value in _card_first(values):
            for found in _ids(value):
                if found not in seen:
                    seen.append(found)
        taken = ({i for i in seen if not looks_random(i)}
                 | {preset[i] for i in seen if i in preset and looks_random(i)})
        self.short: dict[str, str]
        self.short, number = {}, 0
        for found in seen:
            if not looks_random(found):
                continue
            if found in preset and preset[found] not in self.short.values():
                self.short[found] = preset[found]  # the card's own name for it
                continue
            number += 1
            while f"c{number}" in taken:
                number += 1
            self.short[found] = f"c{number}"
        self._pattern = (re.compile("|".join(EDGE.format(re.escape(i))
                                             for i in sorted(self.short, key=len, reverse=True)))
                         if self.short else None)
        # every lead-in a value of the explanation has, as shown (its ids short too), longest
        # first: a value that starts with one is shown with it folded
        leads = {json.dumps(r.lead, default=str): r.lead for r in records if r.lead_in}
        self.leads = sorted((self.apply(lead) for lead in leads.values()), key=len, reverse=True)

    def apply(self, value: Any) -> Any:
        """`value` with every long id written short: in strings, in messages, in lists of
        them. A Record stays a Record."""
        if self._pattern is None:
            return value
        if isinstance(value, str):
            return self._pattern.sub(lambda m: self.short[m.group(0)], value)
        if isinstance(value, Record):
            return Record([self.apply(m) for m in value], lead_in=value.lead_in, names=value.names)
        if isinstance(value, (list, tuple)):
            return type(value)(self.apply(item) for item in value)
        if isinstance(value, dict):
            return {key: self.apply(item) for key, item in value.items()}
        return value

    def folded(self, value: object, tokens: Sequence[str] | None) -> int:
        """How many first messages of a shown `value` (already written short), whose shape
        `tokens` are, are a lead-in: all of one or none. A list must start with the lead-in's
        very messages; a shape written as text, with its tokens."""
        if tokens is None:
            return 0
        for lead in self.leads:
            if isinstance(value, list) and list(value[:len(lead)]) == lead:
                return len(lead)
            if isinstance(value, str) and tokens[:len(lead)] == shape_tokens(lead):
                return len(lead)
        return 0

    def legend(self, shown: str) -> str:
        """`c1 toolu_01p3... · c2 ...`: the real ids behind the short ones that the text
        `shown` holds (a folded lead-in's are not in it); "" when none."""
        return " · ".join(f"{short} {real}" for real, short in self.short.items()
                          if re.search(EDGE.format(re.escape(short)), shown))


def _card_first(values):
    """The values in the order their ids are named: each Record's card (after its lead-in)
    first, in turn, then the rest of the values, then the lead-ins."""
    records = [v for v in values if isinstance(v, Record)]
    for value in records:
        yield value[value.lead_in:]
    for value in values:
        if not isinstance(value, Record):
            yield value
    for value in records:
        yield value.lead


def _ids(value):
    """Every call id in `value` (messages, lists of them, shapes in text), in order."""
    if isinstance(value, str):
        for match in TOKEN_IDS.finditer(value):
            for part in (match.group(1) or match.group(2) or "").split(","):
                if part:
                    yield part
    elif isinstance(value, dict):
        if value.get("role") == "toolResult":
            yield from _ids_of(value.get("tool_call_id"))
        elif value.get("role") == "assistant" and isinstance(value.get("content"), list):
            for block in value["content"]:
                if isinstance(block, dict) and block.get("type") == "toolCall":
                    yield from _ids_of(block.get("id"))
        elif value.get("type") == "toolCall":
            yield from _ids_of(value.get("id"))
    elif isinstance(value, (list, tuple)):
        for item in value:
            yield from _ids(item)


def _ids_of(call_id):
    if isinstance(call_id, str) and call_id:
        yield call_id
