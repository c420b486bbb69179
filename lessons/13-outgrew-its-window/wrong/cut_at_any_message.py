"""Counts tokens from the end and cuts wherever the budget runs out, at any message but a tool
result. A steer typed among the results is a user message, so the cut lands between a call and
its results, and the kept part opens with a result whose call is in the summary.

Fails: test_a_cut_is_never_made_between_a_call_and_its_results
"""


def safe_cuts(messages):
    return [i for i, m in enumerate(messages) if m["role"] in ("user", "assistant")]
