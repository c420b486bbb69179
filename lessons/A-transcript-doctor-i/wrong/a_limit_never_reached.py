"""Wrong: dunlin's case sets max_turns=3 for a model that stops asking after its second reply.
The run ends by itself on its third request, within the limit on every harness, so how dunlin
counts is never put to the test.
Fails: test_dunlin_case_breaks_a_rule_on_dunlin_and_none_on_the_finished_harness
"""


def case_dunlin():
    return {"tools": [{"name": "step", "result": "ok"}],
            "replies": [lab.reply(lab.call("step", {})), lab.reply(lab.call("step", {}))],
            "prompts": [{"text": "Two steps."}], "max_turns": 3}
