"""Wrong: a line alone over the budget is cut to fit, byte by byte, and shown as if it were the
line: half a JSON object, which the model then reasons from as if it were whole.
Fails: test_a_line_alone_over_the_budget_is_not_cut_but_named_and_skipped
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
            part = wanted[0].encode()[:max_bytes].decode(errors="ignore")
            return part + f"\n[Read on with offset={offset + 1}.]"
        text, last = "".join(wanted[:shown]), offset + shown - 1
        if last < len(lines):
            text += f"[Lines {offset}-{last} of {len(lines)}. Read on with offset={last + 1}.]"
        return text

    return {"name": "read", "description": "Read a text file.",
            "parameters": {"type": "object", "properties": {}}, "execute": execute}
