"""Grading: run a student's harness in a sandbox and judge, on the grader's side, what it does.

Three kinds of process; the folder a module is in says which it runs in:

lab/grader/          the host: lab_check's own process. `grade.grade` checks the file can be
                      graded at all (`preflight`), snapshots it, decides the isolation
                      (`isolation`) and the seed, reads the lesson once (`manifest`) and hands
                      one Job to a worker (`supervise.run`, or `supervise.Warm` for --watch);
                      what comes back is reconciled with the manifest (`reconcile`) into a Grade
                      (`results`), printed or written by `report` and `formats` (`escape`
                      keeps any text writable; `difference` and `notation` say what differed).
                      `batch` grades a class, `progress` shows it, `verify` proves a lesson's
                      tests tell right answers from wrong ones; `selection`, `hints` and
                      `watch` serve the student's side; `tidy` removes what a grading leaves.
                      `problems` and `verdict` are the words the lessons' tests fail in: the
                      worker runs those tests, and the host puts those words in the report.
lab/worker/   the worker: `main` builds the student bundle (`bundle`: lab/kit/,
                      lab/__init__.py, inside/ and damaged.py, copied whole), starts the sandbox
                      (`sandbox.Zygote`, through `launch`, which runs bwrap or a user of its
                      own as the host's `isolation` chose), checks the import (`checks`), and
                      runs the lesson's tests under real pytest with `plugin`, whose `student`
                      fixture (`student`) asks the sandbox things and runs the lesson's
                      scenarios here, on the student's module through proxies (`sandbox.Remote`).
lab/sandbox/   the sandbox (lab_inside in the bundle), standard library only: the
                      `zygote` forks a clean process for each test, which imports the harness
                      and answers (`serve`); `reaper` and `linux` end every process a test
                      started where there is no pid namespace to do it; `landlock` confines it.
lab/kit/          (beside grading) the lab's modules a student's code may import, which every
                      process loads and the sandbox holds (`lab.validate`, `lab.model`...): none
                      imports anything outside that folder but the standard library.

What crosses a boundary is defined in one module, `inside/protocol.py`, the one module of the
grading that each side imports for it: host -> worker the Job, worker -> host a Report (each
test under its name) or a Problem, worker <-> sandbox the zygote's Plan and control requests, a
test's requests, answers and callbacks.
"""
