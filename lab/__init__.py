"""The lab: everything a lesson's examples and tests need that is not the harness itself.

Builders for messages, a scripted model that refuses malformed requests like a provider, the
strict validator it uses (for lesson 16 also on Anthropic's and OpenAI's wire formats: see
lab.wire), ways to print a transcript, a driver for a run's events, and an in-memory workspace
with a small shell over it; for the lesson notebooks, SVG figures of transcripts (and
lab.wire_figure, one request in several formats) and the choice of which harness the examples
run on. Importing it has no side effects.
"""

from .display import shape, show
from .drive import drive
from .figures import Figure, Panel, draw
from .harnesses import patched, pick_harness, starter_harness, with_repair
from .messages import call, fail, forever, reply, say, text, tool_result, user
from .model import Request, ScriptedModel, ScriptExhausted
from .shell import Shell
from .validate import validate
from .wire import Violation
from .workspace import Workspace

__all__ = ["Request", "ScriptExhausted", "ScriptedModel", "Shell", "Workspace", "call", "drive",
           "fail", "forever", "reply", "say", "shape", "show", "text", "tool_result", "user",
           "validate", "Violation"]
# Lesson notebooks: figures drawn from transcripts, and which harness the examples run on.
__all__ += ["Figure", "Panel", "draw", "patched", "pick_harness", "starter_harness", "with_repair"]
