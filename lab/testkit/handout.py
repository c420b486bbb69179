"""Whether an object of the student's hands out a copy of its state, or the state itself.

`handed_out(h, "messages")` makes the change a careless caller makes (it appends a message to
what `h.messages` handed out) and reads `h.messages` again. For a harness living in the
sandbox (a scenario's proxy) the change is made there, where the harness is; for a harness
imported in this process, here. The facts come back as plain data for a test to judge:

    kind      the type's name of what was handed out ("tuple", "list", ...)
    refused   the append's exception as "Type: message", or None when it went through
    before    the attribute before the change, as a list
    after     the attribute read again after it; equal to `before` when the harness kept
              its own state to itself

`expect_a_copy(facts, rule, given)` is the verdict a lesson's test gives on them.

The facts are reported by the student's process, so a submission that tampers with the code
reporting them could forge them, as with every fact only that process can see.
"""

from __future__ import annotations

from typing import Any

from lab.sandbox import handout
from lab.testkit.problems import StudentNotPlain
from lab.testkit.verdict import expect

SLIPPED = handout.SLIPPED  # the content of the message appended


def handed_out(owner: Any, name: str) -> dict[str, Any]:
    """The facts above, for owner.name."""
    remote = getattr(type(owner), "_lab_handed_out", None)
    facts = owner._lab_handed_out(name) if remote is not None else handout.handed_out(owner, name)
    if (type(facts) is not dict or type(facts.get("kind")) is not str
            or type(facts.get("before")) is not list or type(facts.get("after")) is not list
            or not (facts.get("refused") is None or type(facts["refused"]) is str)):
        raise StudentNotPlain(f"what {name} hands out could not be judged: the facts about it "
                              "came back malformed.")
    return {key: facts[key] for key in ("kind", "refused", "before", "after")}


def expect_a_copy(facts: dict[str, Any], rule: str, given: str) -> None:
    """Fail `rule` unless the attribute, read again after the caller's append, is what it was
    before: the object kept its state to itself."""
    expect(facts["after"] == facts["before"], rule,
           given=f"{given}; then a caller appended a message to what it handed out (a "
                 f"{facts['kind']})",
           expected=facts["before"], got=facts["after"],
           note="expected and got are the attribute, read before the caller's append and after")
