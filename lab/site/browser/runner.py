"""Run one lesson cell in the browser as a notebook kernel would, and say what it showed.

The site copies this file into Pyodide as _course_runner.py. Every cell of a page runs in one
namespace, so a cell sees what the cells above it defined, as in Jupyter; top-level `await`
works; what the cell prints (stdout and stderr) is kept, and so is its last expression's
value, shown as Jupyter would: a figure by its SVG (`_repr_svg_`), else its repr. An exception
ends the cell with the traceback of the cell's own code, not of this runner.
"""

import ast
import contextlib
import io
import sys
import traceback
from typing import Any

NAMESPACES: dict[str, dict[str, Any]] = {}  # a page's name -> the namespace its cells share


async def run(code, page="page"):
    """Run `code` in the namespace of `page`; a dict: text (printed), svg, value, error."""
    namespace = NAMESPACES.setdefault(page, {"__name__": "__main__"})
    printed, shown = io.StringIO(), {"svg": "", "value": "", "error": ""}
    with contextlib.redirect_stdout(printed), contextlib.redirect_stderr(printed):
        try:
            body, last = _split(code)
            await _execute(body, namespace, "exec")
            if last is not None:
                value = await _execute(last, namespace, "eval")
                if value is not None:
                    svg = getattr(value, "_repr_svg_", None)
                    shown["svg" if svg else "value"] = svg() if svg else repr(value)
        except BaseException as error:  # the reader's code failed: show it as Jupyter does
            shown["error"] = _traceback(error)
    return {"text": printed.getvalue(), **shown}


def _split(code):
    """The cell as a module without its last statement, and that statement when it is an
    expression (an ast.Expression), else None."""
    tree = ast.parse(code, "<cell>")
    if tree.body and isinstance(tree.body[-1], ast.Expr):
        last = ast.Expression(tree.body.pop().value)
        return tree, last
    return tree, None


async def _execute(tree, namespace, mode):
    compiled = compile(tree, "<cell>", mode, flags=ast.PyCF_ALLOW_TOP_LEVEL_AWAIT)
    result = eval(compiled, namespace)
    if compiled.co_flags & 0x80:  # CO_COROUTINE: the cell awaited something
        result = await result
    return result


def _traceback(error):
    frames = [f for f in traceback.extract_tb(error.__traceback__) if f.filename != __file__]
    lines = traceback.format_list(frames) + traceback.format_exception_only(type(error), error)
    return "Traceback (most recent call last):\n" + "".join(lines)
