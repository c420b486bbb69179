"""Wrong: bittern's case asks for two files, but in two replies of one call each. bittern
answers the first call of every reply, which here is every call: it looks finished.
Fails: test_bittern_case_breaks_a_rule_on_bittern_and_none_on_the_finished_harness
"""


def case_bittern():
    return {"tools": [{"name": "read", "result": "x = 1\n"}],
            "replies": [lab.reply(lab.call("read", {"path": "a.py"})),
                        lab.reply(lab.call("read", {"path": "b.py"}))],
            "prompts": [{"text": "Read a.py and b.py."}]}
