"""A small agent harness: lesson 06, "The file that ate the context".

Read it top to bottom: messages, tools, the loop and what it sends. New since lesson 05:
every tool result fits a budget of lines and bytes, because each one is sent again on
every later request; a long file is read a budget at a time, from an offset, and a long
command's output is kept from its end. Nothing here talks to a network, so the lab's
scripted model can stand in for a real one.
"""


# == tools ==

# place: first
MAX_LINES = 2000    # The budget of one tool result: every result is sent again on every later
MAX_BYTES = 50_000  # request. Bytes of UTF-8, not characters ("é" is two). A cut result ends,
                    # or for a command begins, with one short line saying so, on top of this.


# place: after run_tool
def lines_of(text):
    """The lines of `text`, each ending in its "\\n" (the last may have none). Only "\\n" ends
    a line, as for wc -l, grep -n and sed: str.splitlines would also break at a form feed,
    "\\r" or U+2028, and the line numbers a read reports would then disagree with theirs."""
    # --- your code ---
    pieces = text.split("\n")
    return [piece + "\n" for piece in pieces[:-1]] + ([pieces[-1]] if pieces[-1] else [])
    # --- starter ---
    #| return text.splitlines(keepends=True)  # also breaks at "\f", "\r", "\u2028": not wc -l's lines
    # --- end ---


def fit_budget(lines, max_lines, max_bytes):
    """How many of `lines`, taken in order from the first, fit the budget: at most `max_lines`
    lines, and at most `max_bytes` bytes of UTF-8 in all, newlines included. Whole lines only:
    a line that does not fit is not taken, and neither is any line after it."""
    # --- your code ---
    used = 0
    for count, line in enumerate(lines):
        used += len(line.encode())
        if count == max_lines or used > max_bytes:
            return count
    return len(lines)
    # --- starter ---
    #| return len(lines)  # no budget yet: every line fits, however many and however long
    # --- end ---


def check_budget(max_lines, max_bytes):
    """A budget a tool can keep: at least one line and one byte. Anything less is the caller's
    mistake, and it is refused when the tool is made, not reported as a file's fault later."""
    for name, value in (("max_lines", max_lines), ("max_bytes", max_bytes)):
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            raise ValueError(f"{name} must be a whole number, 1 or more; got {value!r}")


def make_read_tool(ws, max_lines=MAX_LINES, max_bytes=MAX_BYTES):
    """The `read` tool over workspace `ws`. A long file comes back a budget at a time, from its
    start: as many whole lines as fit, then one last line that says which offset to ask for
    next. A line alone over the byte budget is not shown at all (half a line is worse than
    none); the note names it, its size, and the offset after it. The budget is for the file's
    text: the note is one short line on top of it."""
    check_budget(max_lines, max_bytes)

    def execute(arguments):
        path = str_arg(arguments, "path")
        offset, limit = int_arg(arguments, "offset", 1), int_arg(arguments, "limit", None)
        if offset < 1 or (limit is not None and limit < 1):
            raise ValueError("offset and limit must be 1 or more")
        if not ws.exists(path):
            raise FileNotFoundError(f"File not found: {path}. Files here: "
                                    f"{', '.join(ws.listdir('.'))}")
        lines = lines_of(ws.read_text(path))
        if offset > max(len(lines), 1):
            raise ValueError(f"offset {offset} is past the end of {path} ({len(lines)} lines)")
        wanted = lines[offset - 1:] if limit is None else lines[offset - 1:offset - 1 + limit]
        # --- your code ---
        shown = fit_budget(wanted, max_lines, max_bytes)
        if wanted and shown == 0:
            size = len(wanted[0].encode())
            after = (f" Read on with offset={offset + 1}." if offset < len(lines)
                     else " It is the last line.")
            return (f"[Line {offset} alone is {size} bytes, over the {max_bytes}-byte budget "
                    f"of a read, so none of it is shown.{after}]")
        text = "".join(wanted[:shown])
        last = offset + shown - 1
        if last < len(lines):
            text += f"[Lines {offset}-{last} of {len(lines)}. Read on with offset={last + 1}.]"
        return text
        # --- starter ---
        #| # No budget: every line asked for comes back, and goes out again with every later
        #| # request. Show as many whole lines as fit_budget allows; when any line of the file
        #| # is left after them, end with one line naming the offset to read on from.
        #| return "".join(wanted)
        # --- end ---

    return {"name": "read",
            "description": "Read a text file. A call returns at most "
                           f"{max_lines} lines or {max_bytes} bytes; use offset to read on.",
            "parameters": {"type": "object",
                           "properties": {
                               "path": {"type": "string", "description": "The file to read."},
                               "offset": {"type": "integer", "description": "First line, from 1."},
                               "limit": {"type": "integer", "description": "How many lines."}},
                           "required": ["path"]},
            "execute": execute}


def make_bash_tool(shell, max_lines=MAX_LINES, max_bytes=MAX_BYTES):
    """The `bash` tool: one command line in `shell`. A long output is kept from its end, where
    a command puts its verdict: as many whole lines as fit, after one first line that says how
    many came before them. If the last line alone is over the byte budget, nothing is shown,
    and the note says so and why. A non-zero exit is reported, not raised: the command did
    run. The budget is for the output: the notes are short lines on top of it."""
    check_budget(max_lines, max_bytes)

    def execute(arguments):
        output, code = shell.run(str_arg(arguments, "command"))
        lines = lines_of(output)
        # --- your code ---
        kept = fit_budget(lines[::-1], max_lines, max_bytes)  # counted from the end
        text = "".join(lines[len(lines) - kept:])
        if kept == 0 and lines:
            text = (f"[Line {len(lines)}, the last, alone is {len(lines[-1].encode())} bytes, "
                    f"over the {max_bytes}-byte budget, so none of the output is shown. "
                    "Narrow the command.]\n")
        elif kept < len(lines):
            cut = len(lines) - kept  # the lines left out, from the top
            text = f"[Lines 1-{cut} of {len(lines)} are left out; the rest follow.]\n" + text
        # --- starter ---
        #| # No budget: the whole output comes back. Keep as many whole lines as fit, counted
        #| # from the end, in their own order; say first how many lines were left out, and
        #| # why, if not even the last line fits.
        #| text = output
        # --- end ---
        if code != 0:
            text += f"\n[Exit code {code}]"
        return text

    return {"name": "bash",
            "description": "Run a shell command; its output (the end of it, if long) comes back.",
            "parameters": {"type": "object",
                           "properties": {"command": {"type": "string",
                                                      "description": "The command line."}},
                           "required": ["command"]},
            "execute": execute}
