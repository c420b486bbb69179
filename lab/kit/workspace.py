"""An in-memory folder for the lab's tools to read and write, so no lab touches a real disk."""

from __future__ import annotations

import posixpath
from collections.abc import Mapping


class Workspace:
    """Workspace({"main.py": "...", "src/app.py": "..."}): text files held in a dict.

    Paths are relative and use "/"; "./main.py" and "main.py" are the same file. Folders are
    implied by the paths of the files in them. Every write is kept, in order, in `.writes` as
    (path, content) pairs, so a test can say exactly what a run changed ([] when nothing).
    """

    def __init__(self, files: Mapping[str, str] | None = None) -> None:
        self._files = {self._key(path): content for path, content in (files or {}).items()}
        self.writes: list[tuple[str, str]] = []

    def exists(self, path: str) -> bool:
        """True for a file, or for a folder that holds at least one file."""
        key = self._key(path)
        return key in self._files or key == "" or any(
            name.startswith(key + "/") for name in self._files)

    def read_text(self, path: str) -> str:
        """The file's text; FileNotFoundError when there is no such file."""
        key = self._key(path)
        if key not in self._files:
            raise FileNotFoundError(f"No such file: {path}")
        return self._files[key]

    def write_text(self, path: str, content: str) -> None:
        """Make or replace the file, and keep the write in `.writes`."""
        if not isinstance(content, str):
            raise TypeError(f"content must be a string, not {type(content).__name__}")
        key = self._key(path)
        self._files[key] = content
        self.writes.append((key, content))

    def listdir(self, path: str = ".") -> list[str]:
        """The names directly inside folder `path`, sorted; a folder's name ends with "/"."""
        key = self._key(path)
        prefix = key + "/" if key else ""
        if key in self._files:
            raise NotADirectoryError(f"Not a folder: {path}")
        names: set[str] = set()
        for name in self._files:
            if name.startswith(prefix):
                first, _, rest = name[len(prefix):].partition("/")
                names.add(first + "/" if rest else first)
        if not names and key:
            raise FileNotFoundError(f"No such folder: {path}")
        return sorted(names)

    def files(self) -> dict[str, str]:
        """A copy of every file, path -> content."""
        return dict(self._files)

    @staticmethod
    def _key(path: str) -> str:
        if not isinstance(path, str):
            raise TypeError(f"a path must be a string, not {type(path).__name__}")
        key = posixpath.normpath(path.strip() or ".")
        if key.startswith("/") or key == ".." or key.startswith("../"):
            raise PermissionError(f"{path} is outside the workspace")
        return "" if key == "." else key
