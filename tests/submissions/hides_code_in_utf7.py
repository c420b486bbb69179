# coding: utf-7
# base: none
# exit: 2
# says: declares an encoding other than UTF-8 on line 1
# says: a grader shows what it grades
# Read as UTF-8, as every editor shows it, the last line is one comment. Python, told by the
# first line that the file is UTF-7, decodes the plus-sign escape in it as a line break and
# runs the lesson's finished file as if it were this harness's own work.
# +AAo-import lab.course.lesson_files; exec(open(lab.course.lesson_files.lesson(10).finished).read())
