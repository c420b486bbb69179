"""What lesson 06's notebook needs of a harness before its examples run on the reader's own
file (the contract is lab.course.readiness's)."""

from lab import Shell, Workspace

DOES = "keeps every tool result within a budget"
DOES_NOT = "does not keep tool results within a budget"
NEEDED = "a read and a bash tool that keep a budget"


def problem(harness):
    """"" when `harness` does lesson 06's job, else what it is missing, in a few words: its read
    tool, on a file of three lines with a budget of two, shows the first two and names offset=3
    on a last line; and its bash tool, with a budget of one line, keeps the output's last."""
    for name in ("fit_budget", "lines_of", "make_read_tool", "make_bash_tool", "run_tool"):
        if not hasattr(harness, name):
            return f"it has no {name}"
    ws = Workspace({"log.txt": "one\ntwo\nthree\n"})
    try:
        read = harness.make_read_tool(ws, max_lines=2)["execute"]({"path": "log.txt"})
        bash = harness.make_bash_tool(Shell(ws), max_lines=1)["execute"]({"command": "cat log.txt"})
    except Exception as error:  # half-written student code: how it fails is the answer
        return f"it raised {type(error).__name__}: {error}"
    if not (isinstance(read, str) and read.startswith("one\ntwo\n") and "offset=3" in read
            and "three" not in read):
        return "its read tool does not stop at the budget and name the offset to read on from"
    if not (isinstance(bash, str) and bash.endswith("three\n") and "one" not in bash):
        return "its bash tool does not keep the end of a long output"
    return ""
