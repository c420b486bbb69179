"""A lesson's markdown as HTML, made at build time; its questions marked for the page.

markdown-it-py renders it: it follows CommonMark, as Jupyter's own renderer does, so a cell
reads on the site as it reads in the notebook; above all, CommonMark ends a raw HTML block at
a blank line and renders the markdown after it, which is how a lesson writes a question: each
option a `<details>` whose `<summary>` is the option and whose body, markdown, explains it.

Each run of options in a cell, with nothing but other options between them, is one question.
Its options are given `class="option"`, `data-question` (the cell's id and the question's
number in it, which stay the same when another cell gains a question) and `data-option` (A, B, ...), which static/course.js reads; a `<details>` works without any
script, and its summary is a button to the keyboard.
"""

import re
import string

from markdown_it import MarkdownIt

DETAILS = re.compile(r"^<details>", re.MULTILINE)


def renderer():
    return MarkdownIt("commonmark", {"html": True}).enable("table")


def to_html(text, counter, md=None, cell="cell"):
    """`text` (the markdown cell whose id is `cell`) as HTML. `counter` is a one-item list
    holding the number of questions seen so far on the page, advanced for each found here."""
    md = md or renderer()
    tokens = md.parse(text)
    options, in_question, here = 0, False, 0
    for token in tokens:
        if token.type == "html_block" and token.content.startswith("<details>"):
            if not in_question:
                counter[0] += 1
                here += 1
                options, in_question = 0, True
            letter = string.ascii_uppercase[options]
            options += 1
            token.content = DETAILS.sub(
                f'<details class="option" data-question="{cell}.{here}" data-option="{letter}">',
                token.content, count=1)
            token.content = token.content.replace(
                "</summary>", ' <span class="your-choice" hidden>(your choice)</span></summary>', 1)
        elif token.type == "html_block" and token.content.strip().endswith("</details>"):
            continue  # an option's end: the question may go on with another option
        elif token.type.endswith("_open") or token.type in ("html_block", "fence", "code_block"):
            if token.level == 0 and not _inside_option(tokens, token):
                in_question = False
    return md.renderer.render(tokens, md.options, {})


def _inside_option(tokens, token):
    """Whether `token` sits in an option's body: after a <details> and before its </details>."""
    depth = 0
    for other in tokens:
        if other is token:
            return depth > 0
        if other.type == "html_block":
            depth += other.content.count("<details") - other.content.count("</details>")
    return False
