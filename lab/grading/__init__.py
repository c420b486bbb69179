"""Grading: run a student's harness in a child process and judge what it sends back.

The student's code never runs in the grader's process. A child is forked for each test
(`sandbox`), imports the student's file from a scratch folder (`child`), and answers requests
with plain data only (`plain`): lists, dicts, strings, numbers. The graded tests (real pytest,
one file a lesson) compare that data in the grader's process, with the grader's own lab, and
say what went wrong in the lesson's words (`verdict`).
"""
