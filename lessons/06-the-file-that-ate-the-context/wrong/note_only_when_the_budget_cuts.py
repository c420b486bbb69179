"""Wrong: a note only when the budget cut the read; a read that a limit stopped short of the
end says nothing, and the model takes the first lines for the whole file.
Fails: test_a_read_that_fits_comes_back_whole_with_no_note
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
        if shown < len(wanted):
            text += f"[Lines {offset}-{last} of {len(lines)}. Read on with offset={last + 1}.]"
        return text

    return {"name": "read", "description": "Read a text file.",
            "parameters": {"type": "object", "properties": {}}, "execute": execute}
