"""The student's side of a graded test: a forked process that imports the harness and answers.

`serve` is called in the child straight after the fork and never returns: every way out ends
in os._exit, so nothing the student does can run the grader's code (pytest's, the lab's) in
this process again, and no atexit handler of theirs runs. It sets the process up (see
`_isolate`: its own session, no stdin, output to a pipe, limits, a scratch folder as its
working directory, its own user when the grader is root), then imports harness.py from that
folder, says which names it has, and answers requests until the pipe closes:

    {"op": "call", "name": "repair_tool_history", "messages": [...]}
    {"op": "scenario", "name": "session", "params": {...}}
    {"op": "constant", "name": "INTERRUPTED"}
    {"op": "value", "name": "to_openai", "args": [[...]]}

Each answer is plain data (see plain.py). The code that answers, and the lab the lesson's
scenarios drive the harness with, are private copies loaded before the student's code runs
and kept out of sys.modules, so `import lab` in a harness gets a lab of its own, and patching
it (the validator, the scripted model, this module) changes nothing that is reported. Before
each request a watchdog is armed that writes every thread's stack to a file shortly before
the time runs out, so that a grader that has to kill the child can still say which function
of the student's it was stuck in.

Only deliberate forgery from inside the process (walking its own frames, ctypes, writing to
the grader's pipe) could change an answer; that is cheating for a person to find, and the
grade records the file's sha256 for them.
"""

import faulthandler
import importlib
import importlib.util
import linecache
import os
import resource
import signal
import sys
import traceback

from . import account, channel, linux
from .plain import NotPlain, to_plain

PROCESSES = 256        # processes and threads a child with a user of its own may have at once
FILE_MB = 64           # the largest file it may write
CLIP = 500             # characters kept of an exception's message or a line of source
KEPT_ENV = ("PATH", "LANG", "LC_ALL", "LC_CTYPE", "TZ", "TERM")


def serve(*, copies, harness_file, requests_fd, answers_fd, output_fd, scratch,
          memory_limit_mb, watchdog_file, watchdog_seconds, keep_fds):
    """`copies` is what clean_copies returned in the grader before the fork."""
    try:
        try:
            stacks = _isolate(output_fd, scratch, memory_limit_mb, watchdog_file, keep_fds)
            own, scenarios = copies
        except Exception as error:  # the grader's fault, not the student's: say so, and stop
            channel.write_frame(answers_fd, {"grader_broke": f"{type(error).__name__}: {error}"})
            return
        own.answer_requests(harness_file, scenarios, requests_fd, answers_fd, stacks,
                            watchdog_seconds)
    finally:
        os._exit(0)


def answer_requests(harness_file, scenarios, requests_fd, answers_fd, stacks, watchdog_seconds):
    """Import the harness, say which names it has, then answer every request (runs from the
    private copy of this module). `watchdog_seconds`: when to dump the stacks if the import
    is still running; each request says its own."""
    faulthandler.dump_traceback_later(max(0.05, watchdog_seconds), file=stacks)
    module = _import(harness_file, "harness")
    faulthandler.cancel_dump_traceback_later()
    if isinstance(module, dict):  # the import failed; say how, then stop
        _send(answers_fd, module)
        return
    _send(answers_fd, _names(module, harness_file))
    while (request := channel.read_frame(requests_fd)) is not None:
        stacks.seek(0)
        stacks.truncate()
        faulthandler.dump_traceback_later(max(0.05, request["watchdog"]), file=stacks)
        answer = _answer(request, module, scenarios, harness_file)
        faulthandler.cancel_dump_traceback_later()
        _send(answers_fd, answer)


# -- before the student's code: the process and the private copies ----------------------------

def _isolate(output_fd, scratch, memory_limit_mb, watchdog_file, keep_fds):
    """Set the child up as described above; returns the watchdog's open file."""
    parent = os.getppid()
    faulthandler.disable()  # the grader's crash handler wrote to a file this child closes
    os.setsid()  # a session and process group of its own, away from the grader's terminal
    for number in (signal.SIGINT, signal.SIGTERM, signal.SIGALRM, signal.SIGPIPE):
        signal.signal(number, signal.SIG_DFL)
    null = os.open(os.devnull, os.O_RDONLY)
    os.dup2(null, 0)
    os.dup2(output_fd, 1)
    os.dup2(output_fd, 2)
    for fd in _open_fds():
        if fd > 2 and fd not in keep_fds:
            try:
                os.close(fd)
            except OSError:  # closed already (the listing's own descriptor): nothing to close
                continue
    sys.stdin = open(0, closefd=False)
    sys.stdout = open(1, "w", buffering=1, closefd=False)
    sys.stderr = open(2, "w", buffering=1, closefd=False)
    sys.__stdout__, sys.__stderr__, sys.__stdin__ = sys.stdout, sys.stderr, sys.stdin
    stacks = open(watchdog_file, "w")  # in the grader's own folder: opened while we may
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    resource.setrlimit(resource.RLIMIT_FSIZE, (FILE_MB << 20, FILE_MB << 20))
    if memory_limit_mb:
        in_use = os.sysconf("SC_PAGE_SIZE") * int(open("/proc/self/statm").read().split()[0])
        ceiling = in_use + memory_limit_mb * 1024 * 1024
        resource.setrlimit(resource.RLIMIT_AS, (ceiling, ceiling))
    if account.switching():
        resource.setrlimit(resource.RLIMIT_NPROC, (PROCESSES, PROCESSES))
        account.become_own_user(scratch)
    linux.prctl(linux.PR_SET_NO_NEW_PRIVS, 1)
    linux.prctl(linux.PR_SET_CHILD_SUBREAPER, 1)  # orphans below stay in its tree, for the sweep
    linux.prctl(linux.PR_SET_PDEATHSIG, signal.SIGKILL)  # after the switch, which clears it
    if os.getppid() != parent:  # the grader died before we asked to follow it
        os._exit(0)
    os.chdir(scratch)
    kept = {key: os.environ[key] for key in KEPT_ENV if key in os.environ}
    os.environ.clear()  # the grader's environment may hold secrets; the harness needs none
    os.environ.update(kept, HOME=scratch, TMPDIR=scratch, PYTHONDONTWRITEBYTECODE="1")
    sys.dont_write_bytecode = True
    sys.argv = [os.path.join(scratch, "harness.py")]
    sys.path[:] = [scratch] + [p for p in sys.path if p not in ("", ".", scratch)]
    return stacks


def _open_fds():
    try:
        return [int(name) for name in os.listdir("/proc/self/fd")]
    except OSError:
        return list(range(3, 256))


_CLEAN = {}  # scenarios file -> its clean copies, made once in each grading process


def clean_copies(scenarios_file):
    """The private copies for a child, made in the grader before it forks. The grader never
    runs a student's code, so they are as clean there as freshly loaded, and a fork hands
    every child its own: loading them once saves each test the cost of loading the lab."""
    if scenarios_file not in _CLEAN:
        _CLEAN[scenarios_file] = _private_copies(scenarios_file)
    return _CLEAN[scenarios_file]


def _private_copies(scenarios_file):
    """A fresh copy of this module and of the lesson's scenarios (with a fresh lab), loaded
    from disk and then taken out of sys.modules, where the grader's own lab goes back."""
    def ours(name):
        return name == "lab" or name.startswith("lab.")

    grader = {name: sys.modules.pop(name) for name in list(sys.modules) if ours(name)}
    try:
        if getattr(grader.get("lab"), "__file__", None):  # from the very files the grader's came
            _loaded(_import(grader["lab"].__file__, "lab", folders=list(grader["lab"].__path__)))
        own = importlib.import_module(__name__)
        scenarios = _loaded(_import(scenarios_file, "lab_scenarios")) if scenarios_file else None
    finally:
        for name in [name for name in sys.modules if ours(name) or name == "lab_scenarios"]:
            del sys.modules[name]
        sys.modules.update(grader)
    return own, scenarios


def _loaded(module):
    if isinstance(module, dict):
        raise ImportError(f"a module of the lab's could not be loaded afresh: {module}")
    return module


# -- the student's code -----------------------------------------------------------------------

def _import(path, name, folders=None):
    """The module at `path`, registered as `name` (a package when `folders` are given); or,
    when importing it fails, the failure as an answer for the grader."""
    spec = importlib.util.spec_from_file_location(name, path, submodule_search_locations=folders)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    try:
        spec.loader.exec_module(module)
    except BaseException as error:  # the student's module may raise anything, SystemExit too
        return {"import_failed": describe(error, path)}
    return module


def _names(module, harness_file):
    """The ready answer: the module's names. A module whose namespace cannot be listed (the
    student replaced its __dict__, or its class) fails its import instead."""
    try:
        return {"ready": sorted(n for n in dict(vars(module)) if type(n) is str
                                and not n.startswith("__"))}
    except BaseException as error:  # whatever the student's module raises when listed
        return {"import_failed": describe(error, harness_file)}


def _answer(request, module, scenarios, harness_file):
    name = request["name"]
    try:
        if request["op"] == "scenario":
            return {"data": to_plain(getattr(scenarios, name)(module, **request["params"]),
                                     "what the scenario saw")}
        if not hasattr(module, name):
            return {"missing": name}
        if request["op"] == "constant":
            value = getattr(module, name)
            return {"data": to_plain(value, name), "type": type(value).__name__}
        if request["op"] == "value":
            return _value(getattr(module, name), name, request["args"])
        return _call(getattr(module, name), name, request["messages"])
    except NotPlain as error:
        return {"not_plain": str(error)}
    except BaseException as error:  # KeyboardInterrupt, SystemExit, MemoryError: all reported
        return {"raised": describe(error, harness_file)}


def _call(function, name, messages):
    """Call function(messages) and report, as plain data, what it returned and what it did to
    the list and the messages it was given."""
    given = tuple(messages)  # the objects handed over, kept alive so no id is reused
    returned = function(messages)
    where = {id(m): i for i, m in enumerate(given)}
    is_list = type(returned) is list
    origins = [where.get(id(m)) for m in returned] if is_list else []
    return {"data": {
        "type": type(returned).__name__,
        "returned": to_plain(returned, f"what {name} returned") if is_list else None,
        "origins": [i if i is not None and returned[k] is given[i] else None
                    for k, i in enumerate(origins)],
        "returned_input": returned is messages,
        "input_after": to_plain(messages, f"the list {name} was given, afterwards"),
        "input_kept_objects": len(messages) == len(given) and all(
            a is b for a, b in zip(messages, given)),
    }}


def _value(function, name, args):
    """Call function(*args) and report, as plain data, what it returned and what became of
    the arguments: for functions whose inputs or outputs are not lab messages."""
    returned = function(*args)
    return {"data": {
        "value": to_plain(returned, f"what {name} returned"),
        "args_after": to_plain(list(args), f"the arguments of {name}, afterwards"),
        "returned_input": bool(args) and returned is args[0],
    }}


def _send(answers_fd, answer):
    """Write one answer. One that JSON cannot hold (an integer of thousands of digits) is
    reported as not plain instead."""
    try:
        frame = channel.encode(answer)
    except (ValueError, TypeError, RecursionError, MemoryError) as error:
        frame = channel.encode({"not_plain": "the answer could not be sent as JSON "
                                             f"({type(error).__name__}: {error})"[:CLIP]})
    if len(frame) > channel.LARGEST:
        frame = channel.encode({"not_plain": f"the answer is {len(frame)} bytes of JSON, more "
                                             f"than the {channel.LARGEST} the grader reads"})
    channel.write_bytes(answers_fd, frame)


def describe(error, student_file):
    """An exception as plain facts: its type, its last line, and where in the student's file
    it came from (the innermost frame there), if it came from there at all."""
    try:
        lines = "".join(traceback.format_exception_only(type(error), error)).strip().splitlines()
    except BaseException:  # an exception whose str() itself raises: its type has to do
        lines = [type(error).__name__]
    facts = {"type": str(type(error).__name__)[:CLIP],
             "message": (lines[-1] if lines else type(error).__name__)[:CLIP],
             "exit_code": _exit_code(error) if isinstance(error, SystemExit) else None,
             "line": None, "function": None, "source": None}
    tb = error.__traceback__
    while tb is not None:
        if tb.tb_frame.f_code.co_filename == student_file:
            facts["line"], facts["function"] = tb.tb_lineno, tb.tb_frame.f_code.co_name
            facts["source"] = linecache.getline(student_file, tb.tb_lineno).strip()[:CLIP]
        tb = tb.tb_next
    return facts


def _exit_code(error):
    code = error.code
    return code if type(code) in (int, type(None)) else str(code)[:CLIP]
