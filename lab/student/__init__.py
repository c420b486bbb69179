"""The student bundle: the lab's modules a student's code may import, and all that the sandbox
holds of the lab beside lab/__init__.py. Each imports only its neighbours here and the standard
library, and none knows an answer; the sandbox, Pyodide and the host all load them.

They are modules of `lab` itself, not of a `lab.student` package: lab/__init__.py adds this
folder to `lab.__path__`, so `lab.validate` is this folder's validate.py wherever it runs. Import
them as `lab.validate`; `lab.student.validate` would load the same file a second time, as a
module of its own whose classes are not lab's (an `isinstance` on `lab.Violation` would fail),
so that import stops here. To put a module in the sandbox, put it in this folder: nothing else
does (lab/grading/worker/bundle.py copies it whole).
"""

raise ImportError("lab.student is not a package: import its modules as lab's own "
                  "(lab.validate, lab.wire), as lab/__init__.py makes them")
