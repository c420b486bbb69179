"""Wrong: egret's case hands the harness a record whose last reply's call has no result (a
session cut off mid-tool) and then prompts. Lesson 05's harness has no repair, so the
finished harness sends the dangling call too and is refused: a bug of the case, not egret's.
Fails: test_egret_case_breaks_a_rule_on_egret_and_none_on_the_finished_harness
"""


def case_egret():
    bash = lab.call("bash", {"command": "pytest"}, id="t1")
    return {"record": [lab.user("Run the tests."), lab.reply(bash), lab.fail("503")],
            "prompts": [{"text": "Try again."}]}
