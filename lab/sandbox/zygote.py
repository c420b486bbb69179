"""The first process inside the sandbox: forks one clean process for each graded test.

Started by the grader as a fresh interpreter (`python -I -S`), it imports the lab's
student-facing modules once, never the grader, and never the student's file. Its command line
holds nothing but the descriptor of its control socket (any user can read a command line); the
first message on that socket is the sandbox's plan (isolation.launch: the submission, the
scratch folder, what a test's process may read and write). It answers {"zygote": pid,
"landlock": version, "pids": 1 when each test's process gets a pid namespace of its own} and
then waits for the grader:

    {"op": "fork", ...}   with three descriptors passed alongside (the test's channel, its
                          output, its stack dumps): fork (in a pid namespace of its own where
                          the kernel gives one, pidns.py) a process that copies harness.py into
                          the test's scratch folder, sets its limits, confines itself with
                          Landlock where the kernel has it, and serves the test (serve.py);
                          answers {"pid": n}
    {"op": "dump", "pid": n}  have the test's process write every thread's stack (SIGUSR1)
    {"op": "reset"}       kill every process a test left, wherever it went (with "clean", at
                          the end of a test, empty the sandbox's folders too); answers
                          {"clean": 1}, or {"clean": 0} when something could not be removed
                          (the grader then starts a new sandbox rather than trust it). With
                          "clean" and "fork" (a fork request, its descriptors passed along),
                          once everything is gone and clean it forks the next test's process
                          and answers {"clean": 1, "pid": n}: that process starts on empty
                          folders, with no process of the last test left, while the grader
                          is still reporting the last test

Inside a pid namespace the zygote is process 1, which its own namespace cannot kill, and
`kill(-1)` there reaches every other process in the sandbox. Outside one (a grader with no
namespaces), it adopts every orphan below it and sweeps its family instead (reaper.py). It
cannot be read or traced by the processes it forks (it is not dumpable); under Landlock (ABI 6)
they cannot signal it either, and if the student's code kills it anyway (possible without
either), the grader starts another.
"""

from __future__ import annotations

import gc
import json
import os
import select
import resource
import signal
import socket
import sys
import time
from collections.abc import Sequence

from . import ipc, landlock, linux, pidns, reaper, refusals, serve

FILE_MB = 64    # the largest file a test may write
WORK = "work"   # each test's folder in the scratch: one at a time, emptied between tests
DEVICES = ("/dev/null", "/dev/zero", "/dev/full", "/dev/random", "/dev/urandom")


def main(control_fd: int) -> None:
    linux.prctl(linux.PR_SET_DUMPABLE, 0)
    first = os.getpid() == 1
    if not first:
        reaper.become_subreaper()
    for number in (signal.SIGINT, signal.SIGTERM, signal.SIGPIPE):
        signal.signal(number, signal.SIG_DFL)
    control = socket.socket(fileno=control_fd)
    plan = json.loads(control.recv(1 << 16) or b"{}")
    submission, scratch_root = plan["submission"], plan["scratch"]
    confined = landlock.abi() if plan.get("landlock") else 0
    walls = _walls(plan, confined)
    _warm_up()
    code = _compiled(submission, os.path.join(scratch_root, WORK, "harness.py"))
    # what is loaded now is shared with every fork until written to: kept out of the
    # collector's way, a test's collections do not touch (and so copy) all of it
    gc.freeze()
    children: dict[int, int] = {}  # each test's process: its report pipe (pidns.py)
    ended: dict[int, int] = {}
    control.send(json.dumps({"zygote": os.getpid(), "landlock": confined,
                             "pids": int(_pid_namespaces())}).encode())
    while True:
        _reap_quietly(ended)
        try:
            data, fds, _, _ = socket.recv_fds(control, 1 << 16, 4)
        except OSError:
            break
        if not data:
            break
        request = json.loads(data)
        if request["op"] == "fork":
            control.send(json.dumps({"pid": _fork(request, fds, plan, code, walls, control,
                                                  children)}).encode())
        elif request["op"] == "dump":  # the grader's time ran out: name the line
            _signal(request["pid"], signal.SIGUSR1)
            control.send(b'{"sent": 1}')
        elif request["op"] == "reload":  # a kept sandbox's next grading: the file anew
            code = _compiled(submission, os.path.join(scratch_root, WORK, "harness.py"))
            control.send(b'{"reloaded": 1}')
        elif request["op"] == "status":
            control.send(json.dumps(_status(request["pid"], ended, children)).encode())
        elif request["op"] == "reset":
            _kill_everything(first, children)
            children.clear()
            ended.clear()
            clean = _clean(scratch_root, plan.get("tmp", "")) if request.get("clean") else True
            answer = {"clean": int(clean)}
            if clean and request.get("clean") and type(request.get("fork")) is dict:
                # the next test's process, forked now that nothing of the last test's is left:
                # it imports the file while the grader is still busy with the last test
                answer["pid"] = _fork(request["fork"], fds, plan, code, walls, control,
                                      children)
            else:
                for fd in fds:
                    os.close(fd)
            control.send(json.dumps(answer).encode())
    _kill_everything(first, children)


def _pid_namespaces():
    """Whether each test's process will have a pid namespace of its own: tried once, in a
    child that ends at once."""
    child = os.fork()
    if child == 0:
        os._exit(0 if pidns.unshare() else 1)
    return os.waitpid(child, 0)[1] == 0


def _fork(request, fds, plan, code, walls, control, children):
    """Fork the process for one test (`fds`: its channel, output and stack dumps), in a pid
    namespace of its own where the kernel gives one (pidns.py), which serves it; its pid.
    `children` maps each test's process to the pipe its namespace's first process reports
    its end on."""
    report, report_w = os.pipe()
    between = os.fork()
    if between == 0:
        try:
            control.close()
            os.close(report)
            pidns.unshare()
            if os.fork() == 0:  # the namespace's first process
                test = os.fork()
                if test == 0:
                    _serve(request, fds, plan, code, walls, report_w)
                else:
                    _close_all_but({report_w})
                    pidns.init(report_w, test)
        finally:
            os._exit(0)
    os.close(report_w)
    for fd in fds:
        os.close(fd)
    os.waitpid(between, 0)
    pid = pidns.read_word(report)
    if pid is None:  # it ended before it began: asking how says it stopped answering
        os.close(report)
        return 0
    children[pid] = report
    return pid


class Walls:
    """What every test's process shares, made once in the zygote rather than in each fork:
    the keyring filter (seccomp, inherited by every fork), the Landlock rules built and waiting
    to be put in force (`rules`), the environment and the standard streams' file objects.
    `broken`: the kernel refused the filter or the rules, and so each test's process ends at
    once rather than run the student's code less walled in than the grader was told."""

    def __init__(self, rules: landlock.Ruleset | None, broken: bool) -> None:
        self.rules, self.broken = rules, broken


def _walls(plan, confined):
    scratch = os.path.join(plan["scratch"], WORK)
    os.environ.clear()
    os.environ.update(PATH="/usr/bin:/bin", LANG="C.UTF-8", HOME=scratch, TMPDIR=scratch,
                      PYTHONDONTWRITEBYTECODE="1")
    sys.dont_write_bytecode = True
    # the streams a test's process writes: its output and stack descriptors are put on 0, 1
    # and 2 in each fork; the file objects on those numbers are made once, never written here
    sys.stdin = open(0, closefd=False)
    sys.stdout = open(1, "w", buffering=1, closefd=False, errors="backslashreplace")
    sys.stderr = open(2, "w", buffering=1, closefd=False, errors="backslashreplace")
    sys.__stdout__, sys.__stderr__, sys.__stdin__ = (  # type: ignore[misc]
        sys.stdout, sys.stderr, sys.stdin)
    broken, rules = False, None
    try:
        linux.prctl(linux.PR_SET_NO_NEW_PRIVS, 1)
        refusals.install()  # keyrings, IPC, locks, watches: what outlives a test, or crosses
        if confined:
            rules = landlock.Ruleset(plan["readable"],
                                     [plan["scratch"], *plan.get("writable", ())], DEVICES)
    except OSError:
        broken = True
    return Walls(rules, broken)


def _warm_up():
    """Load the student-facing lab now, once, so each test's fork starts with it loaded."""
    try:
        import damaged  # noqa: F401  (it imports lab)
    except Exception:  # a lesson without it: the harness imports what it needs itself
        pass


def _signal(pid, number):
    try:
        os.kill(pid, number)
    except OSError:
        pass  # it has ended already: there is no stack to dump


def _reap_quietly(ended):
    """Collect every process that has ended, keeping how it ended for "status"."""
    while True:
        try:
            pid, status = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            return
        ended[pid] = status


def _status(pid, ended, children):
    """How the test's process `pid` ended, waiting a moment for it: {"status": n} from
    waitpid, or {"alive": 1} when it has not ended (it shut its channel and lives on)."""
    report = children.get(pid)
    for _ in range(50):
        _reap_quietly(ended)
        if pid in ended:
            return {"status": ended[pid]}
        if report is not None and select.select([report], [], [], 0.02)[0]:
            status = pidns.read_word(report)
            if status is None:
                return {"alive": 1}
            ended[pid] = status
        elif report is None:
            time.sleep(0.02)
    return {"alive": 1}


def _kill_everything(first, children):
    for report in children.values():
        os.close(report)
    if first:
        try:
            os.kill(-1, signal.SIGKILL)  # every process in the namespace but this one
        except ProcessLookupError:
            pass
    else:
        for pid in children:
            reaper.sweep(pid)
    while True:
        try:
            os.waitpid(-1, 0)
        except ChildProcessError:
            return


def _clean(scratch_root, tmp):
    """Empty the sandbox's scratch folder, and /tmp and /dev/shm as far as they are the
    sandbox's (`tmp`: "own" in its own namespaces, where they are its private tmpfs; "mine"
    where they are the machine's and only what this user made there is the sandbox's; "" where
    they are not the sandbox's at all), so that nothing a test left is there for the next. A
    folder the student's code made read-only is made writable first (a plain rm -rf would leave
    what is inside it), and its System V objects (ipc.py). True when everything is gone."""
    folders: Sequence[str] = (scratch_root, "/tmp", "/dev/shm") if tmp else (scratch_root,)
    me = os.getuid()

    def doomed():
        return [path for folder, path, owner in linux.entries(folders)
                if folder == scratch_root or tmp == "own" or owner == me]

    # System V objects outlive their makers too: the sandbox's own (all of them in its own
    # IPC namespace, its user's on the machine's); none where its user is the grader's
    kept = ipc.remove(everyone=tmp == "own") if tmp else True
    for attempt in range(3):  # a second pass only if a first could not remove everything
        paths = doomed()
        if not paths:
            return kept
        if attempt == 0:  # the usual case, in this process: nothing locked, nothing deep
            for path in paths:
                _remove_quickly(path)
            continue
        # chmod follows a link named on its command line: links are left out, only removed
        folders = [path for path in paths if not os.path.islink(path)]
        if folders:
            os.spawnv(os.P_WAIT, "/usr/bin/chmod", ["chmod", "-R", "-f", "u+rwx", "--", *folders])
        os.spawnv(os.P_WAIT, "/usr/bin/rm", ["rm", "-rf", "--one-file-system", "--", *paths])
    return kept and not doomed()


def _remove_quickly(path):
    """Remove `path` without starting a process; whatever resists (a locked folder, a tree
    deeper than recursion goes) is left for rm."""
    import shutil

    try:
        if os.path.isdir(path) and not os.path.islink(path):
            shutil.rmtree(path)
        else:
            os.unlink(path)
    except (OSError, RecursionError):
        pass


def _compiled(submission, path):
    """The submission compiled once, as the file each test's process imports (`path`), so
    that no test pays for it; None when it will not compile (the import then says why).
    Compiling runs none of it."""
    try:
        with open(submission, "rb") as source:
            return compile(source.read(), path, "exec", dont_inherit=True)
    except BaseException:
        return None


def _serve(request, fds, plan, code, walls, report):
    """In the forked process: become the test's clean process, then serve it. It has the
    zygote's seccomp filter already (refusals.py); it says its pid on `report`, drops every
    capability, and, where the kernel has Landlock, puts the zygote's rules in force before any
    of the student's code runs, or ends: it never runs that code less confined than the grader
    was told."""
    pidns.report_self(report)
    try:
        pidns.drop_capabilities()
    except OSError:
        os._exit(70)
    if walls.broken:
        os._exit(70)  # the grader reads this death as the sandbox failing, never a pass
    submission, scratch_root = plan["submission"], plan["scratch"]
    channel, output, stacks = fds
    os.setsid()
    null = os.open(os.devnull, os.O_RDONLY)
    os.dup2(null, 0)
    os.dup2(output, 1)
    os.dup2(output, 2)
    keep = {0, 1, 2, channel, stacks} | ({walls.rules.fd} if walls.rules else set())
    _close_all_but(keep)
    scratch = os.path.join(scratch_root, WORK)
    os.makedirs(scratch, exist_ok=True)
    copy = os.path.join(scratch, "harness.py")
    try:
        os.unlink(copy)  # whatever the last process left under that name, a pipe included
    except OSError:
        pass
    with open(submission, "rb") as source, open(copy, "wb") as target:
        target.write(source.read())
    _limit(request)
    linux.prctl(linux.PR_SET_DUMPABLE, 1)  # its own stacks may be dumped; the zygote's stay shut
    os.chdir(scratch)
    sys.argv = [copy]
    sys.path[:] = [scratch] + [p for p in sys.path if p not in ("", ".")]
    if walls.rules is not None:
        try:
            walls.rules.restrict()
        except OSError:
            os._exit(70)
    serve.Server(channel, os.fdopen(stacks, "w"), copy).run(code)


def _limit(request):
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    resource.setrlimit(resource.RLIMIT_FSIZE, (FILE_MB << 20, FILE_MB << 20))
    cpu = request.get("cpu_seconds")
    if cpu:
        resource.setrlimit(resource.RLIMIT_CPU, (int(cpu), int(cpu) + 1))
    nproc = request.get("processes")
    if nproc:
        resource.setrlimit(resource.RLIMIT_NPROC, (nproc, nproc))
    memory = request.get("memory_mb")
    if memory:
        in_use = os.sysconf("SC_PAGE_SIZE") * int(open("/proc/self/statm").read().split()[0])
        ceiling = in_use + memory * 1024 * 1024
        resource.setrlimit(resource.RLIMIT_AS, (ceiling, ceiling))


def _close_all_but(keep):
    """Close every descriptor but those in `keep` (close_range, between the kept ones)."""
    low = 0
    for fd in sorted(keep):
        if fd > low:
            os.closerange(low, fd)
        low = fd + 1
    os.closerange(low, resource.getrlimit(resource.RLIMIT_NOFILE)[0])


if __name__ == "__main__":
    main(int(sys.argv[1]))
