"""The worker: the process that runs one grading's tests under pytest (see lab/grader/__init__)."""
