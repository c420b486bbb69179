"""Wrong: the end is counted from the last line, and then joined in that order too, so the
verdict comes first and the output reads bottom to top.
Fails: test_a_long_output_keeps_its_end_where_the_verdict_is
"""


def make_bash_tool(shell, max_lines=MAX_LINES, max_bytes=MAX_BYTES):
    check_budget(max_lines, max_bytes)

    def execute(arguments):
        output, code = shell.run(str_arg(arguments, "command"))
        backwards = lines_of(output)[::-1]
        kept = fit_budget(backwards, max_lines, max_bytes)
        text = "".join(backwards[:kept])
        if kept < len(backwards):
            cut = len(backwards) - kept
            text = f"[Lines 1-{cut} of {len(backwards)} are left out; the rest follow.]\n" + text
        return text + (f"\n[Exit code {code}]" if code else "")

    return {"name": "bash", "description": "Run a shell command.",
            "parameters": {"type": "object", "properties": {}}, "execute": execute}
