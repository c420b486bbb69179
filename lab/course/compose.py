"""A lab's harness, composed: its parent's finished harness plus what the lab changes.

No lab's harness is written out twice. The first lab of the course writes its whole harness;
every later lab writes only lessons/<folder>/changes.py, what it adds to or changes in its
parent's finished harness (lessons/course.toml names the parent). The finished harness is
that chain composed, and the starter is made from it by lab.course.starter; both are generated files
that `python -m lab.course.starter` rewrites and `--check` proves current. A lab that edits a few
lines inside its parent's definitions says so in lessons/<folder>/changes.patch, a unified diff
applied to the parent first (lab.course.patches), so that what it keeps is not written again.

A harness file is read as regions, each opened by a header comment and a one-line intro:

    # == 3 loop ==
    # The loop talks to the model. It holds no state between runs: the record is passed in.

and each region as units: one top-level definition (a def, a class, an assignment) with the
comments written right above it, or one whole gap (`# --- your code ---` to `# --- end ---`,
see lab.course.starter) with every definition in it. A changes.py is written the same way, with region
headers that need no number (`# == loop ==`; the composed file numbers them in order), and
composing it onto the parent's harness, with the parent's own gaps filled in, means:

  - a definition whose name the parent has replaces the parent's, in the parent's place when
    it sits under the same region there, moved to the end of its new region when not;
  - a new definition goes after the one written before it in changes.py (when that one is in
    the same region), else at the end of its region; a line `# place: first` or
    `# place: after name` right above it says otherwise (and is not copied into the harness);
  - a region the parent lacks goes after the region written before it in changes.py (at the
    end when there is none), so a header with nothing under it only says where the next one
    goes; comment lines right under a header replace its intro;
  - a line `# drop: name, other` takes the parent's definitions of those names out;
  - the module docstring, when changes.py has one, replaces the parent's, and imports are the
    union of both, plain imports first.

Names that a change names but its parent lacks, a drop of a name nobody defines, a unit that
defines two names a change splits: each is a ComposeError naming the file and the line, so a
chain that no longer fits together fails the rebuild rather than giving a wrong harness.
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass, field, replace

from lab.course import patches
from lab.course.gap_markers import BEGIN, END, solve

HEADER = re.compile(r"^# == (?:\d+ )?(?P<name>.+?) ==\s*$")
DROP = re.compile(r"^# drop: (?P<names>[\w, ]+)$")
PLACE = re.compile(r"^# place: (?:(?P<first>first)|after (?P<after>\w+))$")
DECLARES = re.compile(r"^# lab: ")


class ComposeError(ValueError):
    """A changes.py that does not fit the harness it changes."""


@dataclass
class Unit:
    names: tuple[str, ...]  # what it defines at the top level; () for a loose comment
    text: str               # its lines, comments above it included, each ending in "\n"
    lead: int               # blank lines before it
    place: str | None = None  # where a change puts it: "first", a name to follow, or None


@dataclass
class Region:
    name: str
    intro: str  # the comment lines under its header
    units: list[Unit] = field(default_factory=list)


@dataclass
class Harness:
    """A harness file as parts: what composing works on, and what `render` writes back."""
    docstring: str
    imports: list[str]
    regions: list[Region]
    drops: tuple[str, ...] = ()

    def names(self) -> set[str]:
        return {name for region in self.regions for unit in region.units for name in unit.names}


def compose(parent: str | None, changes: str, declares: str, *, patch: str | None = None,
            name: str = "changes.py") -> str:
    """The finished harness of a lab: `changes` (its changes.py) onto `parent` (its parent's
    finished harness, gaps and all; None for the first lab), under the first line `declares`.
    `patch` (its changes.patch), when it has one, edits the parent's definitions in place
    first: a unified diff against the parent with its gaps filled (lab.course.patches)."""
    ours = parse(changes, name)
    if parent is None:
        if ours.drops or patch:
            raise ComposeError(f"{name}: the first lab has nothing to drop or edit")
        return render(ours, declares)
    base = solve(parent)
    if patch:
        try:
            base = patches.apply(base, patch, name=name.replace("changes.py", "changes.patch"))
        except patches.PatchError as error:
            raise ComposeError(str(error)) from None
    return render(merge(parse(base, "the parent's harness"), ours, name), declares)


def parse(text: str, name: str = "harness") -> Harness:
    """`text` (a harness or a changes.py) as its docstring, imports and regions."""
    lines = physical_lines(text)
    try:
        tree = ast.parse(text)
    except SyntaxError as error:
        raise ComposeError(f"{name}, line {error.lineno}: {error.msg}") from None
    body = list(tree.body)
    docstring = ""
    if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant) \
            and isinstance(body[0].value.value, str):
        docstring = "".join(lines[body[0].lineno - 1:_end(body[0])])
        body = body[1:]
    imports = [f"{ast.get_source_segment(text, node)}\n" for node in body
               if isinstance(node, (ast.Import, ast.ImportFrom))]
    owner = _owners(lines, [n for n in body if not isinstance(n, (ast.Import, ast.ImportFrom))])
    skip = {i for node in tree.body
            if isinstance(node, (ast.Import, ast.ImportFrom)) or node is tree.body[0] and docstring
            for i in range(node.lineno - 1, _end(node))}
    regions, drops = _regions(lines, owner, skip, name)
    return Harness(docstring, imports, regions, drops)


def _end(node: ast.stmt) -> int:
    """The last line of a statement parsed from source (ast types it as optional, for nodes
    made by hand; a parsed one always has it)."""
    return node.end_lineno if node.end_lineno is not None else node.lineno


def physical_lines(text: str) -> list[str]:
    """`text`'s lines as Python numbers them (ending at \\n, \\r\\n or \\r), each with its end:
    str.splitlines also splits at a form feed or U+2028, which may stand in a comment or a
    string, and the lines would no longer be the ones ast's line numbers point at."""
    return re.findall(r"[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+\Z", text)


def render(harness: Harness, declares: str) -> str:
    """The file's text: the `declares` line, the docstring, the imports, the numbered regions."""
    out = [declares.rstrip("\n") + "\n"]
    if harness.docstring:
        out.append(harness.docstring)
    imports = sorted(dict.fromkeys(harness.imports),
                     key=lambda line: (line.startswith("from "), line.split()[1]))
    if imports:
        out += ["\n"] + imports
    for number, region in enumerate(harness.regions, 1):
        gap = "\n" if number == 1 else "\n\n"  # PEP 8: two blank lines between top-level parts
        out.append(f"{gap}# == {number} {region.name} ==\n{region.intro}")
        for at, unit in enumerate(region.units):
            lead = max(unit.lead, 1) if at == 0 and region.intro else unit.lead
            out.append("\n" * lead + unit.text)
    return "".join(out)


def merge(parent: Harness, ours: Harness, name: str = "changes.py") -> Harness:
    """`parent` with `ours` composed onto it, as the module docstring says."""
    regions = [replace(region, units=list(region.units)) for region in parent.regions]
    for dropped in ours.drops:
        if not _take(regions, dropped):
            raise ComposeError(f"{name}: `# drop: {dropped}` names nothing the parent defines")
    previous_region: Region | None = None
    for theirs in ours.regions:
        region = next((r for r in regions if r.name == theirs.name), None)
        if region is None:
            region = Region(theirs.name, theirs.intro)
            at = regions.index(previous_region) + 1 if previous_region else len(regions)
            regions.insert(at, region)
        elif theirs.intro:
            region.intro = theirs.intro
        anchor: Unit | None = None
        for unit in theirs.units:
            anchor = _place(regions, region, unit, anchor, name)
        previous_region = region
    return Harness(ours.docstring or parent.docstring, parent.imports + ours.imports, regions)


def _place(regions: list[Region], region: Region, unit: Unit, anchor: Unit | None,
           name: str) -> Unit:
    """Put `unit` into `region`: over the parent's definition of its names where that sits in
    this region, else after `anchor` (the unit placed before it) or at the region's end."""
    replaced = [(r, u) for r in regions for u in r.units if set(u.names) & set(unit.names)]
    for where, old in replaced:
        if not set(old.names) <= set(unit.names):
            raise ComposeError(f"{name}: {', '.join(unit.names)} would split the parent's "
                               f"definition of {', '.join(old.names)}; replace all of it")
    here = [old for where, old in replaced if where is region]
    if here:
        at = region.units.index(here[0])
        region.units[at] = replace(unit, lead=here[0].lead, place=None)
        for where, old in replaced:
            if old is not here[0]:
                where.units.remove(old)
        return region.units[at]
    for where, old in replaced:
        where.units.remove(old)
    if unit.place == "first":
        at = 0
    elif unit.place:
        follows = [u for u in region.units if unit.place in u.names]
        if not follows:
            raise ComposeError(f"{name}: `# place: after {unit.place}`: region {region.name!r} "
                               f"has no {unit.place}")
        at = region.units.index(follows[0]) + 1
    else:
        at = region.units.index(anchor) + 1 if anchor in region.units else len(region.units)
    region.units.insert(at, replace(unit, place=None))
    return region.units[at]


def _take(regions: list[Region], dropped: str) -> bool:
    for region in regions:
        for unit in region.units:
            if dropped in unit.names:
                if len(unit.names) > 1:
                    rest = ", ".join(n for n in unit.names if n != dropped)
                    raise ComposeError(f"`# drop: {dropped}` would leave {rest} without it")
                region.units.remove(unit)
                return True
    return False


def _owners(lines: list[str], nodes: list[ast.stmt]) -> list[int | None]:
    """For each line, which top-level statement (its index in `nodes`) it belongs to; a whole
    gap at the top level belongs to its first statement, markers and quoted starter included."""
    owner: list[int | None] = [None] * len(lines)
    for index, node in enumerate(nodes):
        first = min([node.lineno] + [d.lineno for d in getattr(node, "decorator_list", [])])
        for i in range(first - 1, _end(node)):
            owner[i] = index
    gap_start = None
    for i, line in enumerate(lines):
        if line.rstrip("\n") == BEGIN:
            gap_start = i
        elif line.rstrip("\n") == END and gap_start is not None:
            inside = sorted({k for k in owner[gap_start:i + 1] if k is not None})
            for j in range(gap_start, i + 1):
                owner[j] = inside[0] if inside else -1 - gap_start
            gap_start = None
    return owner


def _regions(lines: list[str], owner: list[int | None], skip: set[int],
             name: str) -> tuple[list[Region], tuple[str, ...]]:
    regions: list[Region] = []
    drops: list[str] = []
    units: dict[int, Unit] = {}
    pending: list[str] = []  # comment lines waiting for the statement under them
    blanks = 0
    last: Unit | None = None  # the unit the line before belongs to
    place: str | None = None  # a `# place:` line waiting for the unit under it
    tree_names = _names_by_owner(lines, owner)
    for i, (line, key) in enumerate(zip(lines, owner)):
        if i in skip or (i == 0 and DECLARES.match(line)):
            continue
        header = HEADER.match(line.rstrip("\n"))
        dropped = DROP.match(line.rstrip("\n"))
        placed = PLACE.match(line.rstrip("\n"))
        if placed and key is None:
            place = "first" if placed["first"] else placed["after"]
            continue
        if header and key is None:
            if pending:  # comments right above a header end the region before: never dropped
                _add(regions, name, i, Unit((), "".join(pending), blanks))
            regions.append(Region(header["name"], ""))
            pending, blanks, last = [], 0, None
            continue
        if dropped and key is None:
            drops += [n.strip() for n in dropped["names"].split(",") if n.strip()]
            continue
        if key is None and not line.strip():
            if pending and regions and not regions[-1].units and not regions[-1].intro:
                regions[-1].intro, pending = "".join(pending), []
            elif pending:
                _add(regions, name, i, Unit((), "".join(pending), blanks))
                pending, blanks = [], 0
            blanks += 1
            continue
        if key is None and line[:1].isspace() and last is not None and not blanks:
            last.text += line  # an indented comment under a definition: the end of its gap
            continue
        if key is None:
            if not regions:
                raise ComposeError(f"{name}, line {i + 1}: code before the first region header")
            pending.append(line)
            continue
        if key in units:
            units[key].text += line
            last = units[key]
            continue
        if not regions:
            raise ComposeError(f"{name}, line {i + 1}: code before the first region header")
        unit = Unit(tree_names.get(key, ()), "".join(pending) + line, blanks, place)
        units[key] = last = unit
        place = None
        _add(regions, name, i, unit)
        pending, blanks = [], 0
    if pending and regions:
        _add(regions, name, len(lines), Unit((), "".join(pending), blanks))
    return regions, tuple(drops)


def _add(regions: list[Region], name: str, i: int, unit: Unit) -> None:
    if not regions:
        raise ComposeError(f"{name}, line {i + 1}: code before the first region header")
    regions[-1].units.append(unit)


def _names_by_owner(lines: list[str], owner: list[int | None]) -> dict[int, tuple[str, ...]]:
    """What each unit defines, read again from its own lines (a gap's unit holds several
    statements, and quoted starter lines, which are comments, define nothing)."""
    spans: dict[int, list[str]] = {}
    for i, key in enumerate(owner):
        if key is not None:
            spans.setdefault(key, []).append(lines[i])
    found: dict[int, tuple[str, ...]] = {}
    for owned, text in spans.items():
        source = "".join(text)
        try:
            tree = ast.parse(source)
        except SyntaxError:
            found[owned] = ()
            continue
        found[owned] = tuple(defined(tree))
    return found


def defined(tree: ast.Module) -> list[str]:
    """The names the top level of `tree` defines, in order."""
    names: list[str] = []
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.append(node.name)
        elif isinstance(node, ast.Assign):
            for target in node.targets:
                names += [n.id for n in ast.walk(target) if isinstance(n, ast.Name)]
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            names.append(node.target.id)
    return names
