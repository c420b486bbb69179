# base: finished
# args: --time-limit 3 -k "orphan or steering"
# exit: 0
# closing: 2 passed, 0 failed
# Starts, at import, a process in a session of its own and a double-forked daemon whose
# parent exits at once; both ignore SIGTERM and would sleep for ten minutes. Each carries the
# word lab-corpus-leftover in its command line, for the suite to look for afterwards.

import os
import subprocess
import sys

_SLEEPER = ("import signal, time; signal.signal(signal.SIGTERM, signal.SIG_IGN); "
            "time.sleep(600)")

subprocess.Popen([sys.executable, "-c", _SLEEPER, "lab-corpus-leftover-session"],
                 start_new_session=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

if os.fork() == 0:  # the classic daemon: fork, new session, fork again, the middle one exits
    try:
        os.setsid()
        if os.fork() == 0:
            os.execv(sys.executable, [sys.executable, "-c", _SLEEPER, "lab-corpus-leftover-daemon"])
    finally:
        os._exit(0)  # the middle one, or a grandchild whose exec failed: never back to import
