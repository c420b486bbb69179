"""Wrong: a command that exits non-zero is treated as a tool that failed: the bash tool
raises, so the result is marked is_error. But the command ran; a failing test run is the
very output the model asked for, and the exit code is part of it, not a harness failure.
Fails: test_a_command_that_exits_non_zero_is_not_a_tool_error
"""


def make_bash_tool(shell):
    def execute(arguments):
        output, code = shell.run(str_arg(arguments, "command"))
        if code != 0:
            raise RuntimeError(f"{output}\n[Exit code {code}]")
        return output

    return {"name": "bash",
            "description": "Run a shell command; what it prints comes back.",
            "parameters": {"type": "object",
                           "properties": {"command": {"type": "string",
                                                      "description": "The command line."}},
                           "required": ["command"]},
            "execute": execute}
