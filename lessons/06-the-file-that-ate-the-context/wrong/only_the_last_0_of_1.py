"""Wrong: the draft's note, "[Only the last 0 of 1 lines are shown.]", when the last line alone
is over the budget: true, and no help, since it does not say why nothing is shown.
Fails: test_an_output_whose_last_line_alone_is_over_the_budget_says_why
"""


def make_bash_tool(shell, max_lines=MAX_LINES, max_bytes=MAX_BYTES):
    check_budget(max_lines, max_bytes)

    def execute(arguments):
        output, code = shell.run(str_arg(arguments, "command"))
        lines = lines_of(output)
        kept = fit_budget(lines[::-1], max_lines, max_bytes)
        text = "".join(lines[len(lines) - kept:])
        if kept < len(lines):
            text = f"[Only the last {kept} of {len(lines)} lines are shown.]\n" + text
        return text + (f"\n[Exit code {code}]" if code else "")

    return {"name": "bash", "description": "Run a shell command.",
            "parameters": {"type": "object", "properties": {}}, "execute": execute}
