"""What lesson 14's notebook needs of a harness before its examples run on the reader's own
file (the contract is lab.course.readiness's)."""

DOES = "TO WRITE: what a ready harness does, e.g. says its words in capitals"
DOES_NOT = "TO WRITE: the same, denied"
NEEDED = "TO WRITE: what the examples need, as a noun"


def problem(harness):
    """"" when `harness` does lesson 14's job, else what it lacks, in a few words."""
    if not hasattr(harness, "first_gap"):
        return "it has no first_gap"
    try:
        said = harness.first_gap("refused")
    except Exception as error:  # half-written student code: how it fails is the answer
        return f"its first_gap raised {type(error).__name__}: {error}"
    return "" if said == "REFUSED" else f"its first_gap gives {said!r} for 'refused'"
