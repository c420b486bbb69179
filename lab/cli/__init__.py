"""The commands of lab-check, one module a command, each run in the host's process.

lab/lab_check.py reads the command line and hands each command to its module here: `watch`
(grade on every save), `next_lab`, `reset`, `course_map`.
"""
