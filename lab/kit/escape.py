"""Text made safe for the place it is written to, so that what a reader sees is what was there.

A submission controls much of the text a grade holds (exception messages, what it printed,
its folder's name), and some text cannot be written, or should not be shown, as it is:

    printable(text)      every character that cannot be encoded (a lone surrogate, such as an
                         exception built from undecodable bytes) or that a terminal or a viewer
                         would act on rather than show (NUL, ESC, a carriage return, a bell,
                         a right-to-left override) written as a visible escape: \\x00, \\u202e
    shown_name(name)     a file or folder name as text, whatever its bytes, one to one
    file_name(name)      a name that is safe to create in any folder and tells names apart
    csv_cell(value)      a spreadsheet cell that is never taken for a formula

Tabs and newlines are kept by `printable`: a message has lines. A lone surrogate from
U+DC80 to U+DCFF is how Python carries a byte that was not UTF-8 (os.fsdecode, the
surrogateescape handler), so it is shown as that byte, \\xNN, in a message as in a name.
"""

import hashlib
import os
import re

# C0 controls but tab and newline, DEL and C1 controls, lone surrogates, the two
# non-characters XML cannot hold, and the invisible characters that reorder what follows them
# (the "Trojan source" trick): shown, never acted on. A name is one line, so in a name tabs
# and newlines are escaped too.
OTHERS = "\ud800-\udfff\ufffe\uffff\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069"
HIDDEN = re.compile(f"[\x00-\x08\x0b-\x1f\x7f-\x9f{OTHERS}]")
HIDDEN_IN_A_NAME = re.compile(f"[\x00-\x1f\x7f-\x9f{OTHERS}]")
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")  # what a spreadsheet may read as a formula
SLUG_LENGTH = 40   # readable characters of a name kept in a file name
HASH_LENGTH = 12   # hex digits of the name's sha256 that tell apart names with the same slug


def printable(text: str) -> str:
    """`text` with every hidden or unencodable character written as an escape (\\xNN below
    U+0080 and for a byte that was not UTF-8, \\uNNNN otherwise), so that it can be written in
    UTF-8, XML or JSON, and shown on a terminal, as exactly the characters it had. Idempotent."""
    return HIDDEN.sub(_escape, text)


def shown_name(name: str | bytes) -> str:
    """A file or folder name (str as os.listdir gives it, or bytes) as readable text that tells
    every name apart: bytes that are not UTF-8 become \\xNN, hidden characters are escaped as by
    `printable`, tabs and line breaks too (a name is one line), and a backslash is doubled so
    that no name can pose as another's escape.
    b'caf\\xe9' -> 'caf\\\\xe9'; 'line\\nbreak' -> 'line\\\\x0abreak'."""
    text = os.fsdecode(name) if isinstance(name, bytes) else name
    text = text.replace("\\", "\\\\")
    return HIDDEN_IN_A_NAME.sub(_escape, text)


def file_name(name: str | bytes) -> str:
    """A file name for the thing called `name` (str or bytes, any bytes at all): its letters,
    digits, dots, dashes and underscores (at most SLUG_LENGTH of them, others as "_"), then a
    dash and the first HASH_LENGTH hex digits of the sha256 of the name's bytes. Never hidden,
    never an option, never "." or "..", and two names give two files as surely as 48 bits of
    sha256 tell them apart (among a thousand names, a clash has about one chance in 500
    million; the batch checks anyway)."""
    raw = os.fsencode(name)
    slug = re.sub(r"[^A-Za-z0-9._-]+", "_", raw.decode("ascii", "replace"))
    slug = slug.lstrip(".-_")[:SLUG_LENGTH] or "unnamed"
    return f"{slug}-{hashlib.sha256(raw).hexdigest()[:HASH_LENGTH]}"


def csv_cell(value: object) -> object:
    """`value` as a CSV cell: text that a spreadsheet would run as a formula (it starts with
    = + - @, a tab or a carriage return) gets a leading single quote, as OWASP advises; anything
    else is left alone."""
    if isinstance(value, str) and value.startswith(FORMULA_STARTS):
        return "'" + value
    return value


def _escape(match):
    code = ord(match.group())
    if 0xdc80 <= code <= 0xdcff:  # Python's stand-in for a byte that was not UTF-8: the byte
        return f"\\x{code - 0xdc00:02x}"
    return f"\\x{code:02x}" if code < 0x80 else f"\\u{code:04x}"
