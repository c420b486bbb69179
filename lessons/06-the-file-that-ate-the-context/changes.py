"""A small agent harness: lesson 06, "The file that ate the context".

Read it top to bottom: messages, tools, the loop and what it sends. New since lesson 05:
every tool result fits a budget of lines and bytes, because each one is sent again on
every later request; a long file is read a budget at a time, from an offset, and a long
command's output is kept from its end. Nothing here talks to a network, so the lab's
scripted model can stand in for a real one.
"""


# == tools ==

# place: first
MAX_LINES = 2000    # Every tool result is sent again on every later request, so one result
MAX_BYTES = 50_000  # may hold at most this much. Bytes of UTF-8, not characters.


# place: after run_tool
def fit_budget(lines, max_lines, max_bytes):
    """How many of `lines`, taken in order, fit the budget: whole lines only."""
    used = 0
    for count, line in enumerate(lines):
        used += len(line.encode())
        if count == max_lines or used > max_bytes:
            return count
    return len(lines)


def make_read_tool(ws, max_lines=MAX_LINES, max_bytes=MAX_BYTES):
    """The `read` tool over workspace `ws`. A long file comes back a budget at a time, and the
    last line of a cut read says which offset to ask for next."""
    def execute(arguments):
        path = str_arg(arguments, "path")
        offset, limit = int_arg(arguments, "offset", 1), int_arg(arguments, "limit", None)
        if offset < 1 or (limit is not None and limit < 1):
            raise ValueError("offset and limit must be 1 or more")
        if not ws.exists(path):
            raise FileNotFoundError(f"File not found: {path}. Files here: "
                                    f"{', '.join(ws.listdir('.'))}")
        lines = ws.read_text(path).splitlines(keepends=True)
        if offset > max(len(lines), 1):
            raise ValueError(f"offset {offset} is past the end of {path} ({len(lines)} lines)")
        wanted = lines[offset - 1:] if limit is None else lines[offset - 1:offset - 1 + limit]
        shown = fit_budget(wanted, max_lines, max_bytes)
        if wanted and shown == 0:
            return (f"[Line {offset} of {path} alone is over the {max_bytes}-byte budget of a "
                    f"read, so none of it is shown.]")
        text = "".join(wanted[:shown])
        last = offset + shown - 1
        if last < len(lines):
            text += f"[Lines {offset}-{last} of {len(lines)}. Read on with offset={last + 1}.]"
        return text

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
    """The `bash` tool: one command line in `shell`. Output is kept from the end, where a
    command puts its verdict. A non-zero exit is reported, not raised: the command did run."""
    def execute(arguments):
        output, code = shell.run(str_arg(arguments, "command"))
        lines = output.splitlines(keepends=True)
        kept = fit_budget(lines[::-1], max_lines, max_bytes)
        text = "".join(lines[len(lines) - kept:])
        if kept < len(lines):
            text += f"\n[Only the last {kept} of {len(lines)} lines are shown.]"
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
