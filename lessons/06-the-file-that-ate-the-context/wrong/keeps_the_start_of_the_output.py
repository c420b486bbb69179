"""Wrong: a long command's output cut like a file, from the start: the model is shown the
first lines of a test run and never the line that says how it ended.
Fails: test_a_long_output_keeps_its_end_where_the_verdict_is
"""


def make_bash_tool(shell, max_lines=MAX_LINES, max_bytes=MAX_BYTES):
    check_budget(max_lines, max_bytes)

    def execute(arguments):
        output, code = shell.run(str_arg(arguments, "command"))
        lines = lines_of(output)
        kept = fit_budget(lines, max_lines, max_bytes)
        text = "".join(lines[:kept])
        if kept < len(lines):
            text = f"[Lines {kept + 1}-{len(lines)} of {len(lines)} are left out.]\n" + text
        return text + (f"\n[Exit code {code}]" if code else "")

    return {"name": "bash", "description": "Run a shell command.",
            "parameters": {"type": "object", "properties": {}}, "execute": execute}
