"""Checkpoint B, "transcript doctor II": lesson ids that are letters, the checkpoint's own proof
(lab_check --verify B), its harnesses, the clinic that runs a case, and the walkthrough run on
a real kernel."""

import json
import os
import shutil
import subprocess
import sys
import tomllib
import xml.etree.ElementTree as ElementTree

import nbformat
import pytest
from nbclient import NotebookClient

import lab
from lab.notebook import casebook, harnesses, ipynb as notebook
from lab.testkit import clinic, rules
from lab.course import lesson_files as lessons
from lab.course import order as lab_course
from lab.grader import hints
from lab.course.loading import load_harness, nearly_right
from lab.release import leaks
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

    with harnesses.patched(finished, tool_specs=lambda tools: 1 / 0):
        crashed = clinic.visit(finished, case)
    healthy = clinic.visit(finished, case)

    assert [b.rule for b in rules.judge(crashed)] == ["raised"], rules.judge(crashed)
    assert [(r.call_id, r.finished, r.is_error, r.content) for r in healthy.runs] == [
        ("c1", True, True, "disk full")], healthy.runs
    assert rules.judge(healthy) == [], rules.judge(healthy)


# -- the report: a diagnosis is reasoned from the evidence -------------------------------------

def graded(tmp_path, doctor_text, *args):
    answer = tmp_path / "doctor.py"
    answer.write_text(doctor_text)
    return lab_check("--harness", str(answer), "--lesson", "B", *args)


def test_a_wrong_diagnosis_is_shown_beside_the_rule_its_case_broke_with_record_and_request(tmp_path):
    wrong = CHECKPOINT.finished.read_text() + '\nDIAGNOSIS = dict(DIAGNOSIS, elm="orphan_left_out")\n'

    run = graded(tmp_path, wrong)

    assert run.returncode == 1, run.stdout + run.stderr
    report = run.stdout
    assert "✗ elm diagnosis names the idea it is missing" in report, report
    assert "what case_elm did on elm:" in report, report
    evidence = report[report.index("what case_elm did on elm:"):]
    assert "provider: the provider never refuses a request." in evidence, evidence
    for label in ("the record then:", "request 1:", "the provider:"):
        assert label in evidence, f"expected {label!r} under the evidence:\n{evidence}"
    assert "run your case on it" not in report, report


def test_evidence_from_a_case_that_breaks_the_finished_harness_too_is_called_the_cases_own(tmp_path):
    clash = CHECKPOINT.variant(CHECKPOINT.folder / "wrong" / "reuse_an_id_the_model_hands_out.py")

    run = graded(tmp_path, clash + '\nDIAGNOSIS = dict(DIAGNOSIS, elm="orphan_left_out")\n')

    assert "case_elm breaks a rule on lesson 10's finished harness as well" in run.stdout, run.stdout
    assert "what case_elm did on elm:" not in run.stdout, run.stdout


def test_a_case_that_breaks_nothing_yet_says_to_write_the_case_before_the_diagnosis(tmp_path):
    run = graded(tmp_path, CHECKPOINT.starter.read_text(), "-k", "ash_diagnosis")

    assert "case_ash breaks no rule on ash yet" in run.stdout, run.stdout
    assert "make its test pass first, then name the idea" in run.stdout, run.stdout


def test_the_starters_next_step_is_the_first_harness_case_first():
    run = lab_check("--harness", str(CHECKPOINT.starter), "--lesson", "B")

    next_step = run.stdout[run.stdout.index("\nnext: "):]
    assert "the ash gap, case_ash() first, then DIAGNOSIS" in " ".join(next_step.split()), next_step
    assert "diagnosis gap" not in run.stdout, run.stdout


def test_each_harness_is_one_gap_whose_case_is_graded_before_its_diagnosis():
    meta = tomllib.loads(CHECKPOINT.manifest.read_text())
    order = list(meta["tests"])

    assert list(meta["gaps"]) == FIVE, meta["gaps"]
    for name in FIVE:
        case, diagnosis = (f"test_{name}_case_breaks_a_rule_on_{name}_and_none_on_the_finished_harness",
                           f"test_{name}_diagnosis_names_the_idea_it_is_missing")
        assert meta["tests"][case]["gap"] == meta["tests"][diagnosis]["gap"] == name
        assert order.index(case) + 1 == order.index(diagnosis), order


# -- hints ---------------------------------------------------------------------------------------

def test_every_graded_test_has_a_question_and_an_outline_and_a_section_the_notebook_has():
    guide = hints.guide(CHECKPOINT)
    headings = {line.lstrip("# ").strip() for line in
                (CHECKPOINT.folder / notebook.SOURCE).read_text().splitlines()
                if line.startswith(("# ## ", "# ### "))}
    listed = tomllib.loads(CHECKPOINT.manifest.read_text())["tests"]

    for name in listed:
        assert len(guide.hints(name)) == 2, f"{name}: {guide.hints(name)}"
        assert guide.hints(name)[0].rstrip().endswith("?"), f"{name}: the first fold is a question"
        assert guide.section(name) in headings, f"{name}: {guide.section(name)!r} is no heading"
    for gap in FIVE:
        assert guide.section(gap=gap) in headings, gap


def test_no_hint_names_an_idea_or_holds_a_line_of_the_answer():
    written = (CHECKPOINT.folder / "hints.toml").read_text()
    answer = leaks.answer_lines(CHECKPOINT.finished.read_text())

    assert [i for i in IDEAS if i in written] == [], "hints name an idea by its id"
    assert [line for line in answer if line in written] == []


# -- the walkthrough -----------------------------------------------------------------------------

def test_committed_walkthrough_is_exactly_what_its_source_makes():
    source = CHECKPOINT.folder / notebook.SOURCE

    made = notebook.build(source.read_text(encoding="utf-8"), str(source))

    assert (CHECKPOINT.folder / notebook.NOTEBOOK).read_text(encoding="utf-8") == made, (
        "walkthrough.ipynb is stale: run `python -m lab.notebook` from the project root")


def test_walkthrough_has_the_anatomy_of_the_seed_lesson():
    markdown = "\n".join(c.source for c in notebook.read(
        (CHECKPOINT.folder / notebook.SOURCE).read_text()).cells if c.cell_type == "markdown")
    questions = [block for block in markdown.split("<summary><b>A</b>")[1:]
                 if "<summary><b>B</b>" in block.split("<summary><b>A</b>")[0]
                 and "<summary><b>C</b>" in block]
    following = lab_course.after(lab_course.find("B"))

    assert len(questions) >= 4, len(questions)
    for figure in ("Figure B.1", "Figure B.2", "Figure B.3"):
        assert f"**{figure}** ·" in markdown, f"no caption for {figure}"
    for section in ("Common answers", "Compared with a production harness", "In your own words",
                    "A further case", "Wrapping up", "You hit", "You built", "The principle",
                    "Your harness now", "Still open", "The build"):
        assert section in markdown, section
    assert f"**Next:** {following.id} · {following.title}." in markdown
    for name, lesson in (("ash", 9), ("birch", 7), ("cedar", 5), ("dogwood", 10), ("elm", 10)):
        assert f"- {name}: lesson {lesson}'s" not in markdown, name  # the student's to find
    assert "an earlier lesson" not in markdown
    assert "agent-loop.ts:" in markdown and "83378aad" in markdown


def figures_of(nb):
    return {c.id: o["data"][SVG] for c in nb.cells if c.cell_type == "code"
            for o in c.outputs if SVG in o.get("data", {})}


def errors_of(nb):
    return [(c.id, o.get("ename") or o.get("name")) for c in nb.cells if c.cell_type == "code"
            for o in c.outputs if o.output_type == "error" or o.get("name") == "stderr"]


@pytest.fixture(scope="module")
def right_doctor(tmp_path_factory):
    path = tmp_path_factory.mktemp("right") / "doctor.py"
    path.write_text(CHECKPOINT.variant(CHECKPOINT.folder / "right" / "other_ways_to_expose.py"))
    return path


@pytest.mark.parametrize("reader", ["starter", "right"])
def test_walkthrough_runs_on_a_real_kernel_for_every_reader_and_draws_the_broken_rule(reader, right_doctor):
    doctor = CHECKPOINT.starter if reader == "starter" else right_doctor

    nb = notebooks.run(CHECKPOINT, doctor)

    assert errors_of(nb) == [], f"cells that wrote errors: {errors_of(nb)}"
    figures = figures_of(nb)
    assert {"figure-b-1", "figure-b-2", "figure-b-3"} <= set(figures), sorted(figures)
    first = " ".join(ElementTree.fromstring(figures["figure-b-1"]).itertext())
    assert "Broken:" in first and "which the record does not" in first, first
    assert "not in the record" in first, "the reply the request made up should be marked"
    read_back = notebooks.printed(nb, "after-pass")
    if reader == "starter":
        assert read_back.count("not named yet") == 5, read_back
    else:
        assert "5 different ideas named, from lessons 5, 7, 9, 10" in read_back, read_back


# -- the casebook: sessions saved on the grader's side, replayed in an edition -------------------

def test_a_visit_saved_as_plain_data_is_judged_and_described_exactly_as_the_live_one(finished):
    for case in (three_steps(6), getattr(load_harness(CHECKPOINT.finished, name="doctor"), "case_elm")()):
        for module in (finished, nearly_right(CHECKPOINT.folder / "fir.patch"), harness("birch")):
            live = clinic.visit(module, case)

            saved = clinic.Visit.from_data(json.loads(json.dumps(live.to_data())))

            assert saved == live
            assert rules.judge(saved) == rules.judge(live) and saved.describe() == live.describe()


# -- the student's edition -----------------------------------------------------------------------

@pytest.fixture(scope="module")
def edition(tmp_path_factory):
    folder = tmp_path_factory.mktemp("edition-b") / "edition"
    made = lab_check("--release", "B", "--output", str(folder))
    assert made.returncode == 0, made.stdout + made.stderr
    return folder


def test_edition_holds_no_line_of_any_labs_answer_and_none_of_the_graders_files(edition):
    files = {str(p.relative_to(edition)) for p in edition.rglob("*") if p.is_file()}

    assert leaks.leaks(edition, CHECKPOINT) == []
    assert {"doctor.py", "starter.py", "ideas.toml", "hints.toml", "sessions.json",
            "walkthrough.ipynb", "tests.py", "manifest.toml", "README.md"} <= files, files
    assert not [f for f in files if f.startswith(("harnesses", "fir", "finished", "right", "wrong"))]
    assert (edition / "doctor.py").read_text() == CHECKPOINT.starter.read_text()
    assert not (edition / ".github").exists(), "a Classroom workflow here could grade nothing"
    readme = (edition / "README.md").read_text()
    assert "## 2. Graded on submission" in readme and "`doctor.py`" in readme, readme
    assert "harness.py" not in readme, "the checkpoint's file is doctor.py"


def test_leak_check_finds_a_grader_file_and_a_line_of_lesson_10s_answer_in_a_checkpoint_copy(edition, tmp_path):
    copy = tmp_path / "copy"
    shutil.copytree(edition, copy)
    shutil.copytree(CHECKPOINT.folder / "harnesses", copy / "harnesses")
    secret = leaks.answer_lines(lessons.lesson(10).finished.read_text())[0]
    (copy / "notes.txt").write_text(f"kept for later:\n    {secret}\n")

    found = leaks.leaks(copy, CHECKPOINT)

    assert any(f.startswith("harnesses/") and "the grader keeps" in f for f in found), found
    assert any(f.startswith("notes.txt: holds a line of the answer") for f in found), found


def test_lab_check_in_the_edition_grades_nothing_and_says_where_it_is_graded(edition):
    run = subprocess.run([sys.executable, "lab/lab_check.py", "--harness", "doctor.py",
                          "--lesson", "B", "tests.py"], capture_output=True, text=True,
                         cwd=edition, timeout=300)

    assert run.returncode == 2, run.stdout + run.stderr
    assert "Not ready to hand in" in run.stdout and "nothing was graded here" in run.stdout
    assert 'DIAGNOSIS["ash"] names no idea yet' in run.stdout, run.stdout
    assert "Hand doctor.py in" in run.stdout and "lesson 10" in run.stdout, run.stdout
    assert "nothing was graded" in run.stdout.splitlines()[-1]


REPLAY = """
import json, sys
from lab.notebook import casebook
name, case = json.loads(sys.argv[1])  # a session the release saved, by its key
try:
    casebook.visit(name, case)
except casebook.Spoilt as spoilt:
    print(spoilt._render_traceback_()[0])
    sys.exit(3)
print("replayed")
"""


def _spoil_a_field(sessions):
    del sessions[0]["visit"]["requests"]
    return sessions


@pytest.mark.parametrize("spoil, said", [
    (_spoil_a_field, "the saved session of "),
    (lambda sessions: [{"key": s["key"]} for s in sessions], "session 1 has no 'visit'"),
    (lambda sessions: {"sessions": sessions}, "holds a dict, not the list of sessions"),
    (lambda sessions: json.dumps(sessions)[:-40], "is not JSON ("),
])
def test_a_hand_edited_sessions_file_is_refused_in_one_line_saying_what_is_wrong(
        edition, tmp_path, spoil, said):
    copy = tmp_path / "edition"
    shutil.copytree(edition, copy, ignore=shutil.ignore_patterns("*.ipynb", "__pycache__"))
    sessions = json.loads((copy / casebook.SAVED).read_text())
    run = [sys.executable, "-c", REPLAY, sessions[0]["key"]]
    intact = subprocess.run(run, capture_output=True, text=True, cwd=copy, timeout=120)
    spoilt = spoil(sessions)
    (copy / casebook.SAVED).write_text(spoilt if isinstance(spoilt, str) else json.dumps(spoilt))

    refused = subprocess.run(run, capture_output=True, text=True, cwd=copy, timeout=120)

    assert intact.stdout == "replayed\n", intact.stdout + intact.stderr
    assert refused.returncode == 3, refused.stdout + refused.stderr
    line, = refused.stdout.splitlines()
    assert line.startswith("Spoilt: ") and casebook.SAVED in line and said in line, line
    if spoil is _spoil_a_field:
        assert "has no 'requests'" in line, line
    assert "git checkout sessions.json" in line, line


def run_edition_notebook(edition, doctor_text=None, extra=()):
    nb = nbformat.read(edition / notebook.NOTEBOOK, as_version=4)
    saved = figures_of(nb)
    for cell in nb.cells:
        if cell.cell_type == "code":
            cell.outputs = []
    nb.cells += [nbformat.v4.new_code_cell(source, id=name) for name, source in extra]
    env = {k: v for k, v in os.environ.items() if k not in ("LAB_HARNESS", "PYTHONPATH")}
    if doctor_text is not None:
        (edition / "mine.py").write_text(doctor_text)
        env["LAB_HARNESS"] = str(edition / "mine.py")
    client = NotebookClient(nb, timeout=notebooks.CELL_TIMEOUT, kernel_name="python3",
                            resources={"metadata": {"path": str(edition)}})
    client.reset_execution_trackers()
    try:
        with client.setup_kernel(env=env, cwd=str(edition)):
            for index, cell in enumerate(nb.cells):
                client.execute_cell(cell, index)
    finally:
        (edition / "mine.py").unlink(missing_ok=True)
    return nb, saved


ASK_FIR_SOMETHING_NEW = """
try:
    casebook.visit("fir", {"prompts": [{"text": "Something the walkthrough never asked."}]})
except casebook.NotSaved as refused:
    print("refused:", refused)
"""


@pytest.mark.parametrize("reader", ["starter", "right"])
def test_edition_notebook_replays_the_saved_sessions_for_every_reader(edition, reader):
    text = None if reader == "starter" else CHECKPOINT.variant(
        CHECKPOINT.folder / "right" / "other_ways_to_expose.py")

    nb, saved = run_edition_notebook(edition, text, extra=[("ask", ASK_FIR_SOMETHING_NEW)])

    assert errors_of(nb) == [], errors_of(nb)
    assert nb.cells[0].id == "outputs-note" and "saved when this copy was made" in nb.cells[0].source
    assert notebooks.printed(nb, "setup").startswith("sessions: replayed from sessions.json")
    assert figures_of(nb) == saved, "a replayed session draws what the grader's side drew"
    assert "refused: fir is the grader's harness" in notebooks.printed(nb, "ask")
    read_back = notebooks.printed(nb, "after-pass")
    assert ("not named yet" in read_back) == (reader == "starter"), read_back
