"""A third correct answer: both tools build their text a line at a time, and the tail is
collected from the end with a list that is turned round once.
"""


def make_read_tool(ws, max_lines=MAX_LINES, max_bytes=MAX_BYTES):
    check_budget(max_lines, max_bytes)

    def execute(arguments):
        path = str_arg(arguments, "path")
        offset, limit = int_arg(arguments, "offset", 1), int_arg(arguments, "limit", None)
        if offset < 1 or (limit is not None and limit < 1):
            raise ValueError("offset and limit must be 1 or more")
        if not ws.exists(path):
            raise FileNotFoundError(f"File not found: {path}")
        lines = lines_of(ws.read_text(path))
        if offset > max(len(lines), 1):
            raise ValueError(f"offset {offset} is past the end of {path} ({len(lines)} lines)")
        end = len(lines) if limit is None else min(len(lines), offset - 1 + limit)
        parts, used, number = [], 0, offset
        while number <= end and len(parts) < max_lines:
            size = len(lines[number - 1].encode())
            if used + size > max_bytes:
                break
            parts.append(lines[number - 1])
            used, number = used + size, number + 1
        if not parts and number <= end:
            skip = f"offset={number + 1}" if number < len(lines) else "nothing after it"
            return f"[Line {number} is too long to show ({size} bytes > {max_bytes}); {skip}.]"
        if number <= len(lines):
            parts.append(f"[More follows: read on with offset={number}.]")
        return "".join(parts)

    return {"name": "read", "description": "Read a text file, a budget at a time.",
            "parameters": {"type": "object", "properties": {
                "path": {"type": "string", "description": "The file."},
                "offset": {"type": "integer", "description": "First line, from 1."},
                "limit": {"type": "integer", "description": "How many lines."}},
                "required": ["path"]},
            "execute": execute}


def make_bash_tool(shell, max_lines=MAX_LINES, max_bytes=MAX_BYTES):
    check_budget(max_lines, max_bytes)

    def execute(arguments):
        output, code = shell.run(str_arg(arguments, "command"))
        lines = lines_of(output)
        tail, used = [], 0
        for line in reversed(lines):
            used += len(line.encode())
            if len(tail) == max_lines or used > max_bytes:
                break
            tail.append(line)
        tail.reverse()
        if not tail and lines:
            head = (f"[Nothing shown: the last line is {len(lines[-1].encode())} bytes and "
                    f"the budget {max_bytes}.]\n")
        elif len(tail) < len(lines):
            head = f"[{len(lines) - len(tail)} earlier lines left out.]\n"
        else:
            head = ""
        return head + "".join(tail) + (f"\n[Exit code {code}]" if code else "")

    return {"name": "bash", "description": "Run a shell command; the end of a long output.",
            "parameters": {"type": "object", "properties": {
                "command": {"type": "string", "description": "The command line."}},
                "required": ["command"]},
            "execute": execute}
