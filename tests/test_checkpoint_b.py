"""Checkpoint B, "transcript doctor II": lesson ids that are letters, the checkpoint's own proof
(lab_check --verify B), its harnesses, the clinic that runs a case, and the walkthrough run on
a real kernel."""

import subprocess
import sys
import tomllib
import xml.etree.ElementTree as ElementTree

import pytest

import lab
from lab import clinic, lessons, notebook, rules
from lab.harnesses import load_harness, nearly_right
import notebooks
from conftest import PROJECT

CHECKPOINT = lessons.lesson("B")
FIVE = ["ash", "birch", "cedar", "dogwood", "elm"]
IDEAS = tomllib.loads((CHECKPOINT.folder / "ideas.toml").read_text())["ideas"]
SVG = "image/svg+xml"


def lab_check(*args):
    return subprocess.run([sys.executable, str(PROJECT / "lab" / "lab_check.py"), *args],
                          capture_output=True, text=True, cwd=PROJECT, timeout=300)


def harness(name):
    return nearly_right(CHECKPOINT.folder / "harnesses" / f"{name}.patch")


@pytest.fixture
def finished():
    return load_harness(lessons.lesson(10).finished)


# -- lesson ids ---------------------------------------------------------------------------------

def test_a_lesson_id_is_a_number_or_a_letter_in_either_case():
    assert lessons.lesson("b").number == "B"
    assert lessons.lesson("10").number == 10 and lessons.lesson(10).number == 10
    with pytest.raises(ValueError, match="is not a lesson"):
        lessons.lesson("BB")


def test_the_newest_lesson_is_the_highest_numbered_one_never_a_checkpoint():
    newest = lessons.newest()

    assert newest.number == max(n for n in lessons.available() if isinstance(n, int)), newest


def test_where_B_prints_the_checkpoints_starter_finished_answer_and_tests():
    run = lab_check("--where", "B")

    assert run.returncode == 0, run.stderr
    assert run.stdout.splitlines() == [f"starter: {CHECKPOINT.starter}",
                                       f"finished: {CHECKPOINT.finished}",
                                       f"tests: {CHECKPOINT.tests}",
                                       f"source: {CHECKPOINT.finished}"], run.stdout


# -- the checkpoint proves itself ----------------------------------------------------------------

def test_verify_B_passes_the_reference_fails_the_starter_and_each_wrong_answer():
    run = lab_check("--verify", "B")

    assert run.returncode == 0, run.stdout + run.stderr
    assert "0 surprises" in run.stdout, run.stdout
    for answer in CHECKPOINT.wrong_answers + CHECKPOINT.right_answers:
        assert answer.name in run.stdout, f"{answer.name} is not in the table:\n{run.stdout}"


# -- the harnesses -------------------------------------------------------------------------------

def test_each_harness_lacks_one_idea_of_the_list_and_no_two_lack_the_same():
    missing = {name: harness(name).MISSING for name in FIVE}
    worked = nearly_right(CHECKPOINT.folder / "fir.patch").MISSING

    assert set(missing.values()) <= set(IDEAS), f"ideas not in ideas.toml: {missing}"
    assert len(set(missing.values())) == 5, f"two harnesses lack the same idea: {missing}"
    assert worked in IDEAS and worked not in missing.values(), (
        f"the walkthrough's harness must lack an idea of its own; it lacks {worked}")


@pytest.mark.parametrize("name", FIVE + ["fir"])
def test_a_healthy_session_with_a_tool_shows_nothing_wrong_on_any_harness(name):
    case = {"tools": [{"name": "bash", "result": "3 passed"}],
            "replies": [lab.reply(lab.text("Running."), lab.call("bash", {"command": "pytest"}))],
            "prompts": [{"text": "Run the tests."}, {"text": "Thanks."}]}
    module = nearly_right(CHECKPOINT.folder / "fir.patch") if name == "fir" else harness(name)

    seen = clinic.visit(module, case)

    assert rules.judge(seen) == [], "\n".join(map(str, rules.judge(seen)))


def three_steps(walk_away_after):
    """Steps 1 and 2 in one reply, step 3 in the next, walked away from after some event, then
    two more prompts: lesson 10's job, as a case."""
    return {"tools": [{"name": "step", "result": "ok"}],
            "replies": [lab.reply(lab.call("step", {"n": 1}), lab.call("step", {"n": 2})),
                        lab.reply(lab.call("step", {"n": 3}))],
            "prompts": [{"text": "Do the job.", "walk_away_after": walk_away_after},
                        {"text": "Never mind."}, {"text": "And main.py?"}]}


def test_the_finished_harness_keeps_every_rule_whatever_event_the_user_walks_away_after(finished):
    for k in range(1, 22):
        seen = clinic.visit(finished, three_steps(k))

        assert rules.judge(seen) == [], f"after event {k}: " + "; ".join(map(str, rules.judge(seen)))


def test_birch_shows_only_when_the_user_walks_away_right_after_a_tool_execution_end():
    exposed = []
    for k in range(1, 22):
        seen = clinic.visit(harness("birch"), three_steps(k))
        if rules.judge(seen):
            exposed.append((k, seen.events[0][-1]))

    assert exposed and all(event == "tool_execution_end" for _, event in exposed), exposed


def test_each_reference_case_breaks_a_rule_on_its_own_harness_and_none_on_the_finished(finished):
    doctor = load_harness(CHECKPOINT.finished, name="doctor")

    for name in FIVE:
        case = getattr(doctor, f"case_{name}")()

        assert rules.judge(clinic.visit(finished, case)) == [], name
        assert rules.judge(clinic.visit(harness(name), case)), f"case_{name} breaks nothing on {name}"


# -- the clinic ----------------------------------------------------------------------------------

@pytest.mark.parametrize("case, words", [
    ([], "a case is a dict"),
    ({"prompts": []}, "at least one prompt"),
    ({"prompts": [{"text": "Hi."}], "plan": 1}, "a case has no 'plan'"),
    ({"prompts": [{"text": "Hi.", "walk_away_after": 0}]}, "1 or more"),
    ({"prompts": [{"text": "Hi."}], "tools": [{"name": "bash"}]}, "is not a tool"),
    ({"prompts": [{"text": "Hi."}], "replies": [lab.user("Hi.")]}, "not an assistant message"),
    ({"prompts": [{"text": "Hi."}],
      "replies": [lab.reply(*[lab.call("step", {}) for _ in range(51)])]}, "at most 50"),
], ids=["not a dict", "no prompt", "unknown key", "walk-away before the run starts", "tool does nothing",
        "reply from a user", "too many calls"])
def test_a_case_the_clinic_cannot_run_is_refused_with_a_sentence(finished, case, words):
    assert words in clinic.problem(case)
    with pytest.raises(clinic.CaseError, match=words):
        clinic.visit(finished, case)


def test_a_tool_run_is_tied_to_its_call_and_a_harness_that_raises_breaks_a_rule(finished):
    case = {"tools": [{"name": "bash", "error": "disk full"}],
            "replies": [lab.reply(lab.call("bash", {"command": "make"}))],
            "prompts": [{"text": "Build it."}]}

    with lab.patched(finished, tool_specs=lambda tools: 1 / 0):
        crashed = clinic.visit(finished, case)
    healthy = clinic.visit(finished, case)

    assert [b.rule for b in rules.judge(crashed)] == ["raised"], rules.judge(crashed)
    assert [(r.call_id, r.finished, r.is_error, r.content) for r in healthy.runs] == [
        ("c1", True, True, "disk full")], healthy.runs
    assert rules.judge(healthy) == [], rules.judge(healthy)


# -- the walkthrough -----------------------------------------------------------------------------

def test_committed_walkthrough_is_exactly_what_its_source_makes():
    source = CHECKPOINT.folder / notebook.SOURCE

    made = notebook.build(source.read_text(encoding="utf-8"), str(source))

    assert (CHECKPOINT.folder / notebook.NOTEBOOK).read_text(encoding="utf-8") == made, (
        "walkthrough.ipynb is stale: run `python -m lab.notebook` from the project root")


def test_walkthrough_runs_on_a_real_kernel_and_draws_the_broken_rule():
    nb = notebooks.run(CHECKPOINT)

    errors = [(c.id, o.get("ename") or o.get("name")) for c in nb.cells if c.cell_type == "code"
              for o in c.outputs if o.output_type == "error" or o.get("name") == "stderr"]
    figures = {c.id: o["data"][SVG] for c in nb.cells if c.cell_type == "code"
               for o in c.outputs if SVG in o.get("data", {})}
    assert errors == [], f"cells that wrote errors: {errors}"
    assert {"figure-b-1", "figure-b-2", "figure-b-3"} <= set(figures), sorted(figures)
    first = " ".join(ElementTree.fromstring(figures["figure-b-1"]).itertext())
    assert "Broken:" in first and "which the record does not" in first, first
    assert "not in the record" in first, "the reply the request made up should be marked"
