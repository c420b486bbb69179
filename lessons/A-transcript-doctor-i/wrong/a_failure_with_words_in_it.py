"""Wrong: egret's case fails a reply after it got a few words out. A failed reply with words is
no empty failure: every harness keeps it in the view as it was, egret included.
Fails: test_egret_case_breaks_a_rule_on_egret_and_none_on_the_finished_harness
"""


def case_egret():
    return {"replies": [lab.fail("connection reset", lab.text("Let me look"))],
            "prompts": [{"text": "Hello?"}, {"text": "Are you there?"}]}
