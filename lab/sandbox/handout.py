"""Whether what an object hands out is a copy: the change a careless caller makes, and its trace.

A harness that hands out its own list (a `messages` that returns `self._messages`) lets any
caller change the record behind the harness's back: append to what it read, and the next
request carries a message nobody said. This probe reads the attribute, appends a message to
what came back, as such a caller would, and reads the attribute again. It runs where the
object lives: in the sandbox for a graded harness (serve.py's "handed_out" request), in the
caller's own process for a harness imported there (lab.testkit.handed_out chooses).
"""

from __future__ import annotations

from typing import Any

SLIPPED = "a line a caller slipped in"


def handed_out(owner: Any, name: str) -> dict[str, Any]:
    """owner.name read, appended to, and read again: what it was, what came back (its type's
    name), the append refused ("Type: message", or None when it went through), and owner.name
    afterwards. Plain data, as long as what the attribute holds is."""
    before = list(getattr(owner, name))
    handed = getattr(owner, name)
    try:
        handed.append({"role": "user", "content": SLIPPED})
    except Exception as error:  # a tuple has no append: the caller's change goes nowhere
        refused: str | None = f"{type(error).__name__}: {error}"
    else:
        refused = None
    return {"kind": type(handed).__name__, "refused": refused, "before": before,
            "after": list(getattr(owner, name))}
