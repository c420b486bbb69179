"""A pretend shell over a Workspace: a handful of read-only commands, and honest refusals.

    pwd                     the workspace's root, shown as /workspace
    ls [PATH]               the names in a folder, one a line
    cat PATH...             files, one after the other
    head [-n N] PATH        the first N lines (10)
    tail [-n N] PATH        the last N lines (10)
    wc -l PATH...           line counts
    grep PATTERN PATH...    lines containing PATTERN (a plain substring), with file names
                            when there is more than one file
    echo WORDS...           the words
    true, false             exit 0, exit 1

Words are split as a POSIX shell splits them (quotes work); pipes, redirection and variables
do not exist here. Anything else, `pytest` and `python` included, exits 127 with a line that
says so: the lab never runs a real program on your machine.
"""

from __future__ import annotations

import shlex

from .workspace import Workspace

COMMANDS = ("pwd", "ls", "cat", "head", "tail", "wc", "grep", "echo", "true", "false")


class Shell:
    """Shell(workspace): runs the commands above over a Workspace's files."""

    def __init__(self, workspace: Workspace) -> None:
        self.workspace = workspace

    def run(self, command: str) -> tuple[str, int]:
        """Run one command line; returns (output, exit_code). Never raises for a bad line."""
        try:
            words = shlex.split(command)
        except ValueError as error:
            return f"bash: {error}\n", 2
        if not words:
            return "", 0
        name, args = words[0], words[1:]
        if name not in COMMANDS:
            return (f"bash: {name}: command not found (this lab's shell has only: "
                    f"{', '.join(COMMANDS)})\n", 127)
        try:
            return getattr(self, "_" + name)(args)
        except (FileNotFoundError, NotADirectoryError, PermissionError, TypeError) as error:
            return f"{name}: {error}\n", 1
        except ValueError as error:
            return f"{name}: {error}\n", 2

    def _pwd(self, args: list[str]) -> tuple[str, int]:
        return "/workspace\n", 0

    def _ls(self, args: list[str]) -> tuple[str, int]:
        names = self.workspace.listdir(args[0] if args else ".")
        return "".join(name + "\n" for name in names), 0

    def _cat(self, args: list[str]) -> tuple[str, int]:
        if not args:
            raise ValueError("missing file operand")
        return "".join(self.workspace.read_text(path) for path in args), 0

    def _head(self, args: list[str]) -> tuple[str, int]:
        count, path = self._count_and_path(args)
        lines = self.workspace.read_text(path).splitlines(keepends=True)
        return "".join(lines[:count]), 0

    def _tail(self, args: list[str]) -> tuple[str, int]:
        count, path = self._count_and_path(args)
        lines = self.workspace.read_text(path).splitlines(keepends=True)
        return "".join(lines[-count:] if count else []), 0

    def _wc(self, args: list[str]) -> tuple[str, int]:
        if not args or args[0] != "-l" or len(args) < 2:
            raise ValueError("only `wc -l PATH...` is available here")
        counts = [(len(self.workspace.read_text(p).splitlines()), p) for p in args[1:]]
        return "".join(f"{n} {p}\n" for n, p in counts), 0

    def _grep(self, args: list[str]) -> tuple[str, int]:
        if len(args) < 2:
            raise ValueError("usage: grep PATTERN PATH...")
        pattern, paths = args[0], args[1:]
        found = [(path, line) for path in paths
                 for line in self.workspace.read_text(path).splitlines() if pattern in line]
        prefix = (lambda path: f"{path}:") if len(paths) > 1 else (lambda path: "")
        return "".join(f"{prefix(path)}{line}\n" for path, line in found), 0 if found else 1

    def _echo(self, args: list[str]) -> tuple[str, int]:
        return " ".join(args) + "\n", 0

    def _true(self, args: list[str]) -> tuple[str, int]:
        return "", 0

    def _false(self, args: list[str]) -> tuple[str, int]:
        return "", 1

    @staticmethod
    def _count_and_path(args: list[str]) -> tuple[int, str]:
        if len(args) == 3 and args[0] == "-n" and args[1].isdigit():
            return int(args[1]), args[2]
        if len(args) == 1:
            return 10, args[0]
        raise ValueError("usage: head|tail [-n N] PATH")
