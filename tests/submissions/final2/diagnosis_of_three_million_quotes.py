# base: A
# A checkpoint's DIAGNOSIS names, for one harness, three million single quotes and one double
# quote: 3 MB of JSON (under the 4 MiB an answer may be), which Python's repr writes in 6 MB,
# each quote escaped. readiness put that repr, whole, in its sentence; the worker's frame was
# then larger than the host reads, and the host waited for the worker until the grading's
# ceiling (about 20 minutes) while the worker waited for the host to read the rest.
DIAGNOSIS = dict(DIAGNOSIS, auk="'" * 3_000_000 + '"')
