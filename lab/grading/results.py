"""A grade as data: what lab_check found, before it is printed or written in any format."""

from dataclasses import dataclass, field

VERSION = "lab_check 1.0"


@dataclass
class Outcome:
    """One graded test. `outcome` is "passed", "failed" (a verdict on the student's code) or
    "error" (the grader itself broke: not the student's fault)."""
    test: str            # the test function's name
    outcome: str
    message: str = ""
    printed: str = ""
    seconds: float = 0.0
    points: float = 1.0
    gap: str = ""
    visibility: str = "visible"

    @property
    def title(self):
        """The test's name as words: test_first_wins -> "first wins"."""
        return self.test.removeprefix("test_").replace("_", " ")

    @property
    def score(self):
        return self.points if self.outcome == "passed" else 0.0


@dataclass
class Grade:
    """Every test of one lesson on one harness file, or, when nothing could be graded, why."""
    lesson: int
    title: str
    harness: str
    sha256: str = ""
    tests: list = field(default_factory=list)
    problem: str = ""    # set when nothing could be graded: what is wrong, and what to do
    seconds: float = 0.0
    version: str = VERSION

    @property
    def passed(self):
        return sum(t.outcome == "passed" for t in self.tests)

    @property
    def failed(self):
        return sum(t.outcome != "passed" for t in self.tests)

    @property
    def score(self):
        return sum(t.score for t in self.tests)

    @property
    def max_score(self):
        return sum(t.points for t in self.tests)

    @property
    def exit_code(self):
        """0 every test passed, 1 some failed, 2 nothing could be graded, 3 the grader broke."""
        if self.problem:
            return 2
        if any(t.outcome == "error" for t in self.tests):
            return 3
        return 1 if self.failed else 0
