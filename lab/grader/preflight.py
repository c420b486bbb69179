"""Checks made before any test runs: is this a Python file we can grade at all?

Everything here reads the file or compiles it, which runs none of it; importing it happens
in the sandbox (see sandbox.py). Each check returns None when all is well, or a sentence that says
what is wrong and what to do next. A file that changes between the checks and the copy the
grader keeps is checked again as copied, so the copy is what passed.

Two refusals keep what is graded the same as what a person reads: a symbolic link is not
graded (the work would be whatever the link points to, perhaps someone else's), and neither is
a file whose coding line names an encoding other than UTF-8 (Python would run it decoded one
way while every editor and reviewer shows it decoded another).
"""

import codecs
import errno
import io
import os
import stat
import tokenize

from lab.kit.escape import printable

LARGEST = 5 * 1024 * 1024  # bytes; a harness.py is a few hundred lines, not megabytes
SHOWN = 160                # characters of a line with a syntax error shown


def read_problem(path: str) -> str | None:
    """Why the file at `path` cannot be read as a Python source, or None. The file is opened
    without following a link, so the bytes checked are the file's own."""
    if os.path.islink(path):
        return _a_link(path)
    if not os.path.exists(path):
        return f"{path} does not exist. Check the path: it should name your harness.py."
    if os.path.isdir(path):
        return f"{path} is a folder, not a file. Name the harness.py inside it."
    if not os.path.isfile(path):
        return f"{path} is not a regular file. Name your harness.py."
    try:
        data = _read_own_bytes(path)
    except OSError as error:
        if error.errno == errno.ELOOP:  # it became a link after the check above
            return _a_link(path)
        return (f"{path} cannot be read ({error.strerror or error}). Check that it is yours "
                "and readable.")
    if data is None:  # it changed into a link or a special file while being checked
        return f"{path} changed while it was being read. Submit a plain file and try again."
    if len(data) > LARGEST:
        return (f"{path} is larger than the {LARGEST // 1024 // 1024} MiB a harness.py may be. "
                "Name your harness.py.")
    if not data.strip():
        return f"{path} is empty. Start again from the starter file (lab_check --where)."
    if b"\0" in data:
        return f"{path} is a binary file, not Python source. Name your harness.py."
    try:
        data.decode("utf-8")
    except UnicodeDecodeError as error:
        return (f"{path} is not UTF-8 text (byte {error.start} cannot be read). Save it as UTF-8 "
                "in your editor.")
    return coding_problem(data, path)


def coding_problem(data: bytes, path: str = "harness.py") -> str | None:
    """Why the source `data` (bytes) is not graded for its PEP 263 coding line, or None: the
    encoding Python would decode it with (found as Python finds it, in the first two lines)
    must be UTF-8, under any of its names, since a grader shows what it grades."""
    try:
        encoding, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
        if codecs.lookup(encoding).name in ("utf-8", "utf-8-sig"):
            return None
    except (SyntaxError, LookupError):  # an encoding Python does not know, or a clash with a BOM
        pass
    lines = data.splitlines()[:2]
    number = next((n for n, text in enumerate(lines, 1) if b"coding" in text), 1)
    shown = printable(lines[number - 1].decode("utf-8-sig", "replace").strip())[:SHOWN]
    return (f"{path} declares an encoding other than UTF-8 on line {number}: {shown}\n"
            "lab_check grades UTF-8 source only, because a grader shows what it grades: Python "
            "would run this file decoded otherwise than an editor shows it. Delete that line "
            "(or make it `# -*- coding: utf-8 -*-`), save the file as UTF-8, and run lab_check "
            "again.")


def syntax_problem(path: str, shown_as: str | None = None) -> str | None:
    """Why the file cannot be read (checked again: it is the copy the grader keeps), or its
    first syntax error, shown with its line; or None. It is compiled as Python imports it,
    from bytes, so a byte-order mark or a coding line means what it means there."""
    shown_as = shown_as or os.path.basename(path)
    problem = read_problem(path)
    if problem:
        return problem.replace(path, shown_as)
    with open(path, "rb") as source:
        data = source.read()
    try:
        compile(data, path, "exec", dont_inherit=True)
    except SyntaxError as error:
        line = (error.text or "").rstrip("\n")
        caret = ""
        if line and error.offset and error.offset <= SHOWN:
            caret = "\n    " + " " * (error.offset - 1) + "^"
        line = line if len(line) <= SHOWN else line[:SHOWN] + " [...]"
        return (f"{shown_as} has a syntax error on line {error.lineno}: "
                f"{error.msg}\n    {line}{caret}\nFix that line and run lab_check again.")
    except ValueError as error:  # e.g. source with null bytes that slipped through
        return f"{shown_as} cannot be compiled: {error}"
    except (RecursionError, MemoryError):  # nesting deeper than Python's compiler goes
        return (f"{shown_as} cannot be compiled: it nests brackets or blocks deeper than Python "
                "can read. Simplify it and run lab_check again.")
    return None


def _a_link(path):
    return (f"{path} is a symbolic link, and a link is not graded: its work would be whatever "
            "it points to. Submit the file itself, not a link.")


def _read_own_bytes(path):
    """The first LARGEST + 1 bytes of the regular file at `path`, read without following a
    link and without waiting on a fifo; None when it is not a regular file once opened."""
    descriptor = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC)
    with open(descriptor, "rb") as source:
        if not stat.S_ISREG(os.fstat(source.fileno()).st_mode):
            return None
        return source.read(LARGEST + 1)
