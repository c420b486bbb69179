"""The graded tests of lesson 02, "Prose is not protocol".

Run them with lab_check, never by importing your harness here: each test sends tools, calls
and prompts to your harness.py in a process of its own and judges the plain data that comes
back, and every request your harness sends goes to the grader's own scripted model.

    python lab/lab_check.py --harness harness.py --lesson 02

First the story of the lesson, as cards (the tools the model is told about, the result that
answers a call, two calls told apart by their ids); then two tests of code the lesson gives
you; last, the same rules on tools and calls made up by hypothesis. Every failure is said in
one notation (see lab.display.LEGEND): transcripts as shapes, with the first difference marked.
"""

import json
import string

from hypothesis import given, settings
from hypothesis import strategies as st

import lab
from lab.testkit import expect, objections

SPECS_ONLY = ("what the model is told about a tool is its name, its description and its "
              "parameters, and nothing else: the function is the harness's, and a function is "
              "not something a request can carry (it is not JSON).")
SPECS_WHOLE = ("tool_specs(tools) is, for each tool in order, exactly its name, description and "
               "parameters (the JSON schema that tells the model what arguments to send).")
A_RESULT = ("a call is answered by a toolResult message under the call's id, right after the "
            "reply that asked: not by a sentence in a user message. Prose is not protocol: the "
            "strict provider refuses a call with no toolResult.")
ID_AND_NAME = ("run_tool(tools, call) returns exactly {role: toolResult, tool_call_id: the "
               "call's id, tool_name: its name, content: what execute returned, is_error: "
               "False}.")
EXACTLY = ("the content of a result is exactly what the tool returned: the model reads a file's "
           "bytes as the file, so nothing is added around them.")
THE_NAMED_TOOL = ("a call runs the tool it names, once, with the call's own arguments, and no "
                  "other tool.")
TOLD_APART = ("two calls to one tool in one reply are two results, each under its own call's "
              "id, in call order: the id, not the tool's name, says which call a result answers.")
GOES_ON = ("after a tool was used the session goes on: the next prompt is answered too, and no "
           "request of the session is refused.")
NO_CALL = ("code the lesson gives you (run_agent): a reply that asks for nothing runs nothing; "
           "the system prompt goes with every request and is never stored in the record.")
GIVEN_TOOLS = ("code the lesson gives you (make_read_tool, make_write_tool, make_bash_tool): "
               "read returns a file, write replaces one and says so, bash returns what the "
               "command printed and reports a non-zero exit.")
ANY_CALLS = ("any reply's calls are answered one result a call, in call order, each under its "
             "call's id with its tool's name and exactly what that tool returned.")
ANY_SPECS = ("for any tools, tool_specs gives each tool's name, description and parameters, in "
             "order, and nothing else, and leaves the tools it was given as they were.")
ANY_RUN = "for any call, run_tool gives exactly the toolResult that answers it."

PORT_PROMPTS = ["What port does config.py set?"]


# -- inputs that differ from grading to grading ------------------------------------------------

def some_id(variation):
    """A call id as a provider writes one: random letters and digits after a provider's prefix."""
    alphabet = string.ascii_letters + string.digits
    prefix = variation.choice(["toolu_01", "call_", "fc_"])
    return prefix + "".join(variation.choice(alphabet) for _ in range(12))


def some_port(variation):
    return variation.randrange(1024, 65536)


def a_tool(name, description, parameters):
    """A tool as the lesson writes one; its execute is the grader's and says which ran."""
    return {"name": name, "description": description, "parameters": parameters,
            "execute": lambda arguments: f"{name} ran with {json.dumps(arguments, sort_keys=True)}"}


def schema(*names):
    return {"type": "object",
            "properties": {n: {"type": "string", "description": f"The {n}."} for n in names},
            "required": list(names)}


def three_tools(variation):
    """Three tools in an order that differs from grading to grading."""
    tools = [a_tool("read", "Read a text file.", schema("path")),
             a_tool("write", "Write a text file.", schema("path", "content")),
             a_tool("bash", "Run a command.", schema("command"))]
    variation.shuffle(tools)
    return tools


def spec_of(tool):
    return {"name": tool["name"], "description": tool["description"],
            "parameters": tool["parameters"]}


def result_for(call_id, name, content):
    return {"role": "toolResult", "tool_call_id": call_id, "tool_name": name,
            "content": content, "is_error": False}


def calls_of(record):
    return [block for m in record if m.get("role") == "assistant"
            for block in m.get("content", []) if block.get("type") == "toolCall"]


def expect_list(seen, rule):
    """Every run returned a list of the messages it added, as the lesson's run_agent does."""
    for number, added in enumerate(seen["returned"], 1):
        expect(type(added) is list, rule, expected="run_agent returns the list of messages it "
               "added to the record", got=f"run {number} returned {type(added).__name__}")


def expect_accepted(seen, rule):
    """No request of the session was refused by the strict provider."""
    for number, request in enumerate(seen["requests"], 1):
        problems = lab.validate(request)
        expect(not problems, rule, given=seen["record"], got=f"request {number}: "
               f"{lab.shape(request)}", note=objections(problems))


# -- the tools the model is told about ---------------------------------------------------------

def test_the_model_is_sent_no_function(student, variation):
    port = some_port(variation)
    seen = student.scenario("session", job="port", prompts=PORT_PROMPTS,
                            files={"config.py": f"PORT = {port}\n"},
                            seed=variation.randrange(10**9))

    expect_list(seen, SPECS_ONLY)
    for number, tools in enumerate(seen["tools_seen"], 1):
        for tool in tools:
            expect(isinstance(tool, dict) and "execute" not in tool, SPECS_ONLY,
                   expected="name, description and parameters",
                   got=f"request {number} told the model of a tool with the keys "
                       f"{sorted(tool) if isinstance(tool, dict) else type(tool).__name__}")
        try:
            json.dumps(tools)
        except (TypeError, ValueError) as error:
            expect(False, SPECS_ONLY, expected="tools a request can carry as JSON",
                   got=f"request {number}: json.dumps of its tools raised {error}")


def test_the_model_is_told_each_tools_name_description_and_parameters(student, variation):
    tools = three_tools(variation)

    told = student.value("tool_specs", tools)

    wanted = [spec_of(tool) for tool in tools]
    expect(told.value == wanted, SPECS_WHOLE, expected=json.dumps(wanted, indent=1),
           got=json.dumps(told.value, indent=1, default=lambda value: "<a function>"))


# -- the result that answers a call ------------------------------------------------------------

def test_a_result_is_a_tool_result_not_a_user_message(student, variation):
    port = some_port(variation)

    seen = student.scenario("session", job="port", prompts=PORT_PROMPTS,
                            files={"config.py": f"PORT = {port}\n"},
                            seed=variation.randrange(10**9))

    expect_list(seen, A_RESULT)
    expect_accepted(seen, A_RESULT)
    asked = (calls_of(seen["record"]) or [{"id": "?"}])[0]["id"]
    wanted = f"U A[{asked}] R({asked}) A"
    expect(lab.shape(seen["record"]) == wanted, A_RESULT, expected=wanted, got=seen["record"])
    answer = seen["record"][-1]
    words = "".join(b.get("text", "") for b in answer["content"])
    expect(words == f"config.py says: PORT = {port}", A_RESULT,
           expected=f"the model answers from the result: config.py says: PORT = {port}",
           got=words)


def test_the_result_carries_the_calls_id_and_the_tools_name(student, variation):
    tools = three_tools(variation)
    name = variation.choice(["read", "write", "bash"])
    arguments = {"path": f"notes{variation.randrange(100)}.md"}
    call = lab.call(name, arguments, id=some_id(variation))

    answered = student.value("run_tool", tools, call)

    wanted = result_for(call["id"], name, f"{name} ran with {json.dumps(arguments, sort_keys=True)}")
    expect(answered.value == wanted, ID_AND_NAME,
           given=f"a call to {name} under the id {call['id']}, arguments {json.dumps(arguments)}",
           expected=lab.show([wanted], clip=None),
           got=lab.show([answered.value], clip=None) if isinstance(answered.value, dict)
           else repr(answered.value))


def test_the_result_holds_exactly_what_the_tool_returned(student, variation):
    text = f"def main():\n\treturn {variation.randrange(100)}\n"

    seen = student.scenario("session", job="calls", prompts=["Show me main.py."],
                            calls=[["read", {"path": "main.py"}]], files={"main.py": text},
                            seed=variation.randrange(10**9))

    expect_list(seen, EXACTLY)
    results = [m for m in seen["record"] if m.get("role") == "toolResult"]
    expect(len(results) == 1 and results[0].get("content") == text, EXACTLY,
           expected=lab.show([result_for("<its id>", "read", text)], clip=None),
           got=lab.show(results, clip=None) if results else seen["record"])


def test_the_call_runs_the_tool_it_names_with_its_arguments(student, variation):
    path = f"notes{variation.randrange(100)}.md"
    calls = [["write", {"path": path, "content": "one\ntwo\n"}], ["bash", {"command": f"cat {path}"}],
             ["read", {"path": path}]]

    seen = student.scenario("session", job="calls", prompts=["Write it, then show it twice."],
                            calls=calls, seed=variation.randrange(10**9))

    ran = [[name, arguments] for name, arguments, _ in seen["ran"]]
    expect(ran == calls, THE_NAMED_TOOL, expected="\n".join(f"{n}({json.dumps(a)})" for n, a in calls),
           got="\n".join(f"{n}({json.dumps(a)})" for n, a in ran) or "no tool ran")
    expect_accepted(seen, THE_NAMED_TOOL)
    answered = [(m.get("tool_call_id"), m.get("tool_name")) for m in seen["record"]
                if m.get("role") == "toolResult"]
    asked = [(c["id"], c["name"]) for c in calls_of(seen["record"])]
    expect(answered == asked, THE_NAMED_TOOL, expected=f"results for {asked}", got=f"results for {answered}")


def test_two_reads_in_one_reply_are_told_apart_by_their_ids(student, variation):
    files = {"a.py": f"A = {variation.randrange(100)}\n", "b.py": f"B = {variation.randrange(100)}\n"}

    seen = student.scenario("session", job="calls", prompts=["Read a.py and b.py."],
                            calls=[["read", {"path": "a.py"}], ["read", {"path": "b.py"}]],
                            files=files, seed=variation.randrange(10**9))

    expect_list(seen, TOLD_APART)
    expect_accepted(seen, TOLD_APART)
    first, second = (calls_of(seen["record"]) + [{"id": "?"}, {"id": "?"}])[:2]
    wanted = seen["record"][:2] + [result_for(first["id"], "read", files["a.py"]),
                                   result_for(second["id"], "read", files["b.py"])]
    expect(seen["record"][:4] == wanted, TOLD_APART, expected=wanted, got=seen["record"][:4])


def test_the_session_goes_on_after_a_tool_was_used(student, variation):
    port = some_port(variation)

    seen = student.scenario("session", job="port", prompts=PORT_PROMPTS + ["Thanks. Anything else?"],
                            files={"config.py": f"PORT = {port}\n"},
                            seed=variation.randrange(10**9))

    expect_list(seen, GOES_ON)
    expect_accepted(seen, GOES_ON)
    expect(lab.shape(seen["record"]).endswith(" U A") and len(seen["requests"]) == 3, GOES_ON,
           expected="three requests, all accepted, the record ending U A", got=seen["record"])


# -- code the lesson gives you -----------------------------------------------------------------

def test_a_reply_with_no_call_runs_nothing(student, variation):
    prompts = [f"Hello {variation.randrange(100)}.", "Still there?"]

    seen = student.scenario("session", job="words", prompts=prompts)

    expect_list(seen, NO_CALL)
    expect(lab.shape(seen["record"]) == "U A U A" and seen["ran"] == [], NO_CALL,
           expected="U A U A, no tool run", got=f"{lab.shape(seen['record'])}, ran {seen['ran']}")
    expect(len(seen["systems"]) == 2 and all(s for s in seen["systems"]), NO_CALL,
           expected="two requests, each with the system prompt",
           got=f"{lab.counted(len(seen['systems']), 'request')}, systems {seen['systems']}")


def test_the_tools_the_lesson_gives_you_read_write_and_run(student, variation):
    text = f"PORT = {some_port(variation)}\n"
    calls = [["read", {"path": "config.py"}], ["write", {"path": "notes.md", "content": "hi\n"}],
             ["bash", {"command": "cat notes.md"}], ["bash", {"command": "pytest"}]]

    seen = student.scenario("given_tools", files={"config.py": text}, calls=calls)

    read, wrote, cat, missing = seen["outputs"]
    expect(read == text and seen["writes"] == [["notes.md", "hi\n"]] and isinstance(wrote, str)
           and cat == "hi\n" and "127" in missing, GIVEN_TOOLS,
           expected=f"read -> {text!r}; one write of notes.md; cat -> 'hi\\n'; pytest -> exit 127",
           got=f"read -> {read!r}; writes {seen['writes']}; cat -> {cat!r}; pytest -> {missing!r}")
    for name, tool in seen["described"].items():
        expect(tool.get("name") == name and tool.get("parameters", {}).get("type") == "object",
               GIVEN_TOOLS, expected=f"the {name} tool, its parameters a JSON schema of an object",
               got=json.dumps(tool))


# -- the same rules, on tools and calls hypothesis makes up ---------------------------------------

names = st.text(string.ascii_lowercase + "_", min_size=1, max_size=12)
words = st.text(string.ascii_letters + " .,:;'é→\n", max_size=40)
arguments = st.dictionaries(st.sampled_from(["path", "command", "content", "n"]),
                            st.one_of(words, st.integers(-5, 5)), max_size=3)


@st.composite
def tool_lists(draw):
    """Tools with distinct names, descriptions of any words, and schemas of some properties."""
    picked = draw(st.lists(names, min_size=0, max_size=5, unique=True))
    return [a_tool(name, draw(words), schema(*draw(st.lists(st.sampled_from(
        ["path", "command", "content"]), unique=True, max_size=3)))) for name in picked]


@given(tool_lists())
@settings(max_examples=30)
def test_specs_of_any_tools_are_exactly_what_the_model_may_see(student, tools):
    told = student.value("tool_specs", tools)

    wanted = [spec_of(tool) for tool in tools]
    expect(told.value == wanted, ANY_SPECS, expected=json.dumps(wanted),
           got=json.dumps(told.value, default=lambda value: "<a function>"))
    expect([spec_of(tool) for tool in told.args_after[0]] == wanted
           and all("execute" in tool for tool in told.args_after[0]), ANY_SPECS,
           expected="the tools as they were given, execute and all",
           got=json.dumps(told.args_after[0], default=lambda value: "<a function>"))


@given(st.sampled_from(["read", "write", "bash"]), arguments,
       st.text(string.ascii_letters + string.digits + "_:.-", min_size=1, max_size=24))
@settings(max_examples=30)
def test_run_tool_answers_any_call_with_exactly_its_tool_result(student, name, args, call_id):
    tools = [a_tool(n, f"The {n} tool.", schema("path")) for n in ("read", "write", "bash")]
    call = lab.call(name, args, id=call_id)

    answered = student.value("run_tool", tools, call)

    wanted = result_for(call_id, name, f"{name} ran with {json.dumps(args, sort_keys=True)}")
    expect(answered.value == wanted, ANY_RUN, expected=json.dumps(wanted),
           got=json.dumps(answered.value, default=repr))


@given(st.lists(st.one_of(
    st.tuples(st.just("read"), st.fixed_dictionaries({"path": st.sampled_from(["a.py", "b.py"])})),
    st.tuples(st.just("write"), st.fixed_dictionaries(
        {"path": st.sampled_from(["a.py", "c.py"]), "content": words})),
    st.tuples(st.just("bash"), st.fixed_dictionaries(
        {"command": st.sampled_from(["ls", "cat a.py", "echo hi", "pytest"])}))),
    min_size=1, max_size=4))
@settings(max_examples=25)
def test_any_reply_of_calls_is_answered_one_result_per_call_under_its_id(student, calls):
    calls = [[name, dict(args)] for name, args in calls]

    seen = student.scenario("session", job="calls", prompts=["Do these."], calls=calls,
                            files={"a.py": "A = 1\n", "b.py": "B = 2\n"}, seed=len(calls))

    expect_list(seen, ANY_CALLS)
    expect_accepted(seen, ANY_CALLS)
    asked = calls_of(seen["record"])
    wanted = seen["record"][:2] + [result_for(c["id"], name, output) for c, (name, _, output)
                                   in zip(asked, seen["ran"])] + seen["record"][-1:]
    expect(len(seen["ran"]) == len(calls) and seen["record"] == wanted, ANY_CALLS,
           given=f"one reply asking for {', '.join(n for n, _ in calls)}",
           expected=wanted, got=seen["record"])
