# base: A
# A checkpoint's DIAGNOSIS names a list where an idea's id goes. The student's copy checks the
# file before hand-in (lab.testkit.checkup.readiness, in the worker): looking a list up among the ids
# raised TypeError there, the worker died, and lab-check said the grader broke (exit 3).
DIAGNOSIS = dict(DIAGNOSIS, auk=["result_under_the_calls_id"])
