# base: finished
# args: --time-limit 5 -k "missing or orphan"
# exit: 1
# says: vandal: 0 of
# says: in the scratch folder: deleted its copy, wrote junk
# closing: 1 passed, 1 failed
# says (none): in the scratch folder: deleted its copy, wrote junk
# Tries, at import, to overwrite, delete, add or chmod files in the student's folder (found
# in lab_check's command line), in the grader's private copy, and all over the project (the
# lab, the lesson's tests and fixtures, damaged.py); then empties its own scratch folder,
# which it may. It fails the orphan test on purpose, to report how many attempts got through
# ("vandal: 0 of N"); the suite checks by hashing that nothing changed. With no sandbox at all
# (none), the bundle the grading made for it is its own user's, and Landlock does not govern
# chmod: those attempts get through, on files no later grading uses; the project stays as it
# was, and the grade says it is not isolated.

import os
import pathlib

import lab

_PROJECT = pathlib.Path(lab.__file__).resolve().parent.parent


def _harness_paths():
    """Every --harness path in the command lines of this process's ancestors."""
    found, pid = [], os.getppid()
    while pid > 1:
        try:
            words = pathlib.Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
            pid = int(pathlib.Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[1])
        except (OSError, ValueError, IndexError):
            break
        found += [w.decode() for before, w in zip(words, words[1:]) if before == b"--harness"]
    return [pathlib.Path(p) for p in found if os.path.isabs(p)]  # a relative one is lost here


def _attempts():
    harnesses = _harness_paths()
    targets = [*harnesses, *(p.parent / "notes.txt" for p in harnesses), _PROJECT / "damaged.py", _PROJECT / "harness.py",
               _PROJECT / "lab" / "testkit" / "verdict.py", _PROJECT / "lab" / "kit" / "validate.py",
               _PROJECT / "lessons" / "10-poisoned-transcript" / "tests.py",
               _PROJECT / "lessons" / "10-poisoned-transcript" / "finished.py"]
    for path in targets:
        yield lambda p=path: p.write_text("pwned\n")
        yield lambda p=path: p.open("a").write("pwned\n")
        yield lambda p=path: p.unlink()
        yield lambda p=path: p.chmod(0o777)
        yield lambda p=path: p.rename(p.with_suffix(".bak"))
        yield lambda p=path: (p.parent / "sitecustomize.py").write_text("import os\n")
    yield lambda: (_PROJECT / "lab" / "__pycache__" / "evil.pyc").write_bytes(b"pwned")
    yield lambda: (_PROJECT / "tests" / "submissions" / "evil.py").write_text("pwned\n")


_done, _tried = [], 0
for _attempt in _attempts():
    _tried += 1
    try:
        _attempt()
        _done.append(_attempt)
    except OSError:
        continue

os.unlink("harness.py")
pathlib.Path("junk.txt").write_text("mine to write\n")
_SCRATCH = "deleted its copy, wrote junk" if not os.path.exists("harness.py") else "kept"
_repair = repair_tool_history


def repair_tool_history(messages):
    if any(m.get("content") == [{"type": "text", "text": "Let me look."}] for m in messages):
        raise RuntimeError(f"vandal: {len(_done)} of {_tried} attempts on files outside the "
                           f"scratch folder got through; in the scratch folder: {_SCRATCH}")
    return _repair(messages)
