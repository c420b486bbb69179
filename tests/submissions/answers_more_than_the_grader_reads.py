# base: finished
# args: --time-limit 2 -k "missing_result or orphan"
# exit: 1
# says: more than the 4194304 the grader reads
# closing: 0 passed, 2 failed
# Answers each repair with 120,000 messages, about 4.7 MB of JSON: more than the grader reads of
# one answer. The grader reads no further than the cap (it never holds, decodes or judges the
# rest), and the test fails saying how large the answer was and what the most is.


def repair_tool_history(messages):
    return [{"role": "user", "content": str(k)} for k in range(120_000)]
