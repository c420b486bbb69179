"""A regrade keeps what it replaces: the earlier result beside the new one.

When a batch grades a submission its summary already holds (`--only NAME`, or `--resume` after
the student's file changed), the earlier result file is copied to earlier/<name>.<n>.<ext>
in the output folder (n counting that student's regrades from 1) before the new one is
written, and the new row of summary.json carries "earlier": a list, oldest first, of each
earlier grading's score, max_score, status, seed, sha256 and where its result file was kept.
summary.csv shows the latest grading only; summary.json and the earlier files show the trail.
"""

from __future__ import annotations

import os
import pathlib
import shutil
import tempfile
from collections.abc import Mapping
from typing import Any

EARLIER = "earlier"  # the folder, in the output folder, of the results regrades replaced
KEPT = ("score", "max_score", "status", "seed", "sha256")


def keep(out: str | os.PathLike[str], before: Mapping[str, Any] | None) -> list[dict[str, Any]]:
    """The trail for a submission graded again whose summary row was `before` (None: graded
    for the first time, no trail): its earlier trail, then `before` itself, whose result file
    is copied beside the results first."""
    if not before:
        return []
    out = pathlib.Path(out)
    trail = [dict(one) for one in before.get(EARLIER) or [] if isinstance(one, dict)]
    place = str(before.get("result_file", ""))
    kept = ""
    source = out / place
    if place and not os.path.isabs(place) and ".." not in pathlib.PurePath(place).parts \
            and source.is_file() and not source.is_symlink():
        folder = out / EARLIER
        folder.mkdir(parents=True, exist_ok=True)
        target = folder / f"{source.stem}.{len(trail) + 1}{source.suffix}"
        with tempfile.NamedTemporaryFile(dir=folder, delete=False, prefix=f".{target.name}.",
                                         suffix=".part") as part:
            with open(source, "rb") as old:
                shutil.copyfileobj(old, part)
        os.replace(part.name, target)
        kept = target.relative_to(out).as_posix()
    trail.append(dict({key: before.get(key) for key in KEPT}, result_file=kept))
    return trail
