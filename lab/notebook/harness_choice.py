"""Which harness a lesson's examples run on, and why: the one Pick that both pickers return,
lab.notebook.harnesses (the notebook's, which knows where the finished harness is) and the site's
browser stand-in (lab/site/browser/harnesses.py, which has only the reader's file and the
starter). It holds no path to an answer and imports nothing of the lab, so the site hands it
to the browser as it is (lab.site.browser_support).
"""

import pathlib
from dataclasses import dataclass

# The folder the lab sits in: the course's project on its machine, Pyodide's home in a page.
ROOT = pathlib.Path(__file__).resolve().parents[2]


@dataclass(frozen=True)
class Pick:
    """A harness module, the file it came from, and why it was chosen."""
    module: object
    path: pathlib.Path
    reason: str

    def __str__(self):
        return f"examples run on: {shown(self.path)}\nwhy: {self.reason}"


def shown(path):
    """`path` as a reader knows it: from the folder the lab sits in (harness.py,
    lessons/10-poisoned-transcript/finished.py), or whole when it is elsewhere."""
    path = pathlib.Path(path)
    try:
        return str(path.resolve().relative_to(ROOT))
    except ValueError:
        return str(path)
