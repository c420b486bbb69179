"""Lesson 16, "the adapter": its tests hold (lab_check --verify 16), and what the official SDKs'
request types would have caught of the lesson's wrong answers, had they been the only check.

The SDK check reads the adapters' output with pydantic, against the TypedDicts the `anthropic`
and `openai` packages declare for a request's messages (anthropic.types.MessageParam,
openai.types.chat.ChatCompletionMessageParam). No request is sent anywhere. Types describe
fields, not the pairing between messages, so they catch one of the five mistakes; the lesson's
validator and scripted models catch all five (verify proves it).
"""

import re
import subprocess
import sys
import types

import nbformat
import pytest

import lab
from lab import course, lessons, notebook
import notebooks
from conftest import PROJECT, load_harness
from notebooks import printed

pydantic = pytest.importorskip("pydantic", reason="the SDK checks need the test extra")
anthropic_types = pytest.importorskip("anthropic.types")
openai_chat = pytest.importorskip("openai.types.chat")

LESSON = lessons.lesson(16)
REQUEST = {"anthropic": pydantic.TypeAdapter(list[anthropic_types.MessageParam]),
           "openai": pydantic.TypeAdapter(list[openai_chat.ChatCompletionMessageParam])}
# What the SDKs' types say about each wrong answer: the wire that refuses it, or None when the
# types let it through (the mistake is in how messages pair up, which no field type describes).
CAUGHT_BY_SDK_TYPES = {
    "arguments_as_a_dict": "openai",        # function.arguments is declared a str
    "results_after_the_steer": None,        # any order of blocks in a user turn type-checks
    "unmerged_user_turns": None,            # two user turns in a row type-check
    "naive_tail_slice": None,               # a leading tool_result / tool message type-checks
    "drop_the_orphaned_results": None,      # a short trim is well-typed, only short
}


def lab_check(*args):
    return subprocess.run([sys.executable, str(PROJECT / "lab" / "lab_check.py"), *args],
                          capture_output=True, text=True, cwd=PROJECT, timeout=600)


def test_verify_16_proves_the_lessons_tests():
    run = lab_check("--verify", "16")

    assert run.returncode == 0, f"exit {run.returncode}:\n{run.stdout}{run.stderr}"
    assert re.search(r"^(\d+) checks: \1 as expected, 0 surprises\.$", run.stdout, re.M), run.stdout


def test_where_16_names_the_lessons_files():
    run = lab_check("--where", "16")

    sources = [f"source: {link.changes}" for link in course.chain(course.find(LESSON.number))
               if link.changes is not None]
    assert run.stdout.splitlines() == [f"starter: {LESSON.starter}", f"finished: {LESSON.finished}",
                                       f"tests: {LESSON.tests}"] + sources, run.stdout
    assert [line.rsplit("/", 2)[-2][:2] for line in sources] == [f"{n:02d}" for n in (*range(1, 12), 16)]


def answer_module(path):
    """The harness a wrong or right answer stands for, loaded here (it is the lesson's own code)."""
    module = types.ModuleType(f"lesson16_{path.stem}")
    exec(compile(LESSON.variant(path), str(path), "exec"), module.__dict__)
    return module


def requests_of(harness):
    """Every request the lesson's cards make through `harness`, by wire: each card's view
    translated, and the trim card's view trimmed at every keep and translated."""
    cards = load_harness(LESSON.tests, "lesson16_tests")
    views = [harness.context_for_model(make()) for make, _, _ in cards.CARDS.values()]
    trim_view = cards.parallel_reads() + [lab.user("Now the tests."), lab.say("They pass.")]
    views += [harness.safe_trim(trim_view, keep) for keep in range(len(trim_view) + 1)]
    return {wire: [harness.request_for(wire, view) for view in views] for wire in REQUEST}


def refused_by_sdk_types(harness):
    """The wires whose SDK request type rejects some request of `harness`, with the first
    complaint."""
    refused = {}
    for wire, requests in requests_of(harness).items():
        for request in requests:
            try:
                drain(REQUEST[wire].validate_python(request))
            except pydantic.ValidationError as error:
                refused.setdefault(wire, str(error).splitlines()[1])
    return refused


def drain(value):
    """pydantic checks an Iterable field lazily, as it is read: read everything."""
    if isinstance(value, dict):
        for item in value.values():
            drain(item)
    elif not isinstance(value, (str, bytes)) and hasattr(value, "__iter__"):
        for item in value:
            drain(item)


def test_the_finished_adapters_requests_fit_both_sdks_types():
    refused = refused_by_sdk_types(load_harness(LESSON.finished, "lesson16_finished"))

    assert refused == {}, f"the SDK types refuse the finished adapter's requests: {refused}"


@pytest.mark.parametrize("answer", LESSON.wrong_answers, ids=lambda p: p.stem)
def test_what_the_sdk_types_catch_of_each_wrong_answer(answer):
    expected = CAUGHT_BY_SDK_TYPES[answer.stem]

    refused = refused_by_sdk_types(answer_module(answer))

    caught = sorted(refused)
    assert caught == ([expected] if expected else []), (
        f"{answer.name}: expected the SDK types to "
        f"{'refuse it on ' + expected if expected else 'let it through'}; refused on "
        f"{caught or 'no wire'}: {refused}")


@pytest.mark.parametrize("answer", LESSON.right_answers, ids=lambda p: p.stem)
def test_the_right_answers_requests_fit_both_sdks_types(answer):
    refused = refused_by_sdk_types(answer_module(answer))

    assert refused == {}, f"{answer.name}: the SDK types refuse it: {refused}"


# -- the walkthrough, made from its source and run on a real kernel --

SOURCE, COMMITTED = LESSON.folder / notebook.SOURCE, LESSON.folder / notebook.NOTEBOOK
CELL_TIMEOUT = 60


def test_committed_notebook_is_exactly_what_its_source_makes():
    made = notebook.build(SOURCE.read_text(encoding="utf-8"), str(SOURCE))

    assert COMMITTED.read_text(encoding="utf-8") == made, (
        f"{COMMITTED.relative_to(PROJECT)} is not what {SOURCE.relative_to(PROJECT)} makes; "
        "edit the source, then run `python -m lab.notebook` from the project root")


def test_the_notebook_says_which_lessons_it_builds_on_and_which_are_missing():
    nb = nbformat.reads(COMMITTED.read_text(encoding="utf-8"), as_version=4)

    markdown = "\n".join(c.source for c in nb.cells if c.cell_type == "markdown")

    assert "builds on lessons 10 and 11" in markdown, markdown[:400]
    assert "Lessons 12 to 15 are not in this course yet" in markdown, markdown[:800]


@pytest.fixture(scope="module")
def executed():
    """The committed notebook run on a real ipykernel, on the finished lesson-16 harness."""
    return notebooks.run(LESSON, LESSON.finished)


def shown(nb, cell_id, kind):
    data = [o["data"][kind] for o in notebooks.cell(nb, cell_id).outputs if kind in o.get("data", {})]
    assert data, f"expected cell {cell_id!r} to show {kind}; it showed {notebooks.cell(nb, cell_id).outputs}"
    return data[0]


def test_the_notebook_runs_on_the_finished_harness_and_shows_each_wire(executed):
    assert "examples run on: lessons/16-adapter/finished.py" in printed(executed, "setup")
    assert printed(executed, "anthropic").startswith(
        "user[text] assistant[text,use(c1),use(c2)] user[result(c1),result(c2),text] "
        "assistant[text]\n"), printed(executed, "anthropic")
    assert printed(executed, "openai").startswith(
        "user assistant[c1,c2] tool(c1) tool(c2) user assistant\n"), printed(executed, "openai")


def test_the_notebook_shows_both_refusals_in_the_providers_words(executed):
    said = printed(executed, "refusals")

    assert "anthropic: 400 invalid_request_error: messages.1: `tool_use` ids were found without " \
           "`tool_result` blocks immediately after: c2." in said, said
    assert "openai: 400 invalid_request_error: Invalid type for " \
           "'messages[1].tool_calls[0].function.arguments': expected a string" in said, said


def test_figure_one_is_one_view_in_three_formats_each_accepted(executed):
    html = shown(executed, "figure-16-1", "text/html")

    for label in ("the view (the lab&#x27;s messages)", "Anthropic Messages",
                  "OpenAI Chat Completions"):
        assert label in html, f"expected the column {label!r} in figure 1"
    assert html.count(">accepted<") == 3, "expected all three columns accepted"
    assert "&quot;tool_use_id&quot;: &quot;c2&quot;" in html and "tool_call_id" in html, html[:500]


def test_figure_two_is_a_trim_that_backs_up_to_a_legal_boundary(executed):
    svg = shown(executed, "figure-16-2", "image/svg+xml")

    assert "the cut falls among the results" in svg and "backed up to the call" in svg
    assert "messages[0]: toolResult c4 has no" in svg, "the naive tail should be refused"
    said = printed(executed, "trim")
    assert "naive tail:  R(c4) R(c5) A\nsafe_trim:   A[c3,c4,c5] R(c3) R(c4) R(c5) A\n" in said, said


def test_the_adapted_session_is_never_refused(executed):
    said = printed(executed, "session")

    assert "the record:    U A[c1,c2] R(c1) R(c2) A U A\n" in said, said
    assert "request 3:     assistant[c1,c2] tool(c1) tool(c2) assistant user\n" in said, said
