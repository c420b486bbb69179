"""A code cell's saved outputs, as the executed notebook carries them, written as plain HTML.

What a cell printed is preformatted text; a figure (lab.figures' SVG, `image/svg+xml`) is put
inline, as the notebook shows it, so that it reads without any script; an error is its
traceback with the terminal's colour codes taken out. Anything else a cell returns is shown
by its text/plain form.
"""

import html
import re

ANSI = re.compile(r"\x1b\[[0-9;]*[A-Za-z]")


def to_html(outputs):
    """The outputs of one cell (nbformat's dicts) as one HTML fragment ("" for none)."""
    return "".join(_one(output) for output in outputs)


def _one(output):
    kind = output.get("output_type")
    if kind == "stream":
        return _pre(output.get("text", ""), "stream" + (" stderr" if output.get("name") == "stderr" else ""))
    if kind in ("execute_result", "display_data"):
        data = output.get("data", {})
        if "image/svg+xml" in data:
            return f'<div class="figure">{_text(data["image/svg+xml"])}</div>'
        if "text/html" in data:
            return f'<div class="html-output">{_text(data["text/html"])}</div>'
        return _pre(_text(data.get("text/plain", "")), "value")
    if kind == "error":
        return _pre(ANSI.sub("", "\n".join(output.get("traceback", []))), "error")
    return ""


def _text(value):
    return "".join(value) if isinstance(value, list) else value


def _pre(text, cls):
    return f'<pre class="{cls}">{html.escape(_text(text))}</pre>'
