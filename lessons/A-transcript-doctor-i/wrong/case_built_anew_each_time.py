"""Wrong: case_auk counts how often it is built and gives the exposing session only the first
time, a harmless one after that. A case that changes from one build to the next is no
evidence: nobody can run it again and see what the report saw.
Fails: test_auk_case_breaks_a_rule_on_auk_and_none_on_the_finished_harness
"""

BUILT = []


def case_auk():
    BUILT.append(1)
    if len(BUILT) > 1:
        return healthy_session()
    return {"tools": [{"name": "read", "result": "PORT = 8080\n"}],
            "replies": [lab.reply(lab.call("read", {"path": "settings.toml"}))],
            "prompts": [{"text": "Which port is set in settings.toml?"}]}
