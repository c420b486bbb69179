"""A file written whole or not at all: what a batch's record and its class page are written with."""

from __future__ import annotations

import os
import pathlib
import tempfile


def write_text(path: str | os.PathLike[str], text: str) -> None:
    """Write `text` to `path` whole or not at all: a reader (or a crash) sees the old file or
    the new one, never half of the new."""
    path = pathlib.Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.NamedTemporaryFile("w", encoding="utf-8", dir=path.parent, delete=False,
                                     prefix=f".{path.name}.", suffix=".part") as part:
        part.write(text)
    os.replace(part.name, path)
