"""The worker: the process that runs one grading's tests under pytest (see lab/grading/__init__)."""
