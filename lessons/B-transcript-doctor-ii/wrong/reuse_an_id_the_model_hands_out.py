"""Wrong: elm's record names its call c1 by hand, and then the model is asked for a call
without an id, which the scripted model also numbers c1. The second request holds two calls
with one id, and the provider refuses it on the finished harness as well: a bug of the case.
Fails: test_elm_case_breaks_a_rule_on_elm_and_none_on_the_finished_harness
"""


def case_elm():
    read = lab.call("read", {"path": "config.py"}, id="c1")
    return {"record": [lab.user("What is in config.py?"), lab.reply(read),
                       lab.user("Take your time."), lab.tool_result(read, "PORT = 9090\n")],
            "tools": [{"name": "read", "result": "PORT = 9090\n"}],
            "replies": [lab.reply(lab.call("read", {"path": "config.py"}))],
            "prompts": [{"text": "Read it again."}]}
