"""Wrong: ash's case steers while the only call of its batch runs. The steer is then asked for
after the batch's last result, which is between batches on every harness: nothing breaks.
Fails: test_ash_case_breaks_a_rule_on_ash_and_none_on_the_finished_harness
"""


def case_ash():
    return {"tools": [{"name": "step", "result": "ok", "steer": "Use spaces, not tabs."}],
            "replies": [lab.reply(lab.call("step", {"n": 1}))],
            "prompts": [{"text": "Do the step."}]}
