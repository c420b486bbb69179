"""Grading: run a student's harness in a sandbox and judge, on the grader's side, what it does.

Three kinds of process, and the modules each runs:

host     lab_check's own process. `grade.grade` checks the file can be graded at all
         (`preflight`), snapshots it, decides the isolation (`isolation`) and the seed, and
         hands one `job.Job` to a worker (`supervise.run`); what comes back is reconciled with
         the manifest (`tally`, `manifest`) into a Grade (`results`), printed or written by
         `report` and `formats` (`escape` keeps any text writable). `batch` grades a class,
         `progress` shows it, `verify` proves a lesson's tests tell right answers from wrong
         ones; `selection`, `hints`, `difference` and `watch` serve the student's side.
worker   `supervise.main`: starts the sandbox (`sandbox.Zygote`), checks the import
         (`checks`), and runs the lesson's tests.py under real pytest with `plugin`, whose
         `student` fixture (`student`) asks the sandbox things and runs the lesson's scenarios
         here, on the student's module through proxies (`sandbox.Remote`). What goes wrong on
         the student's side becomes a sentence (`problems`); what the tests judge is said in the
         lesson's words (`verdict`). `tidy` removes what a grading leaves.
sandbox  `inside`, standard library only: the `zygote` forks a clean process for each test,
         which imports the harness and answers (`serve`), in frames (`wire`) of plain data and
         markers for everything else (`plain`); `reaper` and `linux` end every process a test
         started, where there is no pid namespace to do it.
"""
