"""What two submissions have in common once names, comments and spacing are set aside.

`fingerprint(source)` is a digest of the file's syntax tree with every name a student chose
(variables, arguments, functions, classes, attributes, import aliases) replaced by the order it
first appears in, and docstrings left out; comments and spacing never reach the tree. Two files
that differ only in those have the same fingerprint: the same code, retyped or renamed. Strings
and numbers are kept: they are what the code does.

A student's file is hostile: one that does not parse, that nests past what the parser or this
walk can follow, or that is not text, has no fingerprint ("").
"""

from __future__ import annotations

import ast
import hashlib
import os
import stat

LARGEST = 4 << 20  # bytes: a larger file is not fingerprinted


class _Renamed(ast.NodeTransformer):
    """Every name replaced by its order of first appearance; docstrings dropped."""

    def __init__(self) -> None:
        self.names: dict[str, str] = {}

    def _as(self, name: str | None) -> str | None:
        return None if name is None else self.names.setdefault(name, f"n{len(self.names)}")

    def generic_visit(self, node: ast.AST) -> ast.AST:
        body = getattr(node, "body", None)
        if isinstance(body, list) and body and _is_docstring(body[0]):
            setattr(node, "body", body[1:] or [ast.Pass()])
        for field in ("name", "id", "arg", "attr", "asname"):
            value = getattr(node, field, None)
            if isinstance(value, str):
                setattr(node, field, self._as(value))
        return super().generic_visit(node)


def _is_docstring(statement: ast.AST) -> bool:
    return (isinstance(statement, ast.Expr) and isinstance(statement.value, ast.Constant)
            and isinstance(statement.value.value, str))


def of_source(source: bytes) -> str:
    """The fingerprint of a Python file's bytes, or "" when it has none."""
    try:
        tree = ast.parse(source)
        shape = ast.dump(_Renamed().visit(tree), annotate_fields=False, include_attributes=False)
    except (SyntaxError, ValueError, RecursionError, MemoryError, TypeError):
        return ""
    return hashlib.sha256(shape.encode()).hexdigest()[:16]


def of_file(path: str | os.PathLike[str]) -> str:
    """The fingerprint of the regular file at `path` (no link followed), or ""."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC)
    except OSError:
        return ""
    with open(fd, "rb") as file:
        facts = os.fstat(file.fileno())
        if not stat.S_ISREG(facts.st_mode) or facts.st_size > LARGEST:
            return ""
        return of_source(file.read(LARGEST + 1))
