"""Which harness a lesson's examples run on, and swapping a piece of one for a single example.

The student's own harness.py is used once it does what the lesson builds; until then the
finished harness stands in, and the lesson says so. `pick_harness` makes that choice,
`with_repair` makes it again where the examples start to need lesson 10's repair,
`starter_harness` loads the file the lesson began from, `nearly_right` loads the finished
harness with a patch applied (the checkpoints' harnesses), and `patched` lends
a module a different function for the length of a `with` block.

In a student's copy of the lesson (an edition: no finished file, see lab.release) nothing
falls back to a finished harness, because there is none: the examples always run on the
student's harness.py (on the starter while harness.py does not even import), and where an
example needs the repair before the student has written it, `with_repair` lends the module
stand-ins that repair nothing, so the example shows what the student's code does (the
provider's refusal) instead of stopping on a missing name.

Files are loaded by path, each time afresh, so an edited harness.py is seen the next time the
choice is made, and an example that changes one module cannot reach another.
"""

import contextlib
import copy
import importlib.util
import os
import pathlib
import re
import sys
import types
from dataclasses import dataclass

from . import lessons
from .display import shape
from .messages import call, fail, forever, reply, say, text, tool_result as result_for, user
from .model import ScriptedModel
from .refusals import anthropic_error, openai_error
from .pick import Pick, shown
from .shell import Shell
from .validate import validate
from .workspace import Workspace

ENV = "LAB_HARNESS"  # names a harness file to use instead, e.g. in the project's own tests
# Where the repair is still missing in an edition, what stands in for it: no repair at all.
NOT_WRITTEN = "(INTERRUPTED is not written yet: fill the lower gap of harness.py)"


def pick_harness(lesson=10, environ=None, project=None):
    """The harness the lesson's examples should run on, as a Pick.

    If the environment names a file in LAB_HARNESS, that file, whatever it holds. Otherwise
    the project's top-level harness.py once it does the lesson's job (see READY: for lesson
    10 it repairs a dangling call, see `repair_problem`), else the lesson's finished harness. A harness.py that does not even import is not an
    error here: its error becomes the reason the finished harness is used. The module chosen
    is also installed as `harness` in sys.modules, so `import harness` gets the same one.
    """
    environ = os.environ if environ is None else environ
    project = pathlib.Path(project) if project is not None else lessons.PROJECT
    named = environ.get(ENV, "")
    if named:
        path = pathlib.Path(named).resolve()
        if not path.is_file():
            raise FileNotFoundError(f"{ENV}={named} names no file; point it at a harness file, "
                                    "e.g. lessons/10-poisoned-transcript/finished.py, or unset it")
        module = load_harness(path)
        problem = READY[lesson].check(module)
        chosen = Pick(module, path, f"{ENV} names it" +
                      (f" (it {READY[lesson].does_not} yet: {problem})" if problem else ""))
    else:
        chosen = _student_or_finished(project / "harness.py", lesson)
    sys.modules["harness"] = chosen.module
    return chosen


def with_repair(chosen, lesson=10):
    """`chosen` (a Pick) if its harness does the lesson's job (for lesson 10, it repairs a
    dangling call), else the finished harness, as a Pick whose reason says why. Installed as
    `harness` in sys.modules, like pick_harness.
    """
    ready = READY[lesson]
    problem = ready.check(chosen.module)
    if not problem:
        picked = Pick(chosen.module, chosen.path,
                      f"it {ready.does}, which the examples from here on need")
    elif lessons.lesson(lesson).is_edition:
        picked = Pick(_standing_in(chosen.module), chosen.path,
                      f"{shown(chosen.path)} {ready.does_not} yet ({problem}). The examples "
                      "from here on show what your code sends, which a provider refuses, until "
                      "you fill the gaps and run this cell again")
    else:
        path = lessons.lesson(lesson).finished
        picked = Pick(load_harness(path), path,
                      f"{shown(chosen.path)} {ready.does_not} yet ({problem}), "
                      f"and the examples from here on need {ready.needed}")
    sys.modules["harness"] = picked.module
    return picked


def starter_harness(lesson=10):
    """The harness the lesson starts from (its starter.py), as a module of its own named
    `harness_starter`: loading it changes nothing anyone else has imported."""
    return load_harness(lessons.lesson(lesson).starter, name="harness_starter")


def load_harness(path, name="harness"):
    """The Python file at `path`, run afresh as a module called `name`. Not put in
    sys.modules: whoever wants it importable decides that."""
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def nearly_right(path, lesson=None):
    """A lab's finished harness with one idea taken out: the patch at `path` (see lab.patches)
    applied to it, its gaps filled. The lab is `lesson`, or else the one the patch's own
    header names ("--- lesson 05's finished harness"), or else lesson 10. A module of its own,
    named after the file, not put in sys.modules; its MISSING is the idea the patch's
    description names on its "Missing:" line."""
    from . import patches, starter  # the instructor's side: a student's copy holds neither

    path = pathlib.Path(path)
    patch = path.read_text(encoding="utf-8")
    if lesson is None:
        named = re.search(r"^--- lesson (\w+)'s finished harness$", patch, re.MULTILINE)
        lesson = named.group(1) if named else 10
    base = starter.solve(lessons.lesson(lesson).finished.read_text(encoding="utf-8"))
    module = types.ModuleType(path.stem)
    module.__file__ = str(path)
    exec(compile(patches.apply(base, patch, name=str(path)), str(path), "exec"), module.__dict__)
    missing = re.search(r"^Missing: (\w+)$", patches.description(patch), re.MULTILINE)
    module.MISSING = missing.group(1) if missing else None
    return module


def loop_problem(module):
    """"" when `module` does lesson 03's job, else what it is missing, in a few words: its
    run_agent sees a job of two turns of calls through (one call, then two in one reply),
    answering every call in call order before the next request, and ends the run at the
    first reply that asks for nothing."""
    for name in ("tool_specs", "run_tool", "run_agent", "SYSTEM"):
        if not hasattr(module, name):
            return f"it has no {name}"
    step = {"name": "step", "description": "Do one step.",
            "parameters": {"type": "object", "properties": {}},
            "execute": lambda arguments: f"step {arguments.get('n')} done"}
    model = ScriptedModel([reply(text("First."), call("step", {"n": 1})),
                           reply(call("step", {"n": 2}), call("step", {"n": 3})),
                           reply(text("Done.")), reply(text("(asked once too often)"))])
    record = []
    try:
        module.run_agent(model, module.SYSTEM, record, [step], "Do three steps.")
    except Exception as error:  # half-written student code: how it fails is the answer
        return f"it raised {type(error).__name__}: {error}"
    problems = [p for r in model.calls for p in validate(r.messages)]
    if problems:
        return f"its run_agent sends a request a provider refuses: {problems[0]}"
    wanted = "U A[c1] R(c1) A[c2,c3] R(c2) R(c3) A"
    if shape(record) != wanted:
        return (f"its run_agent leaves the record {shape(record) or 'empty'} for a job of two "
                f"turns of calls, not {wanted}")
    return ""


def failure_problem(module):
    """"" when `module` does lesson 05's job, else what it is missing, in a few words: its
    run_agent stops a model that never stops asking after max_turns requests, recording the
    stop as a failed reply; it runs no call of a failed reply; and its context_for_model
    leaves an empty failure out of the request and the record as it was."""
    for name in ("tool_specs", "run_tool", "run_agent", "context_for_model", "SYSTEM"):
        if not hasattr(module, name):
            return f"it has no {name}"
    ran = []
    step = {"name": "step", "description": "Do one step.",
            "parameters": {"type": "object", "properties": {}},
            "execute": lambda arguments: ran.append(arguments) or "done"}
    asking = ScriptedModel([reply(call("step", {"n": n})) for n in range(1, 6)]
                           + [reply(text("(asked too often)"))])
    cut = ScriptedModel([fail("stream ended", text("Stepping."), call("step", {"n": 9})),
                         reply(text("(asked again after a failure)"))])
    record, cut_record = [], []
    try:
        module.run_agent(asking, module.SYSTEM, record, [step], "Go.", max_turns=2)
        module.run_agent(cut, module.SYSTEM, cut_record, [step], "Go.")
        failed = [user("Go."), fail("503 overloaded"), user("Again.")]
        untouched = copy.deepcopy(failed)
        view = list(module.context_for_model(failed))
    except Exception as error:  # half-written student code: how it fails is the answer
        return f"it raised {type(error).__name__}: {error}"
    last = record[-1] if record and isinstance(record[-1], dict) else {}
    if len(asking.calls) != 2 or last.get("stop_reason") != "error":
        return (f"its run_agent sent {len(asking.calls)} requests with max_turns=2 and ended the "
                f"record {shape(record[-1:]) or 'empty'}, not 2 requests and a stop")
    if len(cut.calls) != 1 or {"n": 9} in ran:
        return "its run_agent acts on a failed reply"
    if failed != untouched:
        return "its context_for_model changed the record it was given"
    if validate(view):
        return f"its context_for_model sends a request a provider refuses: {validate(view)[0]}"
    return ""


def conversation_problem(module):
    """"" when `module` does lesson 01's job, else what it is missing, in a few words: its
    run_agent, given two prompts and an empty record, keeps each prompt as typed and each reply
    whole as the assistant's own, sends the system prompt beside the whole conversation and in
    no message, and its text_of reads the words of a reply past a tool call."""
    for name in ("SYSTEM", "user_message", "text_of", "run_agent"):
        if not hasattr(module, name):
            return f"it has no {name}"
    model = ScriptedModel([reply(text("Nice to meet "), text("you, Ada.")),
                           reply(text("I called you Ada."))])
    record, prompts, system = [], ("My name is Ada.", "What did you just call me?"), "Be brief."
    try:
        for prompt in prompts:
            module.run_agent(model, system, record, prompt)
        words = module.text_of(reply(call("read", {"path": "a.py"}, id="c1"), text("Reading.")))
    except Exception as error:  # half-written student code: how it fails is the answer
        return f"it raised {type(error).__name__}: {error}"
    said = [user(prompts[0]), *model.replies[:1], user(prompts[1]), *model.replies[1:2]]
    if record != said:
        return (f"its run_agent keeps the record as {shape(record)}, not {shape(said)} with the "
                "prompts as typed and the replies as they came")
    if [r.system for r in model.calls] != [system, system] or model.calls[1].messages != said[:3]:
        return "its run_agent does not send the system prompt beside the whole conversation"
    if words != "Reading.":
        return "its text_of does not read the words of a reply past a tool call"
    return ""


def events_problem(module):
    """"" when `module` does lesson 07's job, else what it is missing, in a few words: its
    run_agent is a generator that hands out a job's events as they happen (walked away from at
    the first tool_execution_start, no tool has run and the record holds exactly what was
    announced) and pairs them to agent_end; and its FinalTextRenderer calls a run walked away
    from no success."""
    for name in ("run_agent", "SYSTEM", "FinalTextRenderer"):
        if not hasattr(module, name):
            return f"it has no {name}"
    ran = []
    step = {"name": "step", "description": "Do one step.",
            "parameters": {"type": "object", "properties": {}},
            "execute": lambda arguments: ran.append(arguments.get("n")) or "done"}
    model = ScriptedModel([reply(text("Two steps."), call("step", {"n": 1}), call("step", {"n": 2})),
                           reply(text("Done."))])
    record = []
    try:
        run = module.run_agent(model, module.SYSTEM, record, [step], "Do two steps.")
        taken = []
        for event in run:
            taken.append(event)
            if event.get("type") == "tool_execution_start":
                break
        told = [e["message"] for e in taken if e.get("type") == "message_end"]
        if ran or record != told:
            return (f"its run_agent, at the first tool_execution_start, has run {len(ran)} "
                    f"tools and recorded {shape(record) or 'nothing'} after announcing "
                    f"{shape(told) or 'nothing'}: events come after what they describe")
        rest = list(run)
        frontend = module.FinalTextRenderer(_Discard())
        for event in taken[:4]:
            frontend.render(event)
        walked_away = frontend.finish()
    except Exception as error:  # half-written student code: how it fails is the answer
        return f"it raised {type(error).__name__}: {error}"
    if not rest or rest[-1].get("type") != "agent_end":
        return "its run_agent does not end a run with agent_end"
    if walked_away is not False:
        return "its FinalTextRenderer calls a run walked away from a success"
    return ""


class _Discard:
    """A stream that keeps nothing: what a frontend writes while a check feeds it."""

    def write(self, text):
        return len(text)

    def flush(self):
        pass


def one_writer_problem(module):
    """"" when `module` does lesson 08's job, else what it is missing, in a few words: its
    Harness refuses a second prompt while a run is going, with RuntimeError on the call itself,
    and a run closed before its first event leaves it free for the next prompt."""
    for name in ("Harness", "SYSTEM"):
        if not hasattr(module, name):
            return f"it has no {name}"
    model = ScriptedModel([reply(text("First.")), reply(text("Second."))])
    try:
        h = module.Harness(model, module.SYSTEM, [])
        run = h.prompt("One.")
        try:
            h.prompt("Two.")
        except RuntimeError:
            pass
        else:
            return "its Harness lets a second prompt start while a run is going"
        run.close()
        if h.is_running:
            return "a run closed before its first event leaves its Harness running"
        for event in h.prompt("Three."):
            pass
    except Exception as error:  # half-written student code: how it fails is the answer
        return f"it raised {type(error).__name__}: {error}"
    if shape(h.messages) != "U A":
        return f"its Harness leaves the record {shape(h.messages) or 'empty'}, not U A"
    return ""


def repair_problem(module):
    """"" when `module` does lesson 10's job, else what it is missing, in a few words.

    The test is behaviour, not names alone: it must have INTERRUPTED and repair_tool_history,
    and its context_for_model, given a record that ends on a call nobody answered, must
    return a request a strict provider accepts, with INTERRUPTED standing in for the missing
    result, and leave the record as it was.
    """
    for name in ("INTERRUPTED", "repair_tool_history", "context_for_model"):
        if not hasattr(module, name):
            return f"it has no {name}"
    asked = call("bash", {"command": "pytest"}, id="c1")
    record = [user("Run the tests."), reply(text("Running them."), asked), user("Never mind.")]
    untouched = copy.deepcopy(record)
    try:
        view = list(module.context_for_model(record))
    except Exception as error:  # half-written student code: how it fails is the answer
        return f"its context_for_model raised {type(error).__name__}: {error}"
    if record != untouched:
        return "its context_for_model changed the record it was given"
    problems = validate(view)
    if problems:
        return f"its context_for_model sends a request a provider refuses: {problems[0]}"
    if not any(isinstance(m, dict) and m.get("role") == "toolResult"
               and m.get("tool_call_id") == "c1" and m.get("content") == module.INTERRUPTED
               for m in view):
        return "its context_for_model does not answer the dangling call with INTERRUPTED"
    return ""


def tool_problem(module):
    """"" when `module` does lesson 02's job, else what it is missing, in a few words: its
    tool_specs tells the model of a tool without its function, and its run_agent answers a
    read with a toolResult under the call's id, which the strict provider accepts."""
    for name in ("tool_specs", "run_tool", "run_agent", "make_read_tool", "SYSTEM"):
        if not hasattr(module, name):
            return f"it has no {name}"
    files = {"config.py": "PORT = 9090\n"}
    try:
        read = module.make_read_tool(Workspace(files))
        specs = module.tool_specs([read])
        model = ScriptedModel([reply(call("read", {"path": "config.py"})), reply(text("9090"))])
        record = []
        module.run_agent(model, module.SYSTEM, record, [read], "What port?")
    except Exception as error:  # half-written student code: how it fails is the answer
        return f"it raised {type(error).__name__}: {error}"
    problems = validate(record)
    if problems:
        return f"its run_agent sends a request a provider refuses: {problems[0]}"
    if not any(isinstance(m, dict) and m.get("role") == "toolResult"
               and m.get("tool_call_id") == "c1" and m.get("content") == files["config.py"]
               for m in record):
        return "its run_agent does not answer a call with a toolResult under the call's id"
    if any(not isinstance(spec, dict) or "execute" in spec for spec in specs):
        return "its tool_specs sends the model a tool's function"
    return ""


def budget_problem(module):
    """"" when `module` does lesson 06's job, else what it is missing, in a few words: its read
    tool, on a file of three lines with a budget of two, shows the first two and names offset=3
    on a last line; and its bash tool, with a budget of one line, keeps the output's last."""
    for name in ("fit_budget", "lines_of", "make_read_tool", "make_bash_tool", "run_tool"):
        if not hasattr(module, name):
            return f"it has no {name}"
    ws = Workspace({"log.txt": "one\ntwo\nthree\n"})
    try:
        read = module.make_read_tool(ws, max_lines=2)["execute"]({"path": "log.txt"})
        bash = module.make_bash_tool(Shell(ws), max_lines=1)["execute"]({"command": "cat log.txt"})
    except Exception as error:  # half-written student code: how it fails is the answer
        return f"it raised {type(error).__name__}: {error}"
    if not (isinstance(read, str) and read.startswith("one\ntwo\n") and "offset=3" in read
            and "three" not in read):
        return "its read tool does not stop at the budget and name the offset to read on from"
    if not (isinstance(bash, str) and bash.endswith("three\n") and "one" not in bash):
        return "its bash tool does not keep the end of a long output"
    return ""


def tool_error_problem(module):
    """"" when `module` does lesson 04's job, else what it is missing, in a few words: its
    run_tool answers a call to a tool that raises, and a call to a tool nobody has, each with
    an is_error result under the call's id instead of raising, its str_arg refuses a number
    where a string goes, and its run_agent returns the list of messages a run added (as
    lessons 01 to 06 have it; from lesson 07 on it is a generator of events)."""
    for name in ("run_tool", "str_arg", "run_agent", "make_read_tool", "SYSTEM"):
        if not hasattr(module, name):
            return f"it has no {name}"
    read = module.make_read_tool(Workspace({"config.py": "PORT = 9090\n"}))
    for asked in (call("read", {"path": "confg.py"}, id="c1"), call("search", {}, id="c2")):
        try:
            result = module.run_tool([read], asked)
        except Exception as error:  # half-written student code: how it fails is the answer
            return f"its run_tool raised {type(error).__name__}: {error}"
        if not (isinstance(result, dict) and result.get("tool_call_id") == asked["id"]
                and result.get("is_error") is True):
            return f"its run_tool does not answer {asked['name']}'s failure with is_error"
    try:
        module.str_arg({"path": 5}, "path")
    except Exception:  # the refusal is what we want to see
        pass
    else:
        return "its str_arg lets a number through where a string goes"
    model = ScriptedModel([reply(call("search", {})), reply(text("No such tool, then."))])
    try:
        added = module.run_agent(model, module.SYSTEM, [], [read], "Find it.")
    except Exception as error:  # half-written student code: how it fails is the answer
        return f"its run_agent raised {type(error).__name__}: {error}"
    if type(added) is not list:  # lesson 07 on: a generator of events
        return f"its run_agent returns a {type(added).__name__}, not the list of messages added"
    return ""


def power_problem(module):
    """"" when `module` does lesson 11's job, else what it is missing, in a few words: it has
    repair_history, save_message, load_record and Harness.resume; load_record sets a torn last
    line aside; and its context_for_model makes a history whose provider restarted its ids
    (call_0 twice) into a request a strict provider accepts, leaving the record as it was."""
    for name in ("repair_history", "save_message", "load_record", "context_for_model", "Harness"):
        if not hasattr(module, name):
            return f"it has no {name}"
    if not hasattr(module.Harness, "resume"):
        return "its Harness has no resume"
    first, again = call("read", {"path": "a"}, id="call_0"), call("read", {"path": "b"}, id="call_0")
    record = [user("Read a, then b."), reply(first), result_for(first, "A"), reply(again),
              result_for(again, "B"), user("Thanks.")]
    untouched = copy.deepcopy(record)
    try:
        view = list(module.context_for_model(record))
        loaded = module.load_record('{"role": "user", "content": "hi"}\n{"role": "us')
    except Exception as error:  # half-written student code: how it fails is the answer
        return f"it raised {type(error).__name__}: {error}"
    if record != untouched:
        return "its context_for_model changed the record it was given"
    problems = validate(view)
    if problems:
        return f"its context_for_model sends a request a provider refuses: {problems[0]}"
    if list(loaded.set_aside) != ['{"role": "us']:
        return "its load_record does not set a torn last line aside"


def refusal_problem(module):
    """"" when `module` does lesson 12's job, else what it is missing, in a few words: its
    classify reads a refusal's kind from the response (Anthropic's 529, OpenAI's 429 and its
    retry-after), and its Harness retries an overloaded request once, with the sleep it is
    given, recording one reply."""
    for name in ("classify", "RetryPolicy", "Retrying", "Harness"):
        if not hasattr(module, name):
            return f"it has no {name}"
    waits = []
    model = ScriptedModel([anthropic_error(529, "overloaded_error", "Overloaded"), say("Here.")])
    try:
        busy = module.classify(anthropic_error(529, "overloaded_error", "Overloaded"))
        slow = module.classify(openai_error(429, "Slow down.", "requests", "rate_limit_exceeded",
                                            headers={"retry-after": "20"}))
        h = module.Harness(model, module.SYSTEM, [], sleep=waits.append)
        for _ in h.prompt("Hello?"):
            pass
    except Exception as error:  # half-written student code: how it fails is the answer
        return f"it raised {type(error).__name__}: {error}"
    if busy.kind != "overloaded" or slow.kind != "rate_limited" or slow.retry_after != 20:
        return (f"its classify calls a 529 {busy.kind!r} and a 429 asking for 20 s "
                f"{slow.kind!r} ({slow.retry_after})")
    if shape(h.messages) != "U A" or len(waits) != 1:
        return f"one 529 and then an answer leave {shape(h.messages)} after {len(waits)} waits"
    return ""


def compaction_problem(module):
    """"" when `module` does lesson 13's job, else what it is missing, in a few words: six
    reads in a window of 400 tokens are all answered, no request over the window is sent, and
    the record keeps a summary of its own."""
    for name in ("safe_cuts", "choose_cut", "Harness", "SUMMARISE"):
        if not hasattr(module, name):
            return f"it has no {name}"
    ws = Workspace({f"n{k}.txt": f"the number {k * 7}, and a line to make it longer\n"
                    for k in range(6)})
    read = {"name": "read", "description": "Read a file.", "execute": lambda a: ws.read_text(a["path"]),
            "parameters": {"type": "object", "properties": {"path": {"type": "string"}},
                           "required": ["path"]}}

    def answer(request):
        last = request.messages[-1]
        if last["role"] == "user" and last["content"] == module.SUMMARISE:
            return say("Summary: the user is reading files.")
        if last["role"] == "user":
            return reply(call("read", {"path": last["content"].split()[-1]}))
        return say("Read it.")

    model = ScriptedModel([forever(answer)], window=400)
    try:
        h = module.Harness(model, module.SYSTEM, [read], window=400)
        for k in range(6):
            for _ in h.prompt(f"Read n{k}.txt"):
                pass
    except Exception as error:  # half-written student code: how it fails is the answer
        return f"it raised {type(error).__name__}: {error}"
    refused = [r for r in model.replies if r.get("response")]
    if refused or not any(m.get("role") == "summary" for m in h.messages):
        return (f"six reads in a window of 400 tokens leave {shape(h.messages)}, "
                f"{len(refused)} requests refused as too long")
    return ""


def adapter_problem(module):
    """"" when `module` does lesson 16's job, else what it is missing, in a few words: it
    must translate a view with a call, its result and a steer into a request each provider's
    validator accepts, and trim it without parting the call from its result."""
    for name in ("to_anthropic", "to_openai", "safe_trim"):
        if not hasattr(module, name):
            return f"it has no {name}"
    asked = call("bash", {"command": "pytest"}, id="c1")
    answered = {"role": "toolResult", "tool_call_id": "c1", "tool_name": "bash",
                "content": "3 passed", "is_error": False}
    view = [user("Run the tests."), reply(text("Running them."), asked), answered,
            user("Use spaces.")]
    try:
        for wire in ("anthropic", "openai"):
            problems = validate(getattr(module, f"to_{wire}")(view), wire=wire)
            if problems:
                return f"its to_{wire} sends a request that provider refuses: {problems[0]}"
        trimmed = module.safe_trim(view, 2)
    except Exception as error:  # half-written student code: how it fails is the answer
        return f"it raised {type(error).__name__}: {error}"
    if trimmed != view[1:]:
        return "its safe_trim(view, 2) does not back up to the call its result answers"
    return ""


def steering_problem(module):
    """"" when `module` does lesson 09's job, else what it is missing, in a few words: its
    Harness, given a steer typed while the second of three calls runs, must let the words in
    only once the whole batch has its results, at the top of the next turn."""
    if not hasattr(module, "Harness"):
        return "it has no Harness"
    slot = []

    def step(arguments):
        if arguments.get("n") == 2:
            slot[0].steer("Actually, use spaces.")
        return "done"

    tools = [{"name": "step", "description": "One step.",
              "parameters": {"type": "object", "properties": {"n": {"type": "integer"}}},
              "execute": step}]
    model = ScriptedModel([reply(*[call("step", {"n": n}) for n in (1, 2, 3)]), say("Done.")])
    try:
        h = module.Harness(model, getattr(module, "SYSTEM", ""), tools)
        slot.append(h)
        for _ in h.prompt("Do the three steps."):
            pass
        got = shape(list(h.messages))
    except Exception as error:  # half-written student code: how it fails is the answer
        return f"it raised {type(error).__name__}: {error}"
    wanted = "U A[c1,c2,c3] R(c1) R(c2) R(c3) U A"
    return "" if got == wanted else f"a steer typed mid-batch gives {got}, not {wanted}"


@dataclass(frozen=True)
class Ready:
    """What a lesson's examples need of a harness: what one that has it does, what one that
    lacks it does not do, what it is called (for the reasons a Pick gives), and the check
    that says which."""
    does: str
    does_not: str
    needed: str
    check: object


READY = {1: Ready("keeps who said what", "does not keep who said what", "a harness that keeps "
                  "who said what", conversation_problem),
         2: Ready("answers a tool call with a toolResult", "does not answer a tool call with a "
                  "toolResult", "a tool call answered", tool_problem),
         3: Ready("keeps going until the model stops asking", "does not keep going until the "
                  "model stops asking", "a loop that goes on until a reply asks for nothing",
                  loop_problem),
         4: Ready("answers a failed tool call with an is_error result",
                  "does not answer a failed tool call with an is_error result",
                  "a tool's failure answered", tool_error_problem),
         5: Ready("stops a runaway and survives a provider failure", "does not stop a "
                  "runaway and survive a provider failure", "a limit, a failed reply left alone, "
                  "and a view without the empty failure", failure_problem),
         6: Ready("keeps every tool result within a budget", "does not keep tool results "
                  "within a budget", "a read and a bash tool that keep a budget", budget_problem),
         7: Ready("reports each step as it happens", "does not report each step as it happens",
                  "a loop that hands out its events as they happen", events_problem),
         8: Ready("keeps one writer at a time", "does not keep one writer at a time",
                  "a harness that refuses a second prompt and frees itself when a run is closed",
                  one_writer_problem),
         9: Ready("lets a steer in at a safe point", "does not let a steer in at a safe point",
                  "steering at the top of a turn", steering_problem),
         10: Ready("repairs a dangling call", "does not repair a dangling call", "the repair",
                   repair_problem),
         11: Ready("picks a record up after a crash", "does not pick a record up after a crash",
                   "the record on disk and the repair", power_problem),
         12: Ready("classifies a refusal by what the provider sent",
                   "does not classify a refusal by what the provider sent",
                   "the classifier and the retry policy", refusal_problem),
         13: Ready("keeps a long conversation within the window",
                   "does not keep a long conversation within the window",
                   "the cut, the view of a compacted record, and compaction", compaction_problem),
         16: Ready("translates the view for both wires",
                   "does not translate the view for both wires", "the adapter", adapter_problem)}


@contextlib.contextmanager
def patched(module, **replacements):
    """Inside the block, `module` has the given names set to the given values; afterwards
    the old values are back, however the block ended. Only names the module already has can
    be swapped, so a typo fails at once instead of swapping nothing."""
    unknown = [name for name in replacements if not hasattr(module, name)]
    if unknown:
        raise AttributeError(f"{getattr(module, '__name__', module)} has no "
                             f"{', '.join(unknown)} to swap; it has "
                             f"{', '.join(n for n in dir(module) if not n.startswith('_'))}")
    saved = {name: getattr(module, name) for name in replacements}
    try:
        for name, value in replacements.items():
            setattr(module, name, value)
        yield module
    finally:
        for name, value in saved.items():
            setattr(module, name, value)


def _standing_in(module):
    """`module` with a stand-in for each piece of the repair it lacks: a repair that changes
    nothing (a new list of the same messages) and a placeholder for INTERRUPTED. The student's
    own context_for_model is left as it is: it is what the examples are about."""
    if not hasattr(module, "repair_tool_history"):
        module.repair_tool_history = _no_repair
    if not hasattr(module, "INTERRUPTED"):
        module.INTERRUPTED = NOT_WRITTEN
    return module


def _no_repair(messages):
    """Stands in for a repair_tool_history not written yet: the same messages, unrepaired."""
    return list(messages)


def _student_or_finished(path, lesson):
    chosen = lessons.lesson(lesson)
    if chosen.is_edition:
        return _student_or_starter(path, chosen)
    finished, ready = chosen.finished, READY[lesson]
    if not path.is_file():
        problem = f"there is no {path.name} at {path.parent}"
    else:
        try:
            module = load_harness(path)
        except Exception as error:  # the student's file, mid-edit: report it, use the finished one
            problem = f"{path.name} does not import: {type(error).__name__}: {error}"
        else:
            problem = ready.check(module)
            if not problem:
                return Pick(module, path, f"{path.name} {ready.does}: its gaps are filled")
            problem = f"{path.name} {ready.does_not} yet: {problem}"
    return Pick(load_harness(finished), finished,
                f"{problem}. Fill its gaps and run this cell again to use your own.")


def _student_or_starter(path, lesson):
    """In an edition: harness.py, whatever it does; the starter only while harness.py cannot
    be loaded at all, since the examples need some harness to run on."""
    if not path.is_file():
        problem = f"there is no {path.name} at {path.parent}"
    else:
        try:
            module = load_harness(path)
        except Exception as error:  # the student's file, mid-edit: report it, use the starter
            problem = f"{path.name} does not import: {type(error).__name__}: {error}"
        else:
            ready = READY[lesson.number]
            problem = ready.check(module)
            return Pick(module, path, f"{path.name} {ready.does}: its gaps are filled"
                        if not problem else f"it is your {path.name}, which {ready.does_not} "
                        f"yet ({problem}); fill its gaps and run this cell again")
    return Pick(load_harness(lesson.starter), lesson.starter,
                f"{problem}. The examples run on {lesson.starter.name}, the file you started "
                f"from, until {path.name} imports.")
