"""What of a lesson's grading a student may see: the visible tests and their manifest.

manifest.toml decides. A test whose visibility is "visible" goes into the student's copy; any
other (hidden, after_due_date, after_published) is graded on submission only. The student's
tests.py is the lesson's with every other test taken out, together with whatever only those
tests used (their helpers, strategies and imports, and the section comment that introduced
them), so that the copy reads as a file of its own. Its manifest lists the visible tests only,
and says in [submission] how many more tests, and points, are graded on submission.
"""

import ast

VISIBLE = "visible"


def hidden_tests(manifest):
    """The names of the tests the student does not see, in the manifest's order."""
    return [name for name, meta in manifest.get("tests", {}).items()
            if meta.get("visibility", VISIBLE) != VISIBLE]


def visible_tests(source, hidden, name="tests.py"):
    """The text of tests.py without the tests named in `hidden`, nor what only they used."""
    tree = ast.parse(source, name)
    body = list(tree.body)
    doomed = {id(node) for node in body if _defines(node) & set(hidden)}
    while True:  # drop what nothing kept refers to any more, until nothing changes
        used = _used_names([node for node in body if id(node) not in doomed])
        more = {id(node) for node in body if id(node) not in doomed and _droppable(node)
                and not (_defines(node) & used)}
        if not more:
            break
        doomed |= more
    lines = source.splitlines(keepends=True)
    keep = [True] * len(lines)
    for index, node in enumerate(body):
        if id(node) not in doomed:
            continue
        first = min([node.lineno] + [d.lineno for d in getattr(node, "decorator_list", [])])
        for n in range(first - 1, node.end_lineno):
            keep[n] = False
        following = body[index + 1] if index + 1 < len(body) else None
        if following is None or id(following) in doomed:
            _drop_comment_above(lines, keep, first - 1)
    text = "".join(line for line, kept in zip(lines, keep) if kept)
    return _tidy_blank_lines(text)


def visible_manifest(manifest, hidden):
    """The manifest as the student's copy has it, as TOML text: the hidden tests left out,
    and a [submission] table counting them and their points."""
    tests = manifest.get("tests", {})
    shown = {k: v for k, v in manifest.items() if k not in ("tests", "submission")}
    shown["submission"] = {"hidden_tests": len(hidden),
                           "hidden_points": sum(tests[n].get("points", 1) for n in hidden)}
    shown["tests"] = {n: meta for n, meta in tests.items() if n not in hidden}
    head = ("# How the graded tests of this copy count: each test's points, visibility and the\n"
            "# gap it grades. [submission] counts the hidden tests, which are not in this copy:\n"
            "# the grader runs them where your course grades what you hand in.\n\n")
    return head + _toml(shown)


# -- reading the module -----------------------------------------------------------------------

def _defines(node):
    """The top-level names `node` binds."""
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        return {node.name}
    if isinstance(node, (ast.Assign, ast.AnnAssign)):
        targets = node.targets if isinstance(node, ast.Assign) else [node.target]
        return {n.id for t in targets for n in ast.walk(t) if isinstance(n, ast.Name)}
    if isinstance(node, (ast.Import, ast.ImportFrom)):
        return {(a.asname or a.name).split(".")[0] for a in node.names}
    return set()


def _droppable(node):
    """A helper, constant or import that may go once nothing uses it; never a test, never
    something whose effect is not a name (an expression, a docstring)."""
    names = _defines(node)
    return bool(names) and not any(n.startswith("test") for n in names)


def _used_names(nodes):
    """The global names `nodes` read: a name a function assigns for itself is its own."""
    used = set()
    for node in nodes:
        own = _defines(node) if not isinstance(node, (ast.Import, ast.ImportFrom)) else set()
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            own |= {n.id for n in ast.walk(node)
                    if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)}
            own |= {a.arg for a in ast.walk(node.args) if isinstance(a, ast.arg)}
            own -= {n.id for d in node.decorator_list for n in ast.walk(d)
                    if isinstance(n, ast.Name)}  # a decorator is read at the top level
        used |= {n.id for n in ast.walk(node)
                 if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load) and n.id not in own}
    return used


def _drop_comment_above(lines, keep, index):
    """Also drop the comment lines just above line `index` (blank lines between allowed)."""
    n = index - 1
    while n >= 0 and not lines[n].strip():
        n -= 1
    while n >= 0 and lines[n].lstrip().startswith("#"):
        keep[n] = False
        n -= 1


def _tidy_blank_lines(text):
    out, blank = [], 0
    for line in text.splitlines(keepends=True):
        blank = blank + 1 if not line.strip() else 0
        if blank <= 2:
            out.append(line)
    return "".join(out).rstrip("\n") + "\n"


# -- writing TOML (the few kinds of value a manifest holds) -----------------------------------

def _toml(data):
    plain = {k: v for k, v in data.items() if not isinstance(v, dict)}
    lines = [f"{key} = {_value(value)}" for key, value in plain.items()]
    for key, table in data.items():
        if isinstance(table, dict):
            lines += ["", *_table(key, table)]
    return "\n".join(lines) + "\n"


def _table(prefix, table):
    inline = all(isinstance(v, dict) and not any(isinstance(x, dict) for x in v.values())
                 for v in table.values()) and table and prefix == "tests"
    if inline:
        return [f"[{prefix}]"] + [f"{k} = {_value(v)}" for k, v in table.items()]
    plain = {k: v for k, v in table.items() if not isinstance(v, dict)}
    lines = [f"[{prefix}]"] + [f"{k} = {_value(v)}" for k, v in plain.items()]
    for key, inner in table.items():
        if isinstance(inner, dict):
            lines += ["", *_table(f"{prefix}.{key}", inner)]
    return lines


def _value(value):
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return repr(value)
    if isinstance(value, str):
        return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
    if isinstance(value, list):
        return "[" + ", ".join(_value(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{ " + ", ".join(f"{k} = {_value(v)}" for k, v in value.items()) + " }"
    raise TypeError(f"a manifest holds no {type(value).__name__} ({value!r})")


def visible_hints(text, hidden):
    """hints.toml without the sections of hidden tests ([tests.NAME]), so that the edition
    names no test it does not carry; everything else as written."""
    kept, dropping = [], False
    for line in text.splitlines(keepends=True):
        if line.startswith("["):
            name = line.strip().strip("[]")
            dropping = name.startswith("tests.") and name.removeprefix("tests.") in hidden
        if not dropping:
            kept.append(line)
    return "".join(kept)
