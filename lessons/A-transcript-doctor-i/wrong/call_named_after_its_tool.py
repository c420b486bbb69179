"""Wrong: auk's case gives its call an id of its own, and picks the tool's name for it. auk
files the result under the tool's name, which is now also the call's id, so the pair matches
and nothing breaks.
Fails: test_auk_case_breaks_a_rule_on_auk_and_none_on_the_finished_harness
"""


def case_auk():
    return {"tools": [{"name": "read", "result": "PORT = 8080\n"}],
            "replies": [lab.reply(lab.call("read", {"path": "config.py"}, id="read"))],
            "prompts": [{"text": "What port does config.py set?"}]}
