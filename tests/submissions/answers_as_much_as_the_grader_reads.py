# base: finished
# args: --time-limit 2 -k "missing_result or orphan"
# exit: 1
# says: first difference: messages[1]
# closing: 0 passed, 2 failed
# Answers each repair with 95,000 messages, about 4 MB of JSON: just under the most the grader
# reads of one answer. The grader decodes all of it and judges it as it would any answer (the
# check, the shapes, the first difference, the report clipped), which costs it a second or so:
# what is judged is capped in bytes, so the grader's time and memory stay bounded, and the grade
# arrives with the lesson's own words within the test's time.


def repair_tool_history(messages):
    return [{"role": "user", "content": str(k)} for k in range(95_000)]
