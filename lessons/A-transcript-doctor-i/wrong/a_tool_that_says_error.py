"""Wrong: crane's tool reports its failure in the words it returns, "Error: ...", instead of
raising. It returned, so its result is not an is_error result, and crane carries on as the
finished harness does.
Fails: test_crane_case_breaks_a_rule_on_crane_and_none_on_the_finished_harness
"""


def case_crane():
    return {"tools": [{"name": "read", "result": "Error: File not found: notes.md"}],
            "replies": [lab.reply(lab.call("read", {"path": "notes.md"}))],
            "prompts": [{"text": "Summarise notes.md."}]}
