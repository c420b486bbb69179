"""Wrong: birch's case walks away at the fifth event, tool_execution_start, before the tool
has run. Every harness answers INTERRUPTED for a tool that never ran, birch included, so the
case breaks nothing there.
Fails: test_birch_case_breaks_a_rule_on_birch_and_none_on_the_finished_harness
"""


def case_birch():
    return {"tools": [{"name": "bash", "result": "3 passed"}],
            "replies": [lab.reply(lab.text("Running the tests."),
                                  lab.call("bash", {"command": "pytest"}))],
            "prompts": [{"text": "Run the tests.", "walk_away_after": 5},
                        {"text": "Did they pass?"}]}
