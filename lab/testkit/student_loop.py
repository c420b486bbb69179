"""An async harness in the student's process, stepped from the grader's side (lesson 15).

A graded test cannot run the student's event loop in the grader: the harness and its tools
must run together, in one loop, in the student's process. What the grader can do is hold the
loop's reins. StudentLoop is a lab.kit.jobs.Loop whose every step is one request: the
student's process runs its loop while it reads the run as a frontend does, stopped where this
side says (after k events, at an event's type), or for the turns asked for, and answers with
the events and what was raised, checked here. A cancellation, an abort or a steer is sent from
here while the reading goes on, when the desk hears a tool start. The tools the run starts
are the desk's: each call hands back a Work, made in the student's process, that only asks
the grader's Desk what to do each time it is resumed, so the tools' log is written here.

So the facts a lesson-15 test judges are what every other lesson's are: the harness's own
answers to the grader (the events it handed out, what it raised, and its record and
is_running, each asked for on its own), the grader's own account (the desk's log, the
requests its model received), and nothing worked out by code in the student's process on the
grader's behalf. A submission can still change the kit's code in its own process, but a tool
moves only when something there resumes its Work, and the desk refuses what no run could do
(`refuse_forged`).
"""

from __future__ import annotations

from typing import Any

from lab.kit.desk import SEAL
from lab.kit.jobs import Called, Reading
from lab.testkit.problems import StudentGarbled

# lesson 10's stand-in for a call with no result, word for word: the one result a step or note
# call may have that its tool did not hand over
INTERRUPTED = ("Tool call interrupted: no result was recorded. It may not have run, or may "
               "have run partly; check before repeating it.")
CLIP = 500  # characters kept of what the student's process says was raised


class StudentLoop:
    """The event loop of the student's process that `harness` (the harness module, a Remote)
    lives in: a Stepper made there, stepped from here (see the module's docstring)."""

    def __init__(self, harness: Any) -> None:
        self._harness = harness
        stepper = harness._lab_kit("Stepper")()
        # each a Remote of the stepper's bound method, read once: a step is then one request
        self._read, self._call = stepper.read, stepper.call
        self._turns, self._cancel = stepper.turns, stepper.cancel

    def read(self, run: Any, most: int | None = None, until: str | None = None,
             close: bool = True) -> Reading:
        said = self._read(run, most, until, close)
        if (type(said) is not dict or set(said) != {"events", "raised"}
                or type(said["events"]) is not list or not _words(said["raised"])):
            raise StudentGarbled("the harness's process answered a reading of the run with "
                                 f"something that is not one ({str(said)[:120]})")
        return Reading(said["events"], said["raised"] and said["raised"][:CLIP])

    def call(self, function: Any, *args: Any) -> Called:
        said = self._call(function, *args)
        if type(said) is not dict or len(said) != 1 or not (
                "value" in said or ("raised" in said and _words(said["raised"]))):
            raise StudentGarbled("the harness's process answered a call with something that "
                                 f"is not its outcome ({str(said)[:120]})")
        return Called(value=said.get("value"), raised=said.get("raised", "")[:CLIP] or None)

    def turns(self, count: int) -> None:
        self._turns(count)

    def cancel(self) -> None:
        self._cancel()

    def drop(self, run: Any) -> None:
        run._lab_forget()

    def work(self, step: Any) -> Any:
        """The step tool's Work for one call, made in the student's process around `step`
        (the desk's, here), handed back to it as the tool's answer."""
        return self._harness._lab_kit("Work")(step)


def _words(raised: Any) -> bool:
    """Whether `raised` is what a reading or call says was raised: None, or words."""
    return raised is None or type(raised) is str


def refuse_forged(faults: list[str]) -> None:
    """Raise when the desk refused something (Desk.faults): the job's facts cannot be judged."""
    if faults:
        raise StudentGarbled(
            "the lab's step tools were used as no run of them may be ("
            + "; ".join(faults[:3]) + "). Does the harness call one tool twice, resume what "
            "a tool handed back after it had finished, or start a tool once the run's tools "
            "are being stopped?")


def unsealed(facts: Any, given: dict[str, str], calls: list[dict[str, Any]]) -> Any:
    """`facts` of a graded job with every tool result the desk handed out shown as the lesson
    writes it, without its seal; StudentGarbled for any other result of a step or note call
    but INTERRUPTED. A harness can only record a tool's result once the tool has given it, so
    a result written before its tool finished (a placeholder, or the desk's words without
    their seal), or for a tool never run, is a forgery. Events are copied as they are handed
    out (stepping.py), so a message changed after it was announced shows as it was."""
    words = {}
    for call in calls:
        if call.get("name", "step") not in ("step", "note"):
            continue
        me = str(call["arguments"]["id"])
        words[me] = {f"step {me} done", f"noted {me}"} | (
            {str(call["arguments"]["fail"])} if "fail" in call["arguments"] else set())
    return _unseal(facts, given, words, 0)


def _unseal(value: Any, given: dict[str, str], words: dict[str, set[str]], depth: int) -> Any:
    if depth > 60:
        return value
    if isinstance(value, list):
        return [_unseal(item, given, words, depth + 1) for item in value]
    if not isinstance(value, dict):
        return value
    if value.get("role") == "toolResult" and isinstance(value.get("content"), str):
        call, content = str(value.get("tool_call_id")), value["content"]
        if given.get(call) == content:
            return {**value, "content": content.rsplit(f" {SEAL}", 1)[0]}
        if SEAL in content or call in words and content != INTERRUPTED:
            raise StudentGarbled(
                f"the record holds a result for {call} ({content[:80]!r}) that its tool never "
                "gave: a tool's result can be recorded only once the tool has handed it over")
    return {key: _unseal(item, given, words, depth + 1) for key, item in value.items()}
