"""A count and its noun, agreeing: "1 request", "3 requests", "0 requests".

Every report and every example that prints how many of something there were goes through
here, so that one request is never "1 requests".
"""

from __future__ import annotations


def counted(count: float, noun: str, plural: str | None = None, *, spec: str = "") -> str:
    """`count` and `noun`, the noun plural unless the count is one (`plural` for a noun that
    does not just take an "s": counted(2, "reply", "replies")). A score of 1.0 is one too.

    `spec` is the count's format spec, as in an f-string: counted(12000, "byte", spec=",")
    is "12,000 bytes", counted(3, "line", spec=">4") is "   3 lines"."""
    return f"{_number(count, spec)} {noun if count == 1 else plural or noun + 's'}"


def _number(count: float, spec: str) -> str:
    """The count as written: by `spec` if one is given, else a whole number without a point
    (however large) and any other number as short as it reads ("2.5")."""
    if spec:
        return format(count, spec)
    if isinstance(count, int) or float(count).is_integer():
        return str(int(count))
    return f"{count:g}"
