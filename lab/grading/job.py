"""One grading, as data: what the host hands the worker, worked out once.

The host (lab_check's process) decides everything about a grading before any of it runs: the
private snapshot of the student's file, the lesson, which tests, the limits, the seed and the
isolation. The worker receives the Job as JSON and derives nothing from the command line.
"""

import json
from dataclasses import asdict, dataclass, field

from .sandbox import Limits


@dataclass(frozen=True)
class Job:
    snapshot: str            # the grader's private copy of the student's file
    lesson: str              # the lesson's folder
    tests: list              # test files to run (the lesson's own tests.py, or those named)
    isolation: str           # bubblewrap, uid or none (isolation.py)
    seed: int                # every variation of the tests comes from it
    select: str = ""         # a pytest -k expression, or "" for every test
    public: str = ""         # a folder of the host's for what anyone may read (the bundle):
                             # its path is on the zygote's command line, so not the private one
    limits: Limits = field(default_factory=Limits)

    def to_dict(self):
        return asdict(self)

    def to_json(self):
        return json.dumps(self.to_dict())

    @classmethod
    def from_dict(cls, data):
        return cls(**dict(data, limits=Limits(**data["limits"])))

    @classmethod
    def from_json(cls, text):
        return cls.from_dict(json.loads(text))
