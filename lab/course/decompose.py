"""A lab's changes worked out from its finished harness: composing, run backwards.

An author may find it easier to edit a lab's whole finished.py than its changes. `changes_of`
takes the parent's finished harness and the lab's (edited) one and writes what composing needs
to make the second from the first, and no line more:

  - changes.patch: the parent's definitions the lab edits in place, where a definition keeps
    half its lines or a run of six as they were (a new argument, a line in a loop, a gap
    marked in it), as a unified diff against the parent's harness with its gaps filled (lab.course.patches);
  - changes.py: the lab's docstring, new imports, `# drop:` lines, the definitions it adds,
    moves or rewrites, and `# place:` lines where a new one does not simply follow the one
    written before it (lab.course.compose).

`python -m lab.course.starter --absorb LAB` does this for LAB and rebuilds; composing the two files
onto the parent gives the edited finished.py back byte for byte, or it is an AbsorbError.
"""

from __future__ import annotations

import copy
import difflib

from lab.course import compose, patches
from lab.course.gap_markers import solve

KEEP = 0.5  # an edit in place is a patch when at least this share of its lines is unchanged,
RUN = 6     # or when it keeps a run of this many lines as they were


class AbsorbError(ValueError):
    """The finished harness cannot be had by composing onto its parent (say, its regions are
    out of the parent's order)."""


def changes_of(parent: str, finished: str, declares: str) -> tuple[str, str | None]:
    """(changes.py, changes.patch or None) that compose `parent` into `finished`."""
    base = solve(parent)
    first = base.splitlines(keepends=True)[0] if base.startswith("# lab:") else ""
    edited = _edits(compose.parse(base), compose.parse(finished), first)
    patch = None
    if edited != base:
        patch = patches.diff(base, edited, name="the parent's finished harness, gaps filled",
                             description="Edits this lab makes inside its parent's definitions "
                                         "(made by python -m lab.course.starter --absorb).")
    changes = _changes(edited, finished)
    if compose.compose(parent, changes, declares, patch=patch) != finished:
        raise AbsorbError("composing the changes worked out does not give the finished file "
                          "back; write changes.py by hand (see lab/course/compose.py)")
    return changes, patch


def _similar(old: str, new: str) -> bool:
    """Whether `new` keeps enough of `old` to be written as an edit of it: half its lines, or
    a run of six (which, written out again, would be the same code in two labs' sources)."""
    a, b = old.splitlines(), new.splitlines()
    blocks = difflib.SequenceMatcher(None, a, b, autojunk=False).get_matching_blocks()
    return sum(block.size for block in blocks) >= KEEP * max(len(a), len(b)) or \
        max(block.size for block in blocks) >= RUN


def _edits(parent: compose.Harness, child: compose.Harness, first: str) -> str:
    """The parent's text with each definition the child edits in place (same region, mostly
    the same lines) already edited."""
    edited = copy.deepcopy(parent)
    placed = {(r.name, u.names): u for r in child.regions for u in r.units}
    for region in edited.regions:
        for unit in region.units:
            theirs = placed.get((region.name, unit.names))
            if theirs is not None and theirs.text != unit.text and _similar(unit.text, theirs.text):
                unit.text = theirs.text
    return compose.render(edited, first)


def _changes(parent_text: str, child_text: str) -> str:
    parent, child = compose.parse(parent_text), compose.parse(child_text)
    where = {u.names: (r.name, u.text) for r in parent.regions for u in r.units}
    out = [child.docstring]
    imports = [line for line in child.imports if line not in parent.imports]
    if imports:
        out += ["\n"] + imports
    kept = child.names()
    drops = [n for r in parent.regions for u in r.units for n in u.names if n not in kept]
    if drops:
        out.append("\n# drop: " + ", ".join(drops) + "\n")
    theirs = {r.name: r for r in parent.regions}
    for at, region in enumerate(child.regions):
        units = [u for u in region.units if where.get(u.names) != (region.name, u.text)]
        new = region.name not in theirs
        intro = region.intro if new or theirs[region.name].intro != region.intro else ""
        # a header with nothing under it says where the new region after it goes, which only
        # needs saying when one of the parent's regions comes after that one
        anchors = at + 1 < len(child.regions) and child.regions[at + 1].name not in theirs \
            and any(r.name in theirs for r in child.regions[at + 1:])
        if not (units or new or intro or anchors):
            continue
        out.append(f"\n\n# == {region.name} ==\n{intro}")
        before = None
        for k, unit in enumerate(units):
            lead = unit.lead if k else max(unit.lead, 1)
            index = region.units.index(unit)
            previous = region.units[index - 1] if index else None
            in_place = any(where.get(u, (None,))[0] == region.name
                           for u in [unit.names] + [(n,) for n in unit.names])
            hint = ""
            if not new and not in_place and (previous is None or previous is not before):
                hint = ("# place: first\n" if previous is None
                        else f"# place: after {previous.names[0]}\n")
            out.append("\n" * lead + hint + unit.text)
            before = unit
    return "".join(out).rstrip("\n") + "\n"
