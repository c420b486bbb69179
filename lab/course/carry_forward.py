"""Carry a student's own harness forward to the next lab, instead of starting them afresh.

The next lab's starter is its parent's finished harness plus its gaps. A student who has just
passed the parent holds a finished harness of their own, so the next lab can start from that:
the lab's changes (lessons/<lab>/changes.py, see lab.course.compose) are composed onto the student's
file in their starter form, gaps and all, and the definitions its changes.patch edits are put
in as the patch leaves them. What the lab adds is added; what it replaces is
replaced by the reference's (or by its gap, where the lab asks the student to write it), so the
new tests grade the lab's own idea and not an old difference; everything else stays the
student's, word for word.
"""

from __future__ import annotations

from dataclasses import dataclass

from lab.course import compose, order as course, patches
from lab.course.gap_markers import BEGIN, END, make_starter, solve
from lab.course.starter import declares, finished_text


@dataclass(frozen=True)
class Carried:
    text: str                   # the student's file, moved on to the lab
    replaced: tuple[str, ...]   # the student's definitions the lab's changes took the place of
    added: tuple[str, ...]      # names the lab brings that the student's file did not have


def carry_forward(student_text: str, lab: course.Lab, since: course.Lab | None = None,
                  project=None) -> Carried:
    """`student_text` moved on to `lab`: the changes of `lab`, and of every lab on its chain
    after `since` (None: `lab`'s own alone), composed onto it in starter form. ComposeError,
    naming the line, when the student's file cannot be read as a harness (it does not parse, or
    code stands before the first region header)."""
    links = course.chain(lab, project)
    if since is not None:
        before = {link.id for link in course.chain(since, project)}
        links = tuple(link for link in links if link.id not in before)
    else:
        links = (lab,)
    given = _gaps(make_starter(finished_text(since))) if since is not None and \
        since.changes is not None else []
    ours = compose.parse(_unmarked(student_text, given), "your harness")
    mine = ours.names()
    replaced: list[str] = []
    added: list[str] = []
    for link in links:
        if link.changes is None:
            continue
        edited = _edited(link, project)
        for name in edited.names():
            (replaced if name in mine else added).append(name)
        ours = compose.merge(ours, edited, str(link.edits)) if edited.regions else ours
        changes = compose.parse(make_starter(link.changes.read_text(encoding="utf-8")),
                                str(link.changes.name))
        for name in sorted(changes.names(), key=_order(changes)):
            (replaced if name in mine else added).append(name)
        ours = compose.merge(ours, changes, str(link.changes.name))
    return Carried(compose.render(ours, declares(lab)), tuple(dict.fromkeys(replaced)),
                   tuple(n for n in dict.fromkeys(added) if n not in replaced))


def _edited(link: course.Lab, project) -> compose.Harness:
    """The definitions `link`'s changes.patch edits, as the patch leaves them (in starter form)
    and in the regions they stand in: they replace the student's whole, since a patch is
    written against the reference's lines, which the student's may not be."""
    if link.edits is None:
        return compose.Harness("", [], [])
    base = solve(finished_text(course.find(link.builds_on, project)))
    after = compose.parse(make_starter(patches.apply(base, link.edits.read_text(encoding="utf-8"),
                                                     name=link.edits.name)))
    before = {(r.name, u.names): u.text for r in compose.parse(base).regions for u in r.units}
    regions = [compose.Region(r.name, "", [u for u in r.units
                                           if before.get((r.name, u.names)) != u.text])
               for r in after.regions]
    return compose.Harness("", [], [r for r in regions if r.units])


def _unmarked(text: str, given: list[list[str]] | None = None) -> str:
    """A student's file without the gap markers the starter left in it: what sat between them
    is the student's own code now. In a gap whose code the student replaced, the starter's own
    comments (`given`: each gap's lines as the starter had them) go too, since they spoke of
    the code that is gone ("A first draft ... which replies does it get wrong?"); a comment of
    the student's own, or in a gap left as it was given, stays."""
    given = given or []
    comments = {line.strip() for gap in given for line in gap if _comment(line)}
    code = [_code(gap) for gap in given]
    out: list[str] = []
    gap: list[str] | None = None
    for line in compose.physical_lines(text):
        if line.strip() == BEGIN:
            gap = []
        elif line.strip() == END and gap is not None:
            replaced = _code(gap) not in code
            out += [kept for kept in gap
                    if not (replaced and _comment(kept) and kept.strip() in comments)]
            gap = None
        elif line.strip() != END:
            (out if gap is None else gap).append(line)
    return "".join(out + (gap or []))


def _gaps(starter_text: str) -> list[list[str]]:
    """The lines of each gap of a starter, in order (between its markers)."""
    gaps: list[list[str]] = []
    inside = False
    for line in compose.physical_lines(starter_text):
        if line.strip() == BEGIN:
            inside = True
            gaps.append([])
        elif line.strip() == END:
            inside = False
        elif inside:
            gaps[-1].append(line)
    return gaps


def _comment(line: str) -> bool:
    return line.strip().startswith("#")


def _code(lines: list[str]) -> list[str]:
    """A gap's code: its lines that are neither blank nor comments, as written."""
    return [line.strip() for line in lines if line.strip() and not _comment(line)]


def _order(harness: compose.Harness):
    order = [name for region in harness.regions for unit in region.units for name in unit.names]
    return order.index
