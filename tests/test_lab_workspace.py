"""lab.Workspace and lab.Shell: an in-memory folder, and a few honest commands over it."""

import pytest

import lab


def workspace():
    return lab.Workspace({"main.py": "def main():\n\treturn 1\n", "src/app.py": "A = 1\nB = 2\n"})


def test_writes_are_kept_in_order_and_reads_see_them():
    ws = workspace()

    ws.write_text("./notes.txt", "one")
    ws.write_text("notes.txt", "two")

    assert ws.read_text("notes.txt") == "two", "the second write should win"
    assert ws.writes == [("notes.txt", "one"), ("notes.txt", "two")], f"writes: {ws.writes}"
    assert workspace().writes == [], "a new workspace has written nothing"


def test_listdir_shows_files_and_folders_and_exists_knows_both():
    ws = workspace()

    assert ws.listdir(".") == ["main.py", "src/"], f"got {ws.listdir('.')}"
    assert ws.listdir("src") == ["app.py"], f"got {ws.listdir('src')}"
    assert ws.exists("src") and ws.exists("main.py") and not ws.exists("nope.py"), "exists()"


def test_paths_outside_the_workspace_are_refused():
    with pytest.raises(PermissionError):
        workspace().read_text("../etc/passwd")


def test_shell_runs_its_small_command_set():
    shell = lab.Shell(workspace())

    assert shell.run("cat main.py") == ("def main():\n\treturn 1\n", 0), shell.run("cat main.py")
    assert shell.run("ls src") == ("app.py\n", 0), shell.run("ls src")
    assert shell.run("grep B src/app.py") == ("B = 2\n", 0), shell.run("grep B src/app.py")
    assert shell.run("wc -l src/app.py") == ("2 src/app.py\n", 0), shell.run("wc -l src/app.py")
    assert shell.run("head -n 1 src/app.py") == ("A = 1\n", 0), shell.run("head -n 1 src/app.py")
    assert shell.run("echo 'two words'") == ("two words\n", 0), shell.run("echo 'two words'")


def test_anything_else_exits_127_and_says_what_the_shell_has():
    output, code = lab.Shell(workspace()).run("pytest -q")

    assert code == 127 and output.startswith("bash: pytest: command not found"), (output, code)
    assert "cat" in output, f"the line should list the commands there are: {output}"


def test_a_missing_file_is_an_error_exit_not_an_exception():
    output, code = lab.Shell(workspace()).run("cat nope.py")

    assert code == 1 and "nope.py" in output, (output, code)
