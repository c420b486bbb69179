"""Checks made before any test runs: is this a Python file we can grade at all?

Everything here reads the file or compiles it, which runs none of it; importing it happens
in a child (see sandbox.py). Each check returns None when all is well, or a sentence that says
what is wrong and what to do next.
"""

import os


def read_problem(path):
    """Why the file at `path` cannot be read as a Python source, or None."""
    if not os.path.exists(path):
        return f"{path} does not exist. Check the path: it should name your harness.py."
    if os.path.isdir(path):
        return f"{path} is a folder, not a file. Name the harness.py inside it."
    if not os.path.isfile(path):
        return f"{path} is not a regular file. Name your harness.py."
    data = open(path, "rb").read()
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
    """The first syntax error in the file, shown with its line, or None."""
    shown_as = shown_as or os.path.basename(path)
    source = open(path, encoding="utf-8").read()
    try:
        compile(source, path, "exec", dont_inherit=True)
    except SyntaxError as error:
        line = (error.text or "").rstrip("\n")
        caret = ""
        if line and error.offset:
            caret = "\n    " + " " * (error.offset - 1) + "^"
        return (f"{shown_as} has a syntax error on line {error.lineno}: "
                f"{error.msg}\n    {line}{caret}\nFix that line and run lab_check again.")
    except ValueError as error:  # e.g. source with null bytes that slipped through
        return f"{shown_as} cannot be compiled: {error}"
    return None
