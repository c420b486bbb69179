# base: finished
# args: --time-limit 1
# exit: 2
# says: timed out after 1 s in `<module>`
# says: Nothing could be graded
# Sleeps for ever while being imported, waking now and then.

import time

while True:
    time.sleep(0.01)
