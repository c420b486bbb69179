"""Where the student's code runs: which isolation this machine allows, and how to start it.

Three kinds, strongest first; `detect()` picks the strongest that works here:

bubblewrap  bwrap (Debian's bubblewrap) starts the zygote in new mount, pid, IPC, network, UTS
            and user namespaces. It sees a read-only /usr and Python, a read-only bundle of
            the lab's student-facing modules (`bundle`), the submission read-only, and
            private, size-capped /scratch, /tmp and /dev/shm; nothing else of the machine: no
            lesson folder, no finished file, no tests, no other submission, no grader's
            folder. Every capability is dropped. Run as root, each sandbox also gets cgroups
            of its own (a cap on processes, an equal share of the CPU); as anyone else,
            process limits come from RLIMIT_NPROC.
uid         no namespaces, but root (a Docker-based grading platform): the zygote runs as a
            user of its own with no groups, which can read only what "others" may read. So the
            project's folder (lessons, .git and venv with it) must be closed to others
            (`exposed`), and every grading refuses until it is; the grader's private folder
            and snapshot are never open to others either.
none        a plain user with no namespaces: the student's own machine. A local run may go
            on, and its result says "not isolated: a submission could forge this grade"; an
            instructor's grading refuses (unless told --allow-unisolated).

In every kind, where the kernel has Landlock (inside/landlock.py), each test's process confines
itself to what the sandbox may see before the student's code runs: the system's folders, the
Python runtime, the bundle and its own scratch (and, in bubblewrap, its private /tmp and
/dev/shm), with no TCP and no signal to a process outside it. `layers` names what was in force.

LAB_ISOLATION=bubblewrap|uid|none asks for a kind; asking for one that cannot work here is
an error, never a silent fall back to something weaker.
"""

import functools
import json
import os
import pathlib
import secrets
import shutil
import socket
import stat
import subprocess
import sys

from .inside import linux

KINDS = ("bubblewrap", "uid", "none")
ENV = "LAB_ISOLATION"
PROCESSES = 64          # processes and threads one sandbox may have at once
SCRATCH_MB = 256        # the size of the sandbox's /scratch; /tmp and /dev/shm get TMP_MB
TMP_MB = 64
BASE_UID = 3_000_000_000  # uid mode: far above real accounts and what containers usually map
INSIDE = "/lab-bundle"
# The lab's modules a student's code may use are worker/bundle.py's STUDENT_MODULES. The rest of lab (lessons,
# harnesses, lab_check, grading, checkpoint B's clinic) knows where the answers are, and stays
# out of the sandbox.
LAB = pathlib.Path(__file__).resolve().parent.parent
PROJECT = LAB.parent


class Unavailable(RuntimeError):
    """The isolation asked for cannot be had on this machine; the message says why."""


def detect():
    """The kind of isolation this grading uses, as above."""
    wanted = os.environ.get(ENV, "")
    if wanted:
        if wanted not in KINDS:
            raise Unavailable(f"{ENV}={wanted!r}: expected one of {', '.join(KINDS)}")
        why = why_not(wanted)
        if why:
            raise Unavailable(f"{ENV}={wanted} cannot be used here: {why}")
        return wanted
    return next(kind for kind in KINDS if not why_not(kind))


def why_not(kind):
    """Why `kind` cannot work on this machine, or "" when it can."""
    if kind == "bubblewrap":
        return _bubblewrap_problem()
    if kind == "uid":
        if os.geteuid() != 0:
            return "only root can run code as another user"
        if not readable_by_others(python()):
            return f"other users cannot read the Python at {python()}"
        return ""
    return ""


def python():
    """The interpreter the sandbox runs: this one, without its virtual environment."""
    return os.path.realpath(sys.executable)


@functools.cache
def _bubblewrap_problem():
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


def readable_by_others(path):
    """True when the permission bits let any user read `path` and reach it."""
    path = os.path.realpath(path)
    try:
        mode = os.stat(path).st_mode
        if not mode & stat.S_IROTH:
            return False
        folder = path if stat.S_ISDIR(mode) else os.path.dirname(path)
        while True:
            if not os.stat(folder).st_mode & stat.S_IXOTH:
                return False
            parent = os.path.dirname(folder)
            if parent == folder:
                return True
            folder = parent
    except OSError:
        return False


def exposed(project=None):
    """The project's folder when any user can reach into it (its own bits, and every folder
    above it, let others search it), else None. Uid isolation needs it closed: it holds every
    lesson's answers, the tests, .git (whose history holds them all again) and the venv. One
    `chmod o-rwx` of the folder closes everything beneath it. (bubblewrap never shows the
    sandbox any of it.)"""
    folder = os.path.realpath(project or PROJECT)
    return folder if reachable_by_others(folder) else None


def reachable_by_others(folder):
    """True when any user may search `folder` and every folder above it."""
    while True:
        try:
            if not os.stat(folder).st_mode & stat.S_IXOTH:
                return False
        except OSError:
            return False
        parent = os.path.dirname(folder)
        if parent == folder:
            return True
        folder = parent


def layers(kind, landlock_abi=0, cgroups=False):
    """The walls in force around the student's code, in words, for the grade to record."""
    found = {"bubblewrap": ["namespaces (bubblewrap)"], "uid": ["a user of its own"],
             "none": []}[kind]
    if cgroups:
        found.append("cgroups")
    if landlock_abi:
        found.append(f"Landlock ABI {landlock_abi}")
    found.append("rlimits")
    return found


def exposed_submissions(folder):
    """The submissions in a batch `folder` that any user could read: in uid isolation, one
    student's code could read, and hand in, another's."""
    return [str(p) for pattern in ("*", "*/*", "*/*/*") for p in pathlib.Path(folder).glob(pattern)
            if p.is_file() and not p.is_symlink() and readable_by_others(p)]  # flat LMS files too


# -- starting the zygote ---------------------------------------------------------------------

def _bwrap_argv(bundle, submission, control_fd):
    argv = ["bwrap", "--unshare-all", "--unshare-user", "--disable-userns", "--die-with-parent",
            "--new-session", "--as-pid-1", "--cap-drop", "ALL"]
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

    def __init__(self, process, control, kind, cgroups, scratch, uid=None):
        self.process, self.control, self.kind = process, control, kind
        self.cgroups, self.scratch, self.uid = cgroups, scratch, uid

    def close(self):
        try:
            self.control.close()
        finally:
            if self.process.poll() is None:
                self.process.kill()
            self.process.wait()
            if self.uid is not None:  # whatever runs as the sandbox's user, wherever it went
                from .inside import reaper

                reaper.sweep(self.process.pid, self.uid)
                _remove_owned(self.uid)
            for group in self.cgroups:
                group.remove()
            if self.scratch:
                from .tidy import remove_tree

                remove_tree(self.scratch)


def launch(kind, bundle, submission, private, memory_mb=1024):
    """Start a zygote of `kind` for `submission` (the grader's private snapshot of it); the
    processes of the sandbox may hold twice `memory_mb` together, and their folders."""
    memory_bytes = (2 * memory_mb + SCRATCH_MB + 2 * TMP_MB) << 20
    ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
    cgroups, scratch, uid = [], None, None
    fd = theirs.fileno()
    options = {}
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
    preexec = (lambda: [group.join() for group in cgroups]) if cgroups else None
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
    from .tidy import remove_tree

    for folder in ("/tmp", "/dev/shm"):
        try:
            names = os.listdir(folder)
        except OSError:
            continue
        for name in names:
            path = os.path.join(folder, name)
            try:
                if os.lstat(path).st_uid == uid:
                    remove_tree(path)
            except OSError:
                continue


def processes_allowed(kind):
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

    def __init__(self, path):
        self.path = path

    @classmethod
    def make_all(cls, memory_bytes):
        settings = {"pids": {"pids.max": str(PROCESSES)}, "cpu": {"cpu.shares": "1024"},
                    "memory": {"memory.limit_in_bytes": str(memory_bytes)}}
        made = []
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

    def join(self):
        """Called in the child before exec: it, and all it starts, belong to this group."""
        with open(os.path.join(self.path, "cgroup.procs"), "w") as f:
            f.write(str(os.getpid()))

    def remove(self):
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
