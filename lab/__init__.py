"""The lab: everything a lesson's examples and tests need that is not the harness itself.

Builders for messages, a scripted model that refuses malformed requests like a provider (and
names its calls as one does), the strict validator it uses (for lesson 16 also on Anthropic's
and OpenAI's wire formats: see lab.kit.wire), ways to print a transcript, a driver for a run's
events, an in-memory workspace with a small shell over it, and a disk that can lose power at
any byte, and a provider's refusal as it sends it (status, headers, body: lab.kit.refusals);
for the lesson notebooks, SVG figures of transcripts (and lab.kit.wire_figure, one
request in several formats). Which harness a notebook's examples run on is not here: a notebook
imports pick_harness and its kin from lab.notebook.harnesses, which knows where a lesson's files
are (a graded harness's sandbox holds none of them). For
the checkpoints (A and B), lab.testkit.clinic runs a case written as plain data on a harness, lab.testkit.rules
judges what it did, and lab.testkit.checkup grades a student's cases and diagnoses; for lesson 16, lab.notebook.loopback serves a provider's HTTP API on 127.0.0.1 and
lab.notebook.sdk's models talk to it (or to the real API) through the official SDKs (import them by
name). Importing it has no side effects.

The names imported here come from lab/kit/, the package that is all the sandbox holds of the
lab (with this file), in the sandbox and in the browser alike. The rest of lab/ stays on the course's machine.
"""

from lab.kit.counting import counted
from lab.kit.disk import Disk, DiskFile, PowerCut
from lab.kit.display import shape, show
from lab.kit.drive import drive
from lab.kit.figures import Figure, Panel, draw
from lab.kit.desk import Desk, note_tool, step_tool
from lab.kit.jobs import run_job, run_twice, run_unstarted
from lab.kit.ids import empty_ids, numbered, random_ids, restarting_ids
from lab.kit.messages import call, fail, forever, reply, say, text, tool_result, user
from lab.kit.model import Request, ScriptedModel, ScriptExhausted
from lab.kit.refusals import anthropic_error, openai_error, too_long
from lab.kit.window import request_tokens, tokens
from lab.kit.shell import Shell
from lab.kit.validate import validate
from lab.kit.wire import Violation
from lab.kit.workspace import Workspace

__all__ = ["Request", "ScriptExhausted", "ScriptedModel", "Shell", "Workspace", "call", "counted",
           "drive", "fail", "forever", "reply", "say", "shape", "show", "text", "tool_result", "user",
           "validate", "Violation"]
# Lesson 11: a disk that can lose power, and models that name their calls as providers do.
__all__ += ["Disk", "DiskFile", "PowerCut", "empty_ids", "numbered", "random_ids", "restarting_ids"]
# Lesson 12: refusals as the providers send them (status, headers, body).
__all__ += ["anthropic_error", "openai_error", "too_long"]
# Lesson 13: the lab's token counter (a model with a window refuses what it counts too big).
__all__ += ["request_tokens", "tokens"]
# Lesson 15: async tools that wait for each other, and a job read as a frontend reads a run.
__all__ += ["Desk", "note_tool", "run_job", "run_twice", "run_unstarted", "step_tool"]
# Lesson notebooks: figures drawn from transcripts.
__all__ += ["Figure", "Panel", "draw"]

# Which harness a notebook's examples run on (lab.notebook.harnesses), once reached from here.
_MOVED = ("patched", "pick_harness", "starter_harness", "with_repair")


def __getattr__(name: str) -> object:
    """A notebook saved before the helpers moved asks for lab.pick_harness: say where it is."""
    if name in _MOVED:
        raise AttributeError(f"lab.{name} is now lab.notebook.harnesses.{name}: write "
                             f"`from lab.notebook.harnesses import {name}` and call {name}(...)")
    raise AttributeError(f"module 'lab' has no attribute {name!r}")
