"""Checkpoint A, "transcript doctor I": its five harnesses on lesson 05, the clinic driving a
run_agent harness, the two rules A needs (a run ends only when the model stops asking; a run
makes at most max_turns requests), the report's evidence, hints, anatomy and the edition.

lab-check --verify A, the notebook on a real kernel and the anatomy check are
tests/test_labs.py's, as for every lab without a suite of its own; this file proves what is
particular to A, in well under a minute.
"""

import pathlib
import subprocess
import sys
import tomllib

import pytest

import lab
from lab.notebook import casebook, ipynb as notebook
from lab.testkit import clinic, rules
from lab.course import order as course, lesson_files as lessons, patches, starter
from lab.course import gap_markers
from lab.grader import hints
from lab.course.loading import load_harness, nearly_right
from lab.release import leaks
from conftest import PROJECT

CHECKPOINT = lessons.lesson("A")
FIVE = ["auk", "bittern", "crane", "dunlin", "egret"]
IDEAS = tomllib.loads((CHECKPOINT.folder / "ideas.toml").read_text())["ideas"]


def harness(name):
    return nearly_right(CHECKPOINT.folder / "harnesses" / f"{name}.patch")


@pytest.fixture(scope="module")
def finished():
    return load_harness(lessons.lesson(5).finished)


@pytest.fixture(scope="module")
def doctor():
    return load_harness(CHECKPOINT.finished, name="doctor")


def lab_check(*args):
    return subprocess.run([sys.executable, str(PROJECT / "lab" / "lab_check.py"), *args],
                          capture_output=True, text=True, cwd=PROJECT, timeout=300)


# -- the harnesses --------------------------------------------------------------------------------

@pytest.mark.parametrize("patch", sorted(CHECKPOINT.folder.rglob("*.patch")), ids=lambda p: p.stem)
def test_each_harness_is_lesson_05_with_a_few_lines_changed_and_one_idea_missing(patch):
    text = patch.read_text()
    changed = [line for line in text.splitlines()
               if line[:1] in "+-" and not line.startswith(("+++", "---"))]

    assert "--- lesson 05's finished harness" in text
    assert 0 < len(changed) <= 12, f"{patch.name} changes {len(changed)} lines"
    assert nearly_right(patch).MISSING in IDEAS, patch.name
    assert hasattr(nearly_right(patch), "run_agent") and not hasattr(nearly_right(patch), "Harness")


def test_the_six_harnesses_miss_six_different_ideas_from_lessons_01_to_05():
    missing = [nearly_right(p).MISSING for p in sorted(CHECKPOINT.folder.rglob("*.patch"))]

    assert len(set(missing)) == 6, missing
    assert {IDEAS[m]["lesson"] for m in missing} == {1, 2, 3, 4, 5}
    assert {harness(name).MISSING for name in FIVE} == set(
        load_harness(CHECKPOINT.finished, name="doctor").DIAGNOSIS.values())


@pytest.mark.parametrize("name", FIVE)
def test_the_reference_case_breaks_its_harness_and_nothing_on_lesson_05(finished, doctor, name):
    case = getattr(doctor, f"case_{name}")()

    assert rules.judge(clinic.visit(finished, case)) == []
    assert rules.judge(clinic.visit(harness(name), case)), f"case_{name} breaks nothing on {name}"
    assert rules.judge(clinic.visit(harness(name), doctor.healthy_session())) == []


@pytest.mark.parametrize("name, rule", [("auk", "provider"), ("bittern", "provider"),
                                        ("crane", "ended"), ("dunlin", "limit"), ("egret", "told")])
def test_each_harness_shows_its_missing_idea_under_the_rule_the_walkthrough_says(doctor, name, rule):
    broken = rules.judge(clinic.visit(harness(name), getattr(doctor, f"case_{name}")()))

    assert broken[0].rule == rule, [str(b) for b in broken]


# -- the clinic, on a run_agent harness -----------------------------------------------------------

def test_a_run_agent_visit_has_no_events_and_records_each_prompt(finished):
    case = {"tools": [{"name": "read", "error": "no such file"}],
            "replies": [lab.reply(lab.call("read", {"path": "x"}))],
            "prompts": [{"text": "Read x."}, {"text": "Again?"}]}

    seen = clinic.visit(finished, case)

    assert seen.loop == "run_agent" and seen.events == [[], []]
    assert [lab.shape(r) for r in seen.records] == ["U A[c1] R(c1) A", "U A[c1] R(c1) A U A"]
    assert [(r.call_id, r.is_error) for r in seen.runs] == [("c1", True)]
    assert "events" not in seen.describe()
    assert rules.judge(seen) == []


@pytest.mark.parametrize("case, words", [
    ({"prompts": [{"text": "Hi.", "walk_away_after": 2}]}, "nothing to walk away after"),
    ({"prompts": [{"text": "Hi."}], "tools": [{"name": "t", "result": "ok", "steer": "Stop."}]},
     "takes no steering"),
], ids=["walk-away", "steer"])
def test_a_run_agent_harness_refuses_what_only_a_Harness_can_do_with_a_sentence(finished, case, words):
    assert clinic.problem(case) is None  # a case B's harnesses could run
    assert words in clinic.problem(case, finished)
    with pytest.raises(clinic.CaseError, match=words):
        clinic.visit(finished, case)


@pytest.mark.parametrize("limit", [0, -1, "2", 2.0, True, 51])
def test_max_turns_is_a_whole_number_of_requests(limit):
    assert "max_turns" in clinic.problem({"prompts": [{"text": "Hi."}], "max_turns": limit})


def test_the_limit_rule_counts_requests_and_the_harness_s_stop_note_is_no_invention(finished):
    asks = {"tools": [{"name": "step", "result": "ok"}],
            "replies": [lab.reply(lab.call("step", {"n": n})) for n in range(4)],
            "prompts": [{"text": "Go."}], "max_turns": 2}
    without = dict(asks)
    del without["max_turns"]

    healthy, runaway = clinic.visit(finished, asks), clinic.visit(harness("dunlin"), asks)

    assert len(healthy.requests) == 2 and rules.judge(healthy) == []
    assert [b.rule for b in rules.judge(runaway)] == ["limit"]
    assert "made 3 requests; max_turns is 2" in rules.judge(runaway)[0].what
    assert rules.judge(clinic.visit(harness("dunlin"), without)) == []


def test_a_lesson_10_harness_takes_max_turns_from_the_case_too():
    ten = load_harness(lessons.lesson(10).finished)
    asks = {"tools": [{"name": "step", "result": "ok"}],
            "replies": [lab.reply(lab.call("step", {"n": n})) for n in range(4)],
            "prompts": [{"text": "Go."}], "max_turns": 1}

    seen = clinic.visit(ten, asks)

    assert seen.loop == "Harness" and len(seen.requests) == 1
    assert rules.judge(seen) == []


# -- the casebook ---------------------------------------------------------------------------------

def test_the_casebook_of_A_holds_finch_on_lesson_05_and_B_s_is_unchanged():
    book = casebook.of("A")

    assert book.names == ("finished", "finch") and book.live()
    assert book.harness("finch").MISSING == "system_prompt_never_stored"
    assert book.harness("finished").__name__ == "harness" and not hasattr(book.harness("finished"), "Harness")
    assert casebook.of("B").names == ("finished", "fir") and casebook.harness("fir").MISSING
    with pytest.raises(ValueError, match="not 'fir'"):
        book.harness("fir")


# -- the report ------------------------------------------------------------------------------------

def test_a_wrong_diagnosis_is_shown_beside_the_rule_its_case_broke(tmp_path):
    answer = tmp_path / "doctor_a.py"
    answer.write_text(CHECKPOINT.finished.read_text()
                      + '\nDIAGNOSIS = dict(DIAGNOSIS, crane="loop_until_it_stops_asking")\n')

    run = lab_check("--harness", str(answer), "--lesson", "A", "-k", "crane")

    assert run.returncode == 1, run.stdout + run.stderr
    evidence = run.stdout[run.stdout.index("what case_crane did on crane:"):]
    assert "ended: a run ends only when the model stops asking" in evidence, evidence
    assert "the record:" in evidence, evidence


def test_a_requirement_is_said_as_one_and_a_passing_hand_in_points_at_lesson_06_s_edition(tmp_path):
    dangling = tmp_path / "dangling" / "doctor_a.py"
    dangling.parent.mkdir()
    dangling.write_text(CHECKPOINT.finished.read_text() + (
        '\ndef case_crane():\n    return {"record": [lab.user("Read x."), lab.reply(lab.call('
        '"read", {"path": "x"}, id="c9"))], "prompts": [{"text": "Go on."}]}\n'))
    handed_in = tmp_path / "handed-in" / "doctor_a.py"  # alone, as a hand-in is: no harness.py
    handed_in.parent.mkdir()
    handed_in.write_text(CHECKPOINT.finished.read_text())

    broke = lab_check("--harness", str(dangling), "--lesson", "A", "-k", "crane case")
    passed = lab_check("--harness", str(handed_in), "--lesson", "A")

    assert broke.returncode == 1, broke.stdout + broke.stderr
    assert "case_crane must keep every rule on lesson 05's finished harness" in broke.stdout
    assert "on it, it broke `provider`" in broke.stdout, broke.stdout
    assert "got:      provider: the provider never refuses a request" in broke.stdout, broke.stdout
    assert "keeps every rule" not in broke.stdout
    assert passed.returncode == 0, passed.stdout + passed.stderr
    said = " ".join(passed.stdout[passed.stdout.rindex("next: "):].split())
    assert said.startswith("next: lesson 06 · The file that ate the context, in an edition of its "
                           "own; it starts from your lesson 05 harness.py"), said
    assert "--next" not in said, said


def test_the_hint_a_report_suggests_after_k_names_one_test_of_the_whole_lab(tmp_path):
    answer = tmp_path / "doctor_a.py"
    answer.write_text(CHECKPOINT.starter.read_text())

    run = lab_check("--harness", str(answer), "--lesson", "A", "-k", "crane case")
    words = run.stdout[run.stdout.index("Stuck? lab-check --hint ") + 24:].split("\n")[0].strip()
    asked = lab_check("--harness", str(answer), "--lesson", "A", "--hint", words.strip('"'))

    assert run.returncode == 1 and words == '"crane case"', run.stdout
    assert asked.returncode == 0 and 'hints for "crane case breaks' in asked.stdout, \
        asked.stdout + asked.stderr
    assert hints.matching(hints.every_test(CHECKPOINT), "crane") != \
        ["test_crane_case_breaks_a_rule_on_crane_and_none_on_the_finished_harness"]


# -- hints, the walkthrough -------------------------------------------------------------------------

def test_every_graded_test_has_a_question_and_an_outline_and_a_section_the_notebook_has():
    guide = hints.guide(CHECKPOINT)
    headings = {line.lstrip("# ").strip() for line in
                (CHECKPOINT.folder / notebook.SOURCE).read_text().splitlines()
                if line.startswith(("# ## ", "# ### "))}
    written = (CHECKPOINT.folder / "hints.toml").read_text()

    for name in tomllib.loads(CHECKPOINT.manifest.read_text())["tests"]:
        assert len(guide.hints(name)) == 2, name
        assert guide.hints(name)[0].rstrip().endswith("?"), name
        assert guide.section(name) in headings, f"{name}: {guide.section(name)!r}"
    for gap in FIVE:
        assert guide.section(gap=gap) in headings, gap
    assert [i for i in IDEAS if i in written] == []
    assert [line for line in leaks.answer_lines(CHECKPOINT.finished.read_text()) if line in written] == []


def test_no_hint_and_no_paragraph_before_the_passed_fold_tells_one_harness_from_another():
    """What each harness does wrong is the checkpoint's to find out: a hint says the same of
    all five but their names, and the walkthrough says it only in the fold for after passing."""
    import re

    guide = hints.guide(CHECKPOINT)
    for kind in ("case_breaks_a_rule_on_{0}_and_none_on_the_finished_harness",
                 "diagnosis_names_the_idea_it_is_missing"):
        told = {name: [hint.replace(name, "X") for hint in
                       guide.hints(f"test_{name}_" + kind.format(name))] for name in FIVE}
        assert len({repr(t) for t in told.values()}) == 1, told
    assert len({guide.section(gap=name) for name in FIVE}) == 1
    source = (CHECKPOINT.folder / notebook.SOURCE).read_text()
    before = source  # the walkthrough names no harness's missing idea anywhere (no fold of answers either)
    named = re.compile(r"(?<!case_)(?<![\"'])\b(" + "|".join(FIVE) + r")\b(?!\"|'(?!s))")
    for paragraph in re.split(r"\n#?\s*\n", before):
        if paragraph.lstrip().startswith("#"):
            found = set(named.findall(paragraph))
            assert len(found) in (0, len(FIVE)), paragraph


def test_the_build_s_cell_tries_each_case_on_one_s_own_lesson_05_harness_and_a_broken_copy(tmp_path, capsys):
    """The walkthrough's "try-a-case" cell, with the two paths a student fills in: lesson 05's
    finished harness for theirs, and a copy of it with one idea taken out (dunlin's patch, put
    in as a student would by hand)."""
    import json

    cells = json.loads((CHECKPOINT.folder / notebook.NOTEBOOK).read_text())["cells"]
    source = "".join(next(c for c in cells if c.get("id") == "try-a-case")["source"])
    own, broken = tmp_path / "harness.py", tmp_path / "broken_05.py"
    own.write_text(gap_markers.solve(lessons.lesson(5).finished.read_text()))  # a student's, whole
    broken.write_text(patches.apply(own.read_text(),
                                    (CHECKPOINT.folder / "harnesses" / "dunlin.patch").read_text()))
    (tmp_path / "doctor_a.py").write_text(CHECKPOINT.finished.read_text())
    filled = source.replace('LESSON_05 = ""', f"LESSON_05 = {str(own)!r}", 1) \
                   .replace('BROKEN = ""', f"BROKEN = {str(broken)!r}", 1)
    assert filled.count(str(own)) == 1 and filled.count(str(broken)) == 1

    exec(compile(filled, "try-a-case", "exec"),
         {"ROOT": tmp_path, "book": casebook.of("A"), "lessons": lessons, "clinic": clinic,
          "rules": rules, "pathlib": pathlib, "os": __import__("os")})
    printed = capsys.readouterr().out

    assert printed.count("on lesson 05's harness no rule broken (fair)") == 5, printed
    assert "case_dunlin: on lesson 05's harness no rule broken (fair); on " in printed
    assert "broken_05.py limit" in printed, printed


def test_a_case_the_edition_holds_no_session_for_is_refused_saying_how_to_try_it():
    book = casebook.of("A")
    book.live = lambda: False  # as in a student's copy

    with pytest.raises(casebook.NotSaved) as refused:
        book.visit("finished", {"prompts": [{"text": "Something no cell asks."}]})

    assert "your own harness.py of lesson 05" in str(refused.value)
    assert "rules.judge(clinic.visit(load_harness(PATH), case))" in str(refused.value)


def test_the_questions_right_answers_sit_at_different_letters_and_none_is_named_by_its_letter():
    import re

    source = (CHECKPOINT.folder / notebook.SOURCE).read_text()
    options = re.findall(r"<summary><b>([A-Z])</b> · .*?</details>", source, re.DOTALL)
    right = [letter for letter, block in zip(options, re.findall(
        r"<summary><b>[A-Z]</b> · (.*?)</details>", source, re.DOTALL)) if "# ✓" in block]
    prose = re.sub(r"<summary><b>[A-Z]</b>", "", source)

    assert len(right) == 7, right
    assert max(right.count(letter) for letter in "ABC") <= 3, right
    assert not re.search(r"\b(?:option|answer|choice)s? [A-C]\b|\([A-C]\)|\*\*[A-C]\*\*", prose)


def test_the_walkthrough_names_its_figures_the_harnesses_lessons_and_the_next_lab():
    markdown = (CHECKPOINT.folder / notebook.SOURCE).read_text()
    following = course.after(course.find("A"))

    assert following.label == "06"
    assert f"**Next:** {following.label} · {following.title}." in markdown
    for figure in ("Figure A.1", "Figure A.2", "Figure A.3"):
        assert f"**{figure}** ·" in markdown, figure
    for name, lesson in (("auk", "02"), ("bittern", "03"), ("crane", "04"), ("dunlin", "05"),
                         ("egret", "05")):  # each harness's missing idea is the student's to find
        assert f"- {name}: lesson {lesson}'s" not in markdown, name
    assert "agent-loop.ts:" in markdown and "83378aa" in markdown and "a83fcae" in markdown


# -- the student's edition ------------------------------------------------------------------------

@pytest.fixture(scope="module")
def edition(tmp_path_factory):
    """Checkpoint A's student edition, built once for every test of it here."""
    folder = tmp_path_factory.mktemp("A") / "edition"
    made = lab_check("--release", "A", "--output", str(folder))
    assert made.returncode == 0, made.stdout + made.stderr
    return folder


def lab_check_in(folder, *args):
    """The edition's own lab-check, run in it as a student runs it (its lab/, not the course's)."""
    return subprocess.run([sys.executable, str(folder / "lab" / "lab_check.py"), *args],
                          capture_output=True, text=True, cwd=folder, timeout=300)


def test_the_edition_holds_no_answer_and_its_notebook_replays_finch(edition):
    folder = edition
    files = {str(p.relative_to(folder)) for p in folder.rglob("*") if p.is_file()}

    assert leaks.leaks(folder, CHECKPOINT) == []
    assert {"doctor_a.py", "ideas.toml", "sessions.json", "walkthrough.ipynb", "tests.py"} <= files
    assert not [f for f in files if f.startswith(("harnesses", "finch", "finished", "right", "wrong"))]
    assert (folder / "doctor_a.py").read_text() == CHECKPOINT.starter.read_text()
    assert "finch and lesson 05's finished one" in (folder / "walkthrough.ipynb").read_text()


def test_a_bare_lab_check_in_the_edition_checks_doctor_a_and_hint_lists_the_words(edition):
    bare = lab_check_in(edition)
    listed = lab_check_in(edition, "--hint")
    two = lab_check_in(edition, "--hint", "auk")
    one = lab_check_in(edition, "--hint", "auk case")

    assert bare.returncode == 2 and "doctor_a.py" in bare.stdout, bare.stdout + bare.stderr
    assert "no numbered lessons" not in bare.stdout + bare.stderr
    assert '"auk case"' in listed.stdout and '"egret diagnosis"' in listed.stdout, listed.stdout
    assert two.returncode == 2 and '"auk diagnosis"' in two.stderr, two.stderr
    assert one.returncode == 0 and "1. " in one.stdout, one.stdout + one.stderr


def test_the_edition_s_check_names_a_malformed_case_and_a_misspelt_idea_then_says_ready(edition):
    doctor = CHECKPOINT.finished.read_text()
    (edition / "slips.py").write_text(
        doctor + '\ndef case_auk():\n    return {"prompt": [{"text": "Hi."}]}\n\n'
        'DIAGNOSIS = dict(DIAGNOSIS, egret="empty_failure_left_outt", crane=DIAGNOSIS["dunlin"])\n')
    (edition / "whole.py").write_text(doctor)
    try:
        slips = lab_check_in(edition, "--harness", "slips.py", "--lesson", "A")
        whole = lab_check_in(edition, "--harness", "whole.py", "--lesson", "A")
    finally:
        (edition / "slips.py").unlink()
        (edition / "whole.py").unlink()

    assert slips.returncode == 2 and "Not ready to hand in: 3 things" in slips.stdout, slips.stdout
    assert "case_auk() gives no case lab.testkit.clinic can run: a case has no 'prompt'" in slips.stdout
    assert "DIAGNOSIS[\"egret\"] is 'empty_failure_left_outt', which is no id" in slips.stdout
    assert "for crane and dunlin" in slips.stdout, slips.stdout
    assert whole.returncode == 2, whole.stdout + whole.stderr
    assert "5 cases well formed, 5 different ideas: ready to hand in" in whole.stdout, whole.stdout
    assert "Hand doctor_a.py in" in whole.stdout and "lesson 05" in whole.stdout, whole.stdout
