"""Grading: run a student's harness in a child process and judge what it sends back.

lab_check (lab/lab_check.py) calls `grade.grade`, which checks the file can be graded at all
(`preflight`), then runs the lesson's tests.py under real pytest in a supervised worker process
(`supervise`, with the pytest plugin in `plugin`). Each test forks a child (`sandbox` on the
grader's side, `child` on the student's), which imports a copy of the student's file from a
scratch folder, as a user of its own when the grader runs as root (`account`), and answers with
plain data only (`plain`, framed by `channel`); when the test ends every process it started is
killed (`reaper`, `linux`). What goes wrong on the student's side becomes a sentence
(`problems`); what the tests judge is said in the lesson's words (`verdict`, through the
`student` fixture). A grade is data (`results`, with points from `manifest`), printed or written
by `report` and `formats`; `batch` grades a class, `progress` shows it, and `verify` proves a
lesson's tests tell right answers from wrong ones.
"""
