"""Checks made before any test runs: is this a Python file we can grade at all?

Everything here reads the file or compiles it, which runs none of it; importing it happens
in a child (see sandbox.py). Each check returns None when all is well, or a sentence that says
what is wrong and what to do next. A file that changes between the checks and the copy the
grader keeps is checked again as copied, so the copy is what passed.
"""

import os

LARGEST = 5 * 1024 * 1024  # bytes; a harness.py is a few hundred lines, not megabytes
SHOWN = 160                # characters of a line with a syntax error shown


def read_problem(path):
    """Why the file at `path` cannot be read as a Python source, or None."""
    if not os.path.exists(path):
        return f"{path} does not exist. Check the path: it should name your harness.py."
    if os.path.isdir(path):
        return f"{path} is a folder, not a file. Name the harness.py inside it."
    if not os.path.isfile(path):
        return f"{path} is not a regular file. Name your harness.py."
    try:
        if os.path.getsize(path) > LARGEST:
            return (f"{path} is {os.path.getsize(path) // 1024} KiB, larger than the "
                    f"{LARGEST // 1024 // 1024} MiB a harness.py may be. Name your harness.py.")
        with open(path, "rb") as source:
            data = source.read(LARGEST + 1)
    except OSError as error:
        return (f"{path} cannot be read ({error.strerror or error}). Check that it is yours "
                "and readable.")
    if not data.strip():
        return f"{path} is empty. Start again from the starter file (lab_check --where)."
    if b"\0" in data:
        return f"{path} is a binary file, not Python source. Name your harness.py."
    try:
        data.decode("utf-8")
    except UnicodeDecodeError as error:
        return (f"{path} is not UTF-8 text (byte {error.start} cannot be read). Save it as UTF-8 "
                "in your editor.")
    return None


def syntax_problem(path, shown_as=None):
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
