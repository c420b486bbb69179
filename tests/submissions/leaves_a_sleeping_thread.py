# base: finished
# args: --time-limit 5 -k "missing or orphan or steering"
# exit: 0
# closing: 3 passed, 0 failed
# A correct harness that starts, at import, a thread that is not a daemon and never ends.

import threading
import time


def _watch():
    while True:
        time.sleep(0.05)


threading.Thread(target=_watch, name="watcher").start()
