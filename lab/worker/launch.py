"""How the worker starts the sandbox's zygote, one kind of isolation at a time (the host's
lab/worker/isolation.py decides which kind; this module only carries it out).

bubblewrap  `bwrap` with new namespaces of every kind: a read-only /usr and Python, the bundle
            read-only at /lab-bundle, the submission read-only, private size-capped /scratch,
            /tmp and /dev/shm, every capability dropped but one (CAP_SYS_ADMIN, over the
            sandbox's own namespaces: inside/pidns.py). As root, cgroups of its own (`Cgroup`).
uid         the zygote runs as a user of its own (a random uid far above real accounts), no
            groups; its scratch and the snapshot are made that user's alone; what it leaves in
            the machine's /tmp and /dev/shm is removed with it.
none        the zygote runs as the worker's own user.

In each kind the zygote's command line names only the bundle (anyone may read a command line);
the rest of its plan (the submission, its scratch, what Landlock may let it read and write) is
the first message on its control socket. `python()` is the interpreter it runs, which the host
also checks others can read; `bubblewrap_problem()` is the host's probe of whether bwrap works.
"""

from __future__ import annotations

import functools
import json
import os
import secrets
import shutil
import socket
import subprocess
import sys
from typing import TYPE_CHECKING, Any

from lab.sandbox import linux

if TYPE_CHECKING:
    from lab.worker.bundle import Bundle

PROCESSES = 64          # processes and threads one sandbox may have at once
SCRATCH_MB = 256        # the size of the sandbox's /scratch; /tmp and /dev/shm get TMP_MB
TMP_MB = 64
BASE_UID = 3_000_000_000  # uid mode: far above real accounts and what containers usually map
INSIDE = "/lab-bundle"  # where bubblewrap mounts the bundle


def python() -> str:
    """The interpreter the sandbox runs: this one, without its virtual environment."""
    return os.path.realpath(sys.executable)


@functools.cache
def bubblewrap_problem() -> str:
    """Why bwrap cannot start a sandbox on this machine, or "" when it can: found by
    starting one, with the very command line a grading uses, around `true`. The host asks it
    (isolation.why_not) before any worker exists; the answer is kept for the process."""
    if not shutil.which("bwrap"):
        return "bwrap is not installed (Debian: apt-get install bubblewrap)"
    import tempfile

    with tempfile.TemporaryDirectory(prefix="lab-bwrap-probe-") as empty:
        try:
            done = subprocess.run(_bwrap_argv(empty, os.devnull, 0) + ["true"],
                                  stdin=subprocess.DEVNULL, capture_output=True, timeout=30)
        except (OSError, subprocess.TimeoutExpired) as error:
            return f"bwrap did not start ({error})"
    if done.returncode != 0:
        said = done.stderr.decode(errors="replace").strip().splitlines()
        return f"bwrap could not make a sandbox here ({said[-1] if said else done.returncode})"
    return ""


def _bwrap_argv(bundle, submission, control_fd):
    argv = ["bwrap", "--unshare-all", "--unshare-user", "--disable-userns", "--die-with-parent",
            "--new-session", "--as-pid-1", "--cap-drop", "ALL",
            # the zygote's one capability, over the sandbox's own namespaces only: a pid
            # namespace for each test's process (inside/pidns.py), which drops it
            "--cap-add", "CAP_SYS_ADMIN"]
    if os.geteuid() == 0:  # inside, not root; a plain user stays itself
        argv += ["--uid", "1000", "--gid", "1000"]
    argv += ["--ro-bind", "/usr", "/usr"]
    for top in ("/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32"):
        if os.path.islink(top):
            argv += ["--symlink", os.readlink(top), top]
        elif os.path.isdir(top):
            argv += ["--ro-bind", top, top]
    prefix = os.path.realpath(sys.base_prefix)
    if not prefix.startswith("/usr/"):
        argv += ["--ro-bind", prefix, prefix]
    if os.path.dirname(python()) != os.path.join(prefix, "bin") and \
            not python().startswith("/usr/"):
        argv += ["--ro-bind", python(), python()]
    size = str(TMP_MB << 20)
    argv += ["--ro-bind", bundle, INSIDE, "--ro-bind", submission, "/submission/harness.py",
             "--size", str(SCRATCH_MB << 20), "--tmpfs", "/scratch",
             "--size", size, "--tmpfs", "/tmp", "--dev", "/dev",
             "--size", size, "--tmpfs", "/dev/shm", "--proc", "/proc",
             "--remount-ro", "/", "--clearenv", "--setenv", "PATH", "/usr/bin:/bin",
             "--setenv", "LANG", "C.UTF-8", "--chdir", "/scratch"]
    return argv


def _boot(bundle_path):
    """The zygote's command line: any user can read it, so it names only the bundle (which
    anyone may read); the rest of its plan comes over the control socket."""
    code = (f"import sys; sys.path[:0] = [{bundle_path!r}]; from lab_inside import zygote; "
            "zygote.main(int(sys.argv[1]))")
    return [python(), "-I", "-S", "-B", "-c", code]


SYSTEM = ("/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/proc")


def _readable(bundle_path):
    """What a test's process may read under Landlock: the system's folders, the Python
    runtime, the bundle."""
    found = [*SYSTEM, os.path.realpath(sys.base_prefix), python(), bundle_path]
    return list(dict.fromkeys(found))


class Launched:
    """A zygote that is running: its process, the grader's end of its control socket, the
    kind of isolation, and the user its processes count against (for RLIMIT_NPROC)."""

    def __init__(self, process: subprocess.Popen[bytes], control: socket.socket, kind: str,
                 cgroups: list[Cgroup], scratch: str | None, uid: int | None = None) -> None:
        self.process, self.control, self.kind = process, control, kind
        self.cgroups, self.scratch, self.uid = cgroups, scratch, uid

    def close(self) -> None:
        try:
            self.control.close()
        finally:
            if self.process.poll() is None:
                self.process.kill()
            self.process.wait()
            if self.uid is not None:  # whatever runs as the sandbox's user, wherever it went
                from lab.sandbox import reaper

                reaper.sweep(self.process.pid, self.uid)
                _remove_owned(self.uid)
            for group in self.cgroups:
                group.remove()
            if self.scratch:
                from lab.worker.tidy import remove_tree

                remove_tree(self.scratch)


def launch(kind: str, bundle: Bundle, submission: str, private: str | None,
           memory_mb: int = 1024) -> Launched:
    """Start a zygote of `kind` for `submission` (the grader's private snapshot of it); the
    processes of the sandbox may hold twice `memory_mb` together, and their folders."""
    memory_bytes = (2 * memory_mb + SCRATCH_MB + 2 * TMP_MB) << 20
    ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
    cgroups, scratch, uid = [], None, None
    fd = theirs.fileno()
    options: dict[str, Any] = {}
    if kind == "bubblewrap":
        argv = _bwrap_argv(bundle.path, submission, fd) + _boot(INSIDE)
        plan = {"submission": "/submission/harness.py", "scratch": "/scratch", "tmp": "own",
                "readable": _readable(INSIDE), "writable": ["/tmp", "/dev/shm"]}
        if os.geteuid() == 0:
            cgroups = Cgroup.make_all(memory_bytes)
    else:
        import tempfile

        scratch = tempfile.mkdtemp(prefix="scratch-", dir=private)
        argv = _boot(bundle.path)
        plan = {"submission": submission, "scratch": scratch, "tmp": "",
                "readable": _readable(bundle.path), "writable": []}
        if kind == "uid":
            uid = BASE_UID + secrets.randbelow(1 << 30)  # no other grading's, nor a leftover's
            os.chown(scratch, uid, uid)
            os.chmod(scratch, 0o700)
            os.chown(submission, 0, uid)  # the grader's snapshot: this user reads it, alone
            os.chmod(submission, 0o640)
            options = dict(user=uid, group=uid, extra_groups=[])
            plan["tmp"] = "mine"  # the machine's /tmp: what this user left there is swept
    plan["landlock"] = True
    argv += [str(fd)]
    preexec = ((lambda: [group.join() for group in cgroups])  # type: ignore[func-returns-value]
               if cgroups else None)
    process = subprocess.Popen(argv, pass_fds=(fd,), stdin=subprocess.DEVNULL,
                               stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                               close_fds=True, preexec_fn=preexec, cwd="/", **options)
    theirs.close()
    try:
        ours.send(json.dumps(plan).encode())
    except OSError:
        pass  # it died at once: starting it says why
    return Launched(process, ours, kind, cgroups, scratch, uid)


def _remove_owned(uid):
    """Remove what the sandbox's user left in the machine's /tmp and /dev/shm."""
    from lab.worker.tidy import remove_tree

    for _, path, owner in linux.entries(("/tmp", "/dev/shm")):
        if owner == uid:
            try:
                remove_tree(path)
            except OSError:
                continue


def processes_allowed(kind: str) -> int | None:
    """RLIMIT_NPROC for a test's process, or None when cgroups (or nothing) limit it. The
    limit counts every process of the real user, so it is set above those it has already."""
    if kind == "bubblewrap" and os.geteuid() == 0:
        return None  # root's processes are not counted; the sandbox's cgroup caps them
    if kind == "uid":
        return PROCESSES
    uid = os.getuid()
    return sum(owner == uid for _, owner, _ in linux.processes().values()) + PROCESSES


class Cgroup:
    """A cgroup (v1) of one controller for one sandbox, made only when root can write there:
    a cap on its processes, an equal share of the CPU whatever their number, and a cap on the
    memory they hold together (their private /scratch and /tmp included)."""

    ROOT = "/sys/fs/cgroup"

    def __init__(self, path: str) -> None:
        self.path = path

    @classmethod
    def make_all(cls, memory_bytes: int) -> list[Cgroup]:
        settings = {"pids": {"pids.max": str(PROCESSES)}, "cpu": {"cpu.shares": "1024"},
                    "memory": {"memory.limit_in_bytes": str(memory_bytes)}}
        made: list[Cgroup] = []
        for controller, values in settings.items():
            parent = os.path.join(cls.ROOT, controller)
            if not os.access(os.path.join(parent, "cgroup.procs"), os.W_OK):
                continue
            path = os.path.join(parent, f"lab-check-{os.getpid()}-{len(made)}-{id(made)}")
            try:
                os.mkdir(path)
            except OSError:
                continue
            group = cls(path)
            try:
                for name, value in values.items():
                    with open(os.path.join(path, name), "w") as f:
                        f.write(value)
            except OSError:
                group.remove()
                continue
            made.append(group)
        return made

    def join(self) -> None:
        """Called in the child before exec: it, and all it starts, belong to this group."""
        with open(os.path.join(self.path, "cgroup.procs"), "w") as f:
            f.write(str(os.getpid()))

    def remove(self) -> None:
        """Kill whatever is still in the group, and remove it once it is empty."""
        import signal
        import time

        for _ in range(200):
            try:
                os.rmdir(self.path)
                return
            except FileNotFoundError:
                return
            except OSError:  # busy: a process is still in it, dying or not
                try:
                    with open(os.path.join(self.path, "cgroup.procs")) as procs:
                        for pid in procs.read().split():
                            try:
                                os.kill(int(pid), signal.SIGKILL)
                            except OSError:
                                pass
                except OSError:
                    pass
                time.sleep(0.01)
