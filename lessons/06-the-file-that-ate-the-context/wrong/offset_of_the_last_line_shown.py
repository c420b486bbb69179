"""Wrong: the note names the last line shown instead of the first one not shown, so every
read on begins with a line the model already has (and a budget of one line never moves on).
Fails: test_a_cut_read_says_the_offset_of_the_first_line_not_shown
"""


def make_read_tool(ws, max_lines=MAX_LINES, max_bytes=MAX_BYTES):
    check_budget(max_lines, max_bytes)

    def execute(arguments):
        path = str_arg(arguments, "path")
        offset, limit = int_arg(arguments, "offset", 1), int_arg(arguments, "limit", None)
        lines = lines_of(ws.read_text(path))
        wanted = lines[offset - 1:] if limit is None else lines[offset - 1:offset - 1 + limit]
        shown = fit_budget(wanted, max_lines, max_bytes)
        if wanted and shown == 0:
            return f"[Line {offset} is over the budget. Read on with offset={offset + 1}.]"
        text, last = "".join(wanted[:shown]), offset + shown - 1
        if last < len(lines):
            text += f"[Lines {offset}-{last} of {len(lines)}. Read on with offset={last}.]"
        return text

    return {"name": "read", "description": "Read a text file.",
            "parameters": {"type": "object", "properties": {}}, "execute": execute}
