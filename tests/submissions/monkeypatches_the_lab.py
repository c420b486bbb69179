# base: starter
# args: --time-limit 3
# exit: 1
# closing: 1 passed, 21 failed
# The starter with a repair that copies every message, and the lab patched at import so that
# much more would pass if the grader trusted the student's process: the strict validator and
# the scripted model accept anything, and a verdict module (if there were one) never fails.
# None of it reaches the grader: its validator, model and verdicts are its own, on its side of
# the sandbox, which holds no grading code to patch. (The facts only this process can see are
# forged elsewhere: forges_the_facts.py.)

import sys

import lab
import lab.kit.model
import lab.kit.validate

lab.validate = lab.kit.model.validate = lab.kit.validate.validate = lambda messages: []
lab.ScriptedModel.complete = lambda self, system, messages, tools: lab.say("Fine.")
PATCHED = [name for name in sys.modules if name.startswith(("lab.grader", "lab.worker", "lab.testkit"))]  # none to patch


def repair_tool_history(messages):
    return [dict(m) for m in messages]
