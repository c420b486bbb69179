"""Which harness a lesson's examples run on, and why: the one Pick that both pickers return,
lab.notebook.harnesses (the notebook's, which knows where the finished harness is) and the site's
browser stand-in (lab/site/browser/harnesses.py, which has only the reader's file and the
starter); and `patched`, which both hand a notebook's cells to swap a piece of a harness for one
example. It holds no path to an answer and imports nothing of the lab, so the site hands it
to the browser as it is (lab.site.browser_support).
"""

import contextlib
import pathlib
import types
from collections.abc import Iterator
from dataclasses import dataclass

# The folder the lab sits in: the course's project on its machine, Pyodide's home in a page.
ROOT = pathlib.Path(__file__).resolve().parents[2]


@dataclass(frozen=True)
class Pick:
    """A harness module, the file it came from, and why it was chosen."""
    module: types.ModuleType
    path: pathlib.Path
    reason: str

    def __str__(self) -> str:
        return f"examples run on: {shown(self.path)}\nwhy: {self.reason}"


def shown(path: str | pathlib.Path) -> str:
    """`path` as a reader knows it: from the folder the lab sits in (harness.py,
    lessons/10-poisoned-transcript/finished.py), or whole when it is elsewhere."""
    path = pathlib.Path(path)
    try:
        return str(path.resolve().relative_to(ROOT))
    except ValueError:
        return str(path)


@contextlib.contextmanager
def patched(module: types.ModuleType, **replacements: object) -> Iterator[types.ModuleType]:
    """Inside the block, `module` has the given names set to the given values; afterwards
    the old values are back, however the block ended. Only names the module already has can
    be swapped, so a typo fails at once instead of swapping nothing."""
    unknown = [name for name in replacements if not hasattr(module, name)]
    if unknown:
        raise AttributeError(f"{getattr(module, '__name__', module)} has no "
                             f"{', '.join(unknown)} to swap; it has "
                             f"{', '.join(n for n in dir(module) if not n.startswith('_'))}")
    saved = {name: getattr(module, name) for name in replacements}
    try:
        for name, value in replacements.items():
            setattr(module, name, value)
        yield module
    finally:
        for name, value in saved.items():
            setattr(module, name, value)
