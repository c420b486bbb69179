"""The student kit: what a harness, a notebook and a lesson's examples import of the lab.

Message builders, the scripted model and the strict validator it refuses with, the ways to
print a transcript, the driver of a run's events, the workspace and its shell, the disk that
loses power, and the figures. Every process loads these (the course's machine, the grading's
sandbox, the browser's Pyodide): each imports only its neighbours here and the standard library,
and none knows an answer. `import lab` gives their public names; the sandbox holds this folder
and lab/__init__.py, and nothing else of the lab (lab/worker/bundle.py).
"""
