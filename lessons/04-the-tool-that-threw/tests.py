"""The graded tests of lesson 04, "The tool that threw".

Run them with lab_check, never by importing your harness here: each test puts calls and
prompts to your harness.py in a process of its own, every request it sends goes to the
grader's own scripted model, and the plain data that comes back is judged here.

    python lab/lab_check.py --harness harness.py --lesson 04

First the story of the lesson, as cards (the file that is not there, the tool that raises,
the tool nobody has, a failure in the middle of a batch, the run that carries on, the
argument that is missing or of the wrong kind); then two tests of code the lesson gives you;
last, the same rules on calls made up by hypothesis. Every failure is said in one notation
(see lab.display.LEGEND): transcripts as shapes, with the first difference marked.
"""

import json

from hypothesis import given, settings
from hypothesis import strategies as st

import lab
from lab.testkit import StudentRaised
from lab.testkit import expect, objections

CARRIES_ON = ("a tool's failure is news for the model, not a crash: the file that is not there "
              "comes back as a toolResult with is_error true, the run goes on, and the model, "
              "told which files there are, asks again and answers.")
MARKED = ("a call whose tool raised is answered by a toolResult with is_error true: the model "
          "and everyone who reads the record must be able to tell a failure from an output.")
TOLD_WHAT = ("the content of an error result is what went wrong, in the exception's own words "
             "(its message), not a bare \"error\": the model can only act on what it is told.")
ANY_EXCEPTION = ("run_tool catches every Exception a tool raises, not only the kinds you "
                 "expected: a tool you did not write can fail in a way you did not foresee.")
NOBODY_HAS = ("a call to a tool nobody has is answered, not raised: a toolResult with is_error "
              "true whose content is \"Tool <name> not found\", and the run goes on.")
THE_BATCH = ("one failure in a batch stops nothing: every call of the reply gets exactly one "
             "result, in call order, the failed one marked is_error, the others run as asked.")
ASKED_AGAIN = ("after a failure the model is asked again, with the error in the request, and "
               "what it asks for next is run: whether to try again, or stop, is the model's call.")
MISSING = ("a missing argument is named: str_arg raises ValueError(\"<name> must be a string\"), "
           "so the model reads \"path must be a string\", not a KeyError's bare 'path'.")
NOT_A_STRING = ("str_arg(arguments, name) returns the value when it is a str and otherwise "
                "raises, saying \"<name> must be a string\": a number where a path goes is "
                "refused, not converted into a file name the model never wrote.")
INT_DEFAULT = ("int_arg(arguments, name, default) returns the default only when the argument "
               "is left out (or null); a value of the wrong kind is refused, saying \"<name> "
               "must be an integer\", never quietly replaced by the default.")
INT_KIND = ("int_arg refuses what is not a whole number, saying \"<name> must be an integer\": "
            "a string of digits, a float, and true (which Python counts as 1).")
EXIT_CODE = ("code the lesson gives you (make_bash_tool): a command that exits non-zero has "
             "still run, so its result is not an error; the output says the exit code.")
WORKS = ("code the lesson gives you: a call whose tool works is answered as in lesson 03, with "
         "exactly what the tool returned and is_error false.")
ANY_CALL = ("for any call (a tool that works, one that raises, a name nobody has, arguments "
            "missing or of the wrong kind) run_tool returns exactly one toolResult under the "
            "call's id and name, with is_error true exactly when the call could not be done.")
ANY_BATCH = ("for any batch of calls, some of which fail, every call gets exactly one result in "
             "call order, every request is accepted, and the run ends on the model's words.")


# -- inputs that differ from grading to grading ------------------------------------------------

FILES = ["config.py", "main.py", "notes.md", "setup.cfg", "app.py"]


def some_files(variation):
    """Two to four files, one of them config.py, with a port that differs every grading."""
    names = ["config.py"] + variation.sample(FILES[1:], variation.randint(1, 3))
    return {name: (f"PORT = {variation.randrange(1024, 65536)}\n" if name == "config.py"
                   else f"# {name}\n") for name in names}


def some_failure(variation):
    return variation.choice(["disk full", "quota exceeded", "connection reset by peer",
                             "permission denied: /srv"]) + f" (code {variation.randrange(1000)})"


def a_call(name, arguments, variation):
    return lab.call(name, arguments, id=f"call_{variation.randrange(10**6):06d}")


def results_of(record):
    return [m for m in record if m.get("role") == "toolResult"]


def calls_of(record):
    return [block for m in record if m.get("role") == "assistant"
            for block in m.get("content", []) if block.get("type") == "toolCall"]


def expect_alive(seen, rule):
    """The session did not die on a tool, and every run returned a list."""
    expect(seen["crashed"] is None, rule, given=seen["record"] or None,
           expected="the run goes on", got=f"the run died: {seen['crashed']}")
    for number, added in enumerate(seen["returned"], 1):
        expect(type(added) is list, rule, expected="run_agent returns the list of messages it "
               "added to the record", got=f"run {number} returned {type(added).__name__}")


def expect_accepted(seen, rule):
    for number, request in enumerate(seen["requests"], 1):
        problems = lab.validate(request)
        expect(not problems, rule, given=seen["record"], got=f"request {number}: "
               f"{lab.shape(request)}", note=objections(problems))


def one_result(student, call, variation, **more):
    """run_tool on `call`, with the student's tools and the grader's deploy."""
    return student.scenario("tool_call", call=call, **more)["result"]


def expect_result(result, call, rule, is_error):
    expect(isinstance(result, dict) and result.get("role") == "toolResult"
           and result.get("tool_call_id") == call["id"] and result.get("tool_name") == call["name"]
           and result.get("is_error") is is_error and isinstance(result.get("content"), str),
           rule, given=f"{call['name']}({json.dumps(call['arguments'])}) under the id {call['id']}",
           expected=f"a toolResult for {call['id']}, tool_name {call['name']}, content a string, "
                    f"is_error {is_error}",
           got=lab.show([result], clip=None) if isinstance(result, dict) else repr(result))


def raised_by(student, name, *args):
    """What name(*args) did in the student's process: ("returned", value) or ("raised",
    the exception's last line). A function that raises ends its process; the next request
    gets a fresh one."""
    try:
        return "returned", student.value(name, *args).value
    except StudentRaised as problem:
        student.restart()
        return "raised", problem.explanation


# -- the file that is not there ----------------------------------------------------------------

def test_a_file_that_is_not_there_is_an_error_the_model_can_act_on(student, variation):
    files = some_files(variation)

    seen = student.scenario("session", job="typo", prompts=["What port does config.py set?",
                                                            "Thanks."],
                            files=files, seed=variation.randrange(10**9))

    expect_alive(seen, CARRIES_ON)
    expect_accepted(seen, CARRIES_ON)
    first = (results_of(seen["record"]) or [{}])[0]
    expect(first.get("is_error") is True and "confg.py" in str(first.get("content")), CARRIES_ON,
           expected="an is_error result naming confg.py, the file that is not there",
           got=lab.show([first], clip=None) if first else seen["record"])
    answer = next((m for m in seen["record"] if m.get("role") == "assistant"
                   and "It says" in "".join(b.get("text", "") for b in m["content"])), None)
    expect(answer is not None and files["config.py"].strip() in answer["content"][0]["text"],
           CARRIES_ON, expected=f"the model reads config.py next and answers: It says: "
           f"{files['config.py'].strip()}", got=seen["record"])


# -- the tool that raises ----------------------------------------------------------------------

def test_a_failed_call_is_marked_is_error(student, variation):
    call = a_call("deploy", {"fail": True}, variation)

    result = one_result(student, call, variation, failure=some_failure(variation))

    expect_result(result, call, MARKED, is_error=True)


def test_the_model_is_told_what_went_wrong(student, variation):
    failure = some_failure(variation)
    call = a_call("deploy", {"fail": True}, variation)

    result = one_result(student, call, variation, failure=failure)

    expect(isinstance(result, dict) and failure in str(result.get("content")), TOLD_WHAT,
           given=f"deploy raises RuntimeError({failure!r})",
           expected=f"content that holds {failure!r}",
           got=lab.show([result], clip=None) if isinstance(result, dict) else repr(result))


def test_any_exception_a_tool_raises_is_caught(student, variation):
    failure = some_failure(variation)

    seen = student.scenario("session", job="batch", prompts=["Deploy it."], failure=failure,
                            calls=[["deploy", {"fail": True}]], seed=variation.randrange(10**9))

    expect_alive(seen, ANY_EXCEPTION)
    expect_accepted(seen, ANY_EXCEPTION)
    expect(lab.shape(seen["record"]).endswith("A") and len(results_of(seen["record"])) == 1,
           ANY_EXCEPTION, expected="U A[call] R(call) A", got=seen["record"])


# -- the tool nobody has -----------------------------------------------------------------------

def test_a_tool_nobody_has_is_answered_with_an_error(student, variation):
    name = variation.choice(["search", "grep_files", "run_tests", "edit"])
    call = a_call(name, {"query": "PORT"}, variation)

    seen = student.scenario("session", job="batch", prompts=["Find the port."],
                            calls=[[name, {"query": "PORT"}]], seed=variation.randrange(10**9))
    result = one_result(student, call, variation)

    expect_alive(seen, NOBODY_HAS)
    expect_accepted(seen, NOBODY_HAS)
    expect_result(result, call, NOBODY_HAS, is_error=True)
    expect(result["content"] == f"Tool {name} not found", NOBODY_HAS,
           expected=f"Tool {name} not found", got=result["content"])


# -- a failure in a batch, and what comes after ------------------------------------------------

def test_one_failure_in_a_batch_leaves_a_result_for_every_call(student, variation):
    files = some_files(variation)
    calls = [["read", {"path": "config.py"}], ["deploy", {"fail": True}],
             ["write", {"path": "NOTES.md", "content": "deployed?\n"}]]
    variation.shuffle(calls)

    seen = student.scenario("session", job="batch", prompts=["Read, deploy, note."], files=files,
                            calls=calls, seed=variation.randrange(10**9))

    expect_alive(seen, THE_BATCH)
    expect_accepted(seen, THE_BATCH)
    asked = calls_of(seen["record"])
    answered = [(m["tool_call_id"], m["is_error"]) for m in results_of(seen["record"])]
    wanted = [(c["id"], c["name"] == "deploy") for c in asked]
    expect(answered == wanted, THE_BATCH, expected=f"results (id, is_error): {wanted}",
           got=f"results (id, is_error): {answered}")
    expect(seen["writes"] == [["NOTES.md", "deployed?\n"]], THE_BATCH,
           expected="the write after the failure still done", got=f"writes: {seen['writes']}")


def test_the_model_is_asked_again_after_a_failure(student, variation):
    failure = some_failure(variation)

    seen = student.scenario("session", job="recover", prompts=["Deploy it.", "Thanks."],
                            failure=failure, seed=variation.randrange(10**9))

    expect_alive(seen, ASKED_AGAIN)
    expect_accepted(seen, ASKED_AGAIN)
    expect([name for name, _ in seen["ran"]] == ["deploy", "deploy"], ASKED_AGAIN,
           expected="deploy failed, the model was told, and its second deploy ran",
           got=f"ran: {seen['ran']}; the record: {lab.shape(seen['record'])}")
    expect(sum(m.get("role") == "assistant" for m in seen["record"]) == 4, ASKED_AGAIN,
           expected="U A[1] R(1) A[2] R(2) A U A", got=seen["record"])


# -- the argument that is missing or of the wrong kind ------------------------------------------

def test_a_missing_argument_is_named_in_the_error(student, variation):
    name, arguments, missing = variation.choice([("read", {}, "path"),
                                                 ("write", {"path": "a.md"}, "content"),
                                                 ("bash", {"cmd": "ls"}, "command")])
    call = a_call(name, arguments, variation)

    result = one_result(student, call, variation)

    expect_result(result, call, MISSING, is_error=True)
    expect(f"{missing} must be a string" in result["content"], MISSING,
           expected=f"content saying {missing} must be a string", got=result["content"])


def test_str_arg_refuses_a_value_that_is_not_a_string(student, variation):
    name = variation.choice(["path", "command", "content"])
    text = f"notes{variation.randrange(100)}.md"

    kept = raised_by(student, "str_arg", {name: text}, name)
    refusals = [raised_by(student, "str_arg", {name: bad}, name)
                for bad in (variation.randrange(1, 100), [text], None)]

    expect(kept == ("returned", text), NOT_A_STRING, expected=f"str_arg gives back {text!r}",
           got=f"it {kept[0]} {kept[1]!r}")
    for bad, (what, said) in zip(("a number", "a list", "null"), refusals):
        expect(what == "raised" and f"{name} must be a string" in said, NOT_A_STRING,
               given=f"{name} is {bad}", expected=f"raises, saying {name} must be a string",
               got=f"it {what} {said!r}")


def test_int_arg_gives_the_default_only_when_the_argument_is_left_out(student, variation):
    default, given_value = variation.randrange(1, 50), variation.randrange(50, 100)

    outcomes = {"left out": raised_by(student, "int_arg", {}, "limit", default),
                "null": raised_by(student, "int_arg", {"limit": None}, "limit", default),
                "given": raised_by(student, "int_arg", {"limit": given_value}, "limit", default),
                "a word": raised_by(student, "int_arg", {"limit": "all"}, "limit", default)}

    wanted = {"left out": ("returned", default), "null": ("returned", default),
              "given": ("returned", given_value)}
    for case, outcome in wanted.items():
        expect(outcomes[case] == outcome, INT_DEFAULT, given=f"limit {case}, default {default}",
               expected=f"it returned {outcome[1]!r}", got=f"it {outcomes[case][0]} "
               f"{outcomes[case][1]!r}")
    what, said = outcomes["a word"]
    expect(what == "raised" and "limit must be an integer" in said, INT_DEFAULT,
           given=f'limit is "all", default {default}',
           expected="raises, saying limit must be an integer", got=f"it {what} {said!r}")


def test_int_arg_refuses_true_and_strings_of_digits(student, variation):
    number = variation.randrange(2, 100)

    for bad in (True, str(number), number + 0.5):
        what, said = raised_by(student, "int_arg", {"offset": bad}, "offset", 1)

        expect(what == "raised" and "offset must be an integer" in said, INT_KIND,
               given=f"offset is {json.dumps(bad)}",
               expected="raises, saying offset must be an integer", got=f"it {what} {said!r}")


# -- code the lesson gives you -----------------------------------------------------------------

def test_a_command_that_exits_non_zero_is_not_a_tool_error(student, variation):
    missing = f"absent{variation.randrange(100)}.py"
    call = a_call("bash", {"command": f"cat {missing}"}, variation)

    result = one_result(student, call, variation)

    expect_result(result, call, EXIT_CODE, is_error=False)
    expect(missing in result["content"] and "1" in result["content"], EXIT_CODE,
           expected=f"what cat said about {missing}, and exit code 1", got=result["content"])


def test_a_tool_that_works_is_answered_as_in_lesson_03(student, variation):
    files = some_files(variation)
    call = a_call("read", {"path": "config.py"}, variation)

    result = one_result(student, call, variation, files=files)

    expect_result(result, call, WORKS, is_error=False)
    expect(result["content"] == files["config.py"], WORKS, expected=files["config.py"],
           got=result["content"])


# -- the same rules, on calls hypothesis makes up -----------------------------------------------

values = st.one_of(st.sampled_from(["config.py", "missing.py", "ls", "cat config.py", "pytest"]),
                   st.integers(-3, 3), st.booleans(), st.none(), st.lists(st.integers(), max_size=2))
arguments = st.dictionaries(st.sampled_from(["path", "content", "command", "fail"]), values,
                            max_size=3)
names = st.sampled_from(["read", "write", "bash", "deploy", "search", "Read"])


def expected_failure(name, args):
    """Whether the call cannot be done, worked out from the grader's own knowledge of the
    tools: which names exist, what each needs, and which file is there."""
    if name == "deploy":
        return bool(args.get("fail"))
    if name not in ("read", "write", "bash"):
        return True
    needs = {"read": ["path"], "write": ["path", "content"], "bash": ["command"]}[name]
    if not all(isinstance(args.get(key), str) for key in needs):
        return True
    return name == "read" and args["path"] != "config.py"


@given(names, arguments, st.text("abcdefghij0123456789_", min_size=1, max_size=12))
@settings(max_examples=25)
def test_run_tool_answers_any_call_with_exactly_one_result(student, name, args, call_id):
    call = lab.call(name, args, id=call_id)

    result = student.scenario("tool_call", call=call)["result"]

    expect_result(result, call, ANY_CALL, is_error=expected_failure(name, args))


@given(st.lists(st.tuples(names, arguments), min_size=1, max_size=4))
@settings(max_examples=15)
def test_any_batch_with_failures_is_answered_one_result_per_call(student, batch):
    calls = [[name, dict(args)] for name, args in batch]

    seen = student.scenario("session", job="batch", prompts=["Do these."], calls=calls,
                            seed=len(calls))

    expect_alive(seen, ANY_BATCH)
    expect_accepted(seen, ANY_BATCH)
    answered = [(m["tool_call_id"], m["tool_name"], m["is_error"]) for m in results_of(seen["record"])]
    wanted = [(c["id"], c["name"], expected_failure(c["name"], c["arguments"]))
              for c in calls_of(seen["record"])]
    expect(len(wanted) == len(calls) and answered == wanted, ANY_BATCH,
           given=f"one reply asking for {', '.join(n for n, _ in calls)}",
           expected=f"results (id, tool, is_error): {wanted}",
           got=f"results (id, tool, is_error): {answered}")
    expect(lab.shape(seen["record"]).endswith(") A"), ANY_BATCH, expected="the model's words last",
           got=seen["record"])
