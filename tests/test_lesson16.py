"""Lesson 16, "the adapter": its tests hold (lab_check --verify 16), and what the official SDKs'
request types would have caught of the lesson's wrong answers, had they been the only check.

The SDK check reads the adapters' output with pydantic, against the TypedDicts the `anthropic`
and `openai` packages declare for a request's messages (anthropic.types.MessageParam,
openai.types.chat.ChatCompletionMessageParam). No request is sent anywhere. Types describe
fields, not the pairing between messages nor whether a list or a text may be empty, so they
catch one of the eight mistakes; the lesson's validator and scripted models catch all eight
(verify proves it). Also here: every request the finished adapter makes, held against
toolrepair (seed 003), and the walkthrough run on a real kernel on the finished harness, the
starter and a second correct harness.
"""

import re
import subprocess
import sys
import types

import nbformat
import pytest

import lab
from lab.course import order as course, lesson_files as lessons
from lab.notebook import ipynb as notebook
import notebooks
from conftest import PROJECT, load_harness
from notebooks import printed

import anthropic.types as anthropic_types  # the SDKs are in the test extra the suite runs with
import openai.types.chat as openai_chat
import pydantic

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
    "empty_tool_calls": None,               # tool_calls is an Iterable: [] type-checks
    "a_text_block_for_a_reply_with_no_words": None,  # text is a str: "" type-checks
    "keep_zero_looks_past_the_end": None,   # it raises at keep=0 only, which types never see
}


def lab_check(*args):
    return subprocess.run([sys.executable, str(PROJECT / "lab" / "lab_check.py"), *args],
                          capture_output=True, text=True, cwd=PROJECT, timeout=600)


def test_verify_16_proves_the_lessons_tests():
    run = lab_check("--verify", "16")

    assert run.returncode == 0, f"exit {run.returncode}:\n{run.stdout}{run.stderr}"
    assert re.search(r"^(\d+) checks: \1 as expected, 0 surprises\.$", run.stdout, re.M), run.stdout


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
    views += [harness.safe_trim(trim_view, keep) for keep in range(1, len(trim_view) + 1)]
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


# -- every request the finished adapter makes, held against toolrepair (seed 003) --

import toolrepair  # noqa: E402 (in the test extra, which the suite is run with)


def test_every_request_the_finished_adapter_makes_is_accepted_by_the_lab_and_by_toolrepair():
    from hypothesis import given, settings

    finished = load_harness(LESSON.finished, "lesson16_finished_wire")
    cards = load_harness(LESSON.tests, "lesson16_tests_wire")

    @given(cards.histories())
    @settings(max_examples=150, deadline=None)
    def every_request(record):
        view = finished.context_for_model(record)
        for keep in (None, *range(1, len(view) + 1)):
            sent = view if keep is None else finished.safe_trim(view, keep)
            for wire in REQUEST:
                request = finished.request_for(wire, sent)

                assert lab.validate(request, wire=wire) == [], (wire, keep, lab.shape(view))
                assert toolrepair.validate(request, format=wire) == [], (wire, keep)

    every_request()


def test_trimmed_to_nothing_the_request_is_empty_and_both_providers_refuse_it():
    finished = load_harness(LESSON.finished, "lesson16_finished_empty")
    view = finished.context_for_model([lab.user("Hello?"), lab.say("Hi.")])

    nothing = finished.safe_trim(view, 0)

    assert nothing == []
    assert [p.code for wire in REQUEST
            for p in lab.validate(finished.request_for(wire, nothing), wire=wire)] == [
        "empty_request", "empty_request"]


# -- the walkthrough, made from its source and run on a real kernel --

SOURCE, COMMITTED = LESSON.folder / notebook.SOURCE, LESSON.folder / notebook.NOTEBOOK
CELL_TIMEOUT = 60


def test_committed_notebook_is_exactly_what_its_source_makes():
    made = notebook.build(SOURCE.read_text(encoding="utf-8"), str(SOURCE))

    assert COMMITTED.read_text(encoding="utf-8") == made, (
        f"{COMMITTED.relative_to(PROJECT)} is not what {SOURCE.relative_to(PROJECT)} makes; "
        "edit the source, then run `python -m lab.notebook.ipynb` from the project root")


def test_the_notebook_says_which_lesson_it_builds_on_and_that_none_is_missing():
    nb = nbformat.reads(COMMITTED.read_text(encoding="utf-8"), as_version=4)

    markdown = "\n".join(c.source for c in nb.cells if c.cell_type == "markdown")

    assert "builds on 15 · Going async" in markdown, markdown[:400]
    assert [lab.label for lab in course.labs() if not lab.written] == []
    assert "not in this course yet" not in markdown and "still to be written" not in markdown, \
        markdown[:800]


def a_second_correct_harness(folder):
    """The finished harness with three right/ answers appended, one for each function of the
    gap: correct, and written another way throughout (the Anthropic steer in a turn of its
    own, OpenAI's content left out, the trim found by pairing)."""
    path = folder / "second_correct.py"
    source = LESSON.finished.read_text(encoding="utf-8")
    for name in ("openai_content_left_out", "trim_by_pairing", "anthropic_steer_as_a_turn_of_its_own"):
        source += "\n\n" + (LESSON.folder / "right" / f"{name}.py").read_text(encoding="utf-8")
    path.write_text(source, encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def executed():
    """The committed notebook run on a real ipykernel, on the finished lesson-16 harness."""
    return notebooks.run(LESSON, LESSON.finished)


@pytest.fixture(scope="module")
def on_starter():
    return notebooks.run(LESSON, LESSON.starter)


@pytest.fixture(scope="module")
def on_another(tmp_path_factory):
    return notebooks.run(LESSON, a_second_correct_harness(tmp_path_factory.mktemp("lesson16")))


def shown(nb, cell_id, kind):
    data = [o["data"][kind] for o in notebooks.cell(nb, cell_id).outputs if kind in o.get("data", {})]
    assert data, f"expected cell {cell_id!r} to show {kind}; it showed {notebooks.cell(nb, cell_id).outputs}"
    return data[0]


def test_the_notebook_opens_on_the_failure_whatever_the_harness(executed, on_starter):
    for nb in (executed, on_starter):
        said = printed(nb, "first-tool-call")

        assert "'Hello!'                 -> Hello. What shall we work on?\n" in said, said
        assert said.count("-> 400 invalid_request_error: malformed_block at messages[3]") == 2, said
        assert "toolCall" in shown(nb, "figure-16-1", "image/svg+xml")


def test_on_the_starter_every_cell_that_needs_the_gap_says_which_to_fill_and_nothing_raises(
        on_starter):
    assert "examples run on: lessons/16-adapter/starter.py" in printed(on_starter, "setup")
    assert "lesson 10" not in printed(on_starter, "setup")
    for cell_id in ("anthropic", "openai", "refusals", "trim", "keep-zero", "sdk-session",
                    "bad-week"):
        said = printed(on_starter, cell_id)

        assert "fill the adapter's gap (region 12 of harness.py) first: " in said, (cell_id, said)
    assert "Traceback" not in "".join(printed(on_starter, c.get("id")) for c in on_starter.cells
                                      if c.cell_type == "code")


def test_the_notebook_runs_on_the_finished_harness_and_shows_each_wire(executed):
    assert "examples run on: lessons/16-adapter/finished.py" in printed(executed, "setup")
    assert printed(executed, "anthropic").startswith(
        "user[text] assistant[text,use(c1),use(c2)] user[result(c1),result(c2),text] "
        "assistant[text]\n"), printed(executed, "anthropic")
    assert printed(executed, "openai").startswith(
        "user assistant[c1,c2] tool(c1) tool(c2) user assistant\n"), printed(executed, "openai")


def test_the_notebook_shows_the_refusals_in_the_providers_words(executed):
    said = printed(executed, "refusals") + printed(executed, "empty-tool-calls")

    assert "anthropic: 400 invalid_request_error: messages.2: `tool_use` ids were found without " \
           "`tool_result` blocks immediately after: c1." in said, said
    assert "openai: 400 invalid_request_error: Invalid type for " \
           "'messages[2].tool_calls[0].function.arguments': expected a string" in said, said
    assert "tool_calls: []  refused: Invalid 'messages[1].tool_calls': empty array." in said, said


def test_two_user_turns_in_a_row_pass_and_results_split_over_turns_do_not(executed):
    said = printed(executed, "alternation")

    assert said.splitlines()[2] == "   accepted", said
    assert said.splitlines()[5].startswith("   refused: messages.1: `tool_use` ids were found"), said


def test_figure_16_2_is_one_view_in_three_formats_each_accepted(executed):
    html = shown(executed, "figure-16-2", "text/html")

    assert "Figure 16.2" in html
    for label in ("the view (the lab&#x27;s messages)", "Anthropic Messages",
                  "OpenAI Chat Completions"):
        assert label in html, f"expected the column {label!r} in figure 16.2"
    assert html.count(">accepted<") == 3, "expected all three columns accepted"


def test_figure_16_3_is_a_trim_that_backs_up_to_a_legal_boundary(executed):
    svg = shown(executed, "figure-16-3", "image/svg+xml")

    assert "The cut falls among the results." in svg and "Backed up to the call." in svg
    assert "messages[0]: toolResult c4 has no" in svg, "the naive tail should be refused"
    said = printed(executed, "trim")
    assert "safe_trim:   A[c3,c4,c5] R(c3) R(c4) R(c5) A    accepted\n" in said, said


def test_keep_0_is_an_empty_request_anthropic_refuses_and_openai_answers(executed):
    said = printed(executed, "keep-zero")

    assert "short[-0:]:       U A\nsafe_trim(…, 0):  []\n" in said, said
    assert "anthropic  -> 400 invalid_request_error: messages: at least one message is required" \
        in said, said
    assert "openai     -> How can I help?" in said, said


def test_restarted_ids_are_refused_in_the_record_and_accepted_in_the_view(executed):
    said = printed(executed, "restarted-ids")

    assert "the view:   U A[call_0] R(call_0) A[call_0_1] R(call_0_1) U" in said, said
    assert "the record, on Anthropic's wire: refused: messages.3.content.0: `tool_use` ids must " \
           "be unique" in said, said
    assert "the view, on Anthropic's wire: accepted" in said, said


@pytest.mark.parametrize("which", ["executed", "on_another"])
def test_the_sdk_session_runs_through_both_official_clients_unrefused(which, request):
    said = printed(request.getfixturevalue(which), "sdk-session")

    assert "anthropic, the loopback at http://127.0.0.1:" in said, said
    assert "   the record:   U A[toolu_0001] R(toolu_0001) A U A\n" in said, said
    assert "   the record:   U A[call_0001] R(call_0001) A U A\n" in said, said
    assert said.count("   last answer:  Nothing else.") == 2, said
    assert "   request 3:    system user assistant[call_0001] tool(call_0001) assistant user" in said


@pytest.mark.parametrize("which", ["executed", "on_another"])
def test_after_the_pass_a_correct_adapter_is_refused_nothing(which, request):
    said = printed(request.getfixturevalue(which), "bad-week")

    for wire in ("anthropic", "openai"):
        assert f"{wire}: 21 trimmed views of five wrecks sent, 0 refused" in said, said
    assert said.count("A[call_0] R(call_0) A[call_0] R(call_0) A[call_0] R(call_0) A  (answered)") == 2


def test_on_a_second_correct_harness_the_anthropic_steer_is_a_turn_of_its_own(on_another):
    assert printed(on_another, "anthropic").startswith(
        "user[text] assistant[text,use(c1),use(c2)] user[result(c1),result(c2)] user[text] "
        "assistant[text]\n"), printed(on_another, "anthropic")


def test_the_next_lab_comes_from_the_course_file(executed):
    assert "next: nothing yet. Lesson 16 is the last lab the course has" in printed(executed, "next")


# -- the hints: two a test, each section a heading the notebook has, none a line of the answer --

def test_every_graded_test_has_two_hints_and_a_section_the_notebook_has():
    from lab.grader import hints
    from lab.course import manifest

    guide = hints.guide(LESSON)
    headings = {line.lstrip("# ").strip() for line in SOURCE.read_text().splitlines()
                if re.match(r"# #{2,3} ", line)}

    for name in manifest.graded_tests(LESSON.tests):
        assert len(guide.hints(name)) == 2, f"{name}: {guide.hints(name)}"
        assert guide.section(name) in headings, f"{name}: no heading {guide.section(name)!r}"
    assert guide.section(gap="adapter") in headings


def test_no_hint_and_no_line_of_the_text_holds_a_line_of_the_finished_gap():
    import tomllib

    from test_student_report import finished_gap_lines

    gap_lines = [line for line in finished_gap_lines(LESSON.finished.read_text())
                 if len(line) > 12 and not line.startswith(('"""', "#"))]
    every_hint = tomllib.loads((LESSON.folder / "hints.toml").read_text())
    written = " ".join(h for meta in every_hint["tests"].values() for h in meta["hints"])

    assert len(gap_lines) > 20, gap_lines
    assert not [line for line in gap_lines if line in written], "hints give away the answer"
    assert not [line for line in gap_lines if line in SOURCE.read_text()], \
        "the walkthrough shows a line of the answer"


def test_an_editions_readme_counts_the_gaps_its_manifest_has():
    from lab.course import manifest
    from lab.release import readme

    for number in (10, 11, 16):
        gaps = tuple(manifest.read(lessons.lesson(number))["gaps"])
        facts = readme.Facts(lesson=number, title="t", visible=1, visible_points=1, hidden=2,
                             hidden_points=2, has_notebook=False, python=">=3.11", gaps=gaps)

        said = " ".join(readme.student_readme(facts).split())

        counted = {1: "the same gap on", 2: "the same two gaps on", 5: "the same five gaps on"}
        assert counted[len(gaps)] in said, (number, gaps, said[:600])
