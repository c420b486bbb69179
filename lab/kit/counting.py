"""A count and its noun, agreeing: "1 request", "3 requests", "0 requests".

Every report and every example that prints how many of something there were goes through
here, so that one request is never "1 requests".
"""

from __future__ import annotations


def counted(count: float, noun: str, plural: str | None = None) -> str:
    """`count` and `noun`, the noun plural unless the count is one (`plural` for a noun that
    does not just take an "s": counted(2, "reply", "replies")). A score of 1.0 is one too."""
    return f"{count:g} {noun if count == 1 else plural or noun + 's'}"
