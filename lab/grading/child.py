"""The student's side of a graded test: a forked process that imports the harness and answers.

`serve` is called in the child straight after the fork and never returns: every way out ends
in os._exit, so nothing the student does can run the grader's code (pytest's, the lab's) in
this process again. It sets the process up (its own process group, no stdin, output to a
pipe, a memory limit, a scratch folder as its working directory), imports harness.py from
that folder, says which names it has, and then answers requests until the pipe closes:

    {"op": "call", "name": "repair_tool_history", "messages": [...]}
    {"op": "scenario", "name": "session", "params": {...}}
    {"op": "constant", "name": "INTERRUPTED"}

Each answer is plain data (see plain.py). Before each request a watchdog is armed that writes
every thread's stack to a file shortly before the time runs out, so that a grader that has to
kill the child can still say which function of the student's it was stuck in.
"""

import faulthandler
import importlib.util
import linecache
import os
import resource
import signal
import sys
import traceback

from . import channel
from .plain import NotPlain, to_plain


def serve(*, harness_file, scenarios_file, requests_fd, answers_fd, output_fd, scratch,
          memory_limit_mb, watchdog_file, keep_fds):
    try:
        _isolate(output_fd, scratch, memory_limit_mb, keep_fds)
        stacks = open(watchdog_file, "w")
        module = _import(harness_file, "harness")
        if isinstance(module, dict):  # the import failed; say how, then stop
            channel.write_frame(answers_fd, module)
            return
        scenarios = _import(scenarios_file, "lab_scenarios") if scenarios_file else None
        channel.write_frame(answers_fd, {"ready": sorted(n for n in vars(module)
                                                         if not n.startswith("__"))})
        while (request := channel.read_frame(requests_fd)) is not None:
            stacks.seek(0)
            stacks.truncate()
            faulthandler.dump_traceback_later(max(0.05, request["watchdog"]), file=stacks)
            answer = _answer(request, module, scenarios, harness_file)
            faulthandler.cancel_dump_traceback_later()
            channel.write_frame(answers_fd, answer)
    finally:
        os._exit(0)


def _isolate(output_fd, scratch, memory_limit_mb, keep_fds):
    faulthandler.disable()  # the grader's crash handler wrote to a file this child closes
    os.setsid()  # a process group of its own, so the grader can kill everything it starts
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
            except OSError:
                pass
    sys.stdin = open(0, closefd=False)
    sys.stdout = open(1, "w", buffering=1, closefd=False)
    sys.stderr = open(2, "w", buffering=1, closefd=False)
    sys.__stdout__, sys.__stderr__, sys.__stdin__ = sys.stdout, sys.stderr, sys.stdin
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    if memory_limit_mb:
        in_use = os.sysconf("SC_PAGE_SIZE") * int(open("/proc/self/statm").read().split()[0])
        ceiling = in_use + memory_limit_mb * 1024 * 1024
        resource.setrlimit(resource.RLIMIT_AS, (ceiling, ceiling))
    os.chdir(scratch)
    sys.argv = [os.path.join(scratch, "harness.py")]
    sys.path[:] = [scratch] + [p for p in sys.path if p not in ("", ".", os.getcwd())]


def _open_fds():
    try:
        return [int(name) for name in os.listdir("/proc/self/fd")]
    except OSError:
        return list(range(3, 256))


def _import(path, name):
    """The module at `path`, registered as `name`; or, when importing it fails, the failure
    as an answer for the grader."""
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    try:
        spec.loader.exec_module(module)
    except BaseException as error:  # the student's module may raise anything, SystemExit too
        return {"import_failed": describe(error, path)}
    return module


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
        return _call(getattr(module, name), name, request["messages"])
    except NotPlain as error:
        return {"not_plain": str(error)}
    except BaseException as error:  # KeyboardInterrupt, SystemExit, MemoryError: all reported
        return {"raised": describe(error, harness_file)}


def _call(function, name, messages):
    """Call function(messages) and report, as plain data, what it returned and what it did to
    the list and the messages it was given."""
    given = list(messages)  # the objects handed over, to check identity against afterwards
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


def describe(error, student_file):
    """An exception as plain facts: its type, its last line, and where in the student's file
    it came from (the innermost frame there), if it came from there at all."""
    facts = {"type": type(error).__name__,
             "message": "".join(traceback.format_exception_only(type(error), error)).strip()
             .splitlines()[-1],
             "exit_code": _exit_code(error) if isinstance(error, SystemExit) else None,
             "line": None, "function": None, "source": None}
    tb = error.__traceback__
    while tb is not None:
        if tb.tb_frame.f_code.co_filename == student_file:
            facts["line"], facts["function"] = tb.tb_lineno, tb.tb_frame.f_code.co_name
            facts["source"] = linecache.getline(student_file, tb.tb_lineno).strip()
        tb = tb.tb_next
    return facts


def _exit_code(error):
    code = error.code
    return code if type(code) in (int, type(None)) else str(code)
