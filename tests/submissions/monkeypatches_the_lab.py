# base: starter
# args: --time-limit 3
# exit: 1
# closing: 4 passed, 16 failed
# The starter with a repair that copies every message (4 passed, 16 failed, as this file
# gets without the patches), and the lab patched at import so that much more would pass if
# the grader trusted it: the strict validator and the scripted model accept anything, the
# verdicts never fail, and the child's own reporting code says every message came back as
# the very object it was given.

import lab
import lab.grading.child
import lab.grading.verdict
import lab.model
import lab.validate

lab.validate = lab.model.validate = lab.validate.validate = lambda messages: []
lab.ScriptedModel.complete = lambda self, system, messages, tools: lab.say("Fine.")
lab.grading.verdict.expect = lambda *args, **kwargs: None
lab.grading.verdict.GradeFailure = type("NeverRaised", (Exception,), {})
lab.grading.child._call = lambda function, name, messages: {"data": {
    "type": "list", "returned": messages, "origins": list(range(len(messages))),
    "returned_input": False, "input_after": messages, "input_kept_objects": True}}


def repair_tool_history(messages):
    return [dict(m) for m in messages]
