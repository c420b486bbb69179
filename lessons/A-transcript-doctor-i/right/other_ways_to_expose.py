"""Right, another way: each harness exposed by a different session from the reference's.

auk: a call that fails (a tool nobody has), whose error result auk still files under the
name. bittern: three calls, the last two never answered. crane: a call to a tool the session
lacks, in the middle of a reply of three. dunlin: max_turns=1 and a model that asks twice.
egret: a record handed over with an empty failure already in it.
"""

DIAGNOSIS = {"egret": "empty_failure_left_out", "dunlin": "max_turns_counts_every_request",
             "crane": "run_carries_on_after_a_tool_error",
             "bittern": "every_call_answered_in_call_order", "auk": "result_under_the_calls_id"}


def case_auk():
    return {"replies": [lab.reply(lab.call("grep", {"pattern": "TODO"}, id="g1"))],
            "prompts": [{"text": "Find the TODOs."}]}


def case_bittern():
    return {"tools": [{"name": "step", "result": "done"}],
            "replies": [lab.reply(lab.call("step", {"n": 1}), lab.call("step", {"n": 2}),
                                  lab.call("step", {"n": 3}))],
            "prompts": [{"text": "Do the three steps."}]}


def case_crane():
    return {"tools": [{"name": "step", "result": "done"}],
            "replies": [lab.reply(lab.call("step", {"n": 1}), lab.call("jump", {}),
                                  lab.call("step", {"n": 3})), lab.say("Jump does not exist.")],
            "prompts": [{"text": "Step, jump, step."}]}


def case_dunlin():
    return {"tools": [{"name": "step", "result": "done"}],
            "replies": [lab.reply(lab.call("step", {"n": 1})), lab.reply(lab.call("step", {"n": 2}))],
            "prompts": [{"text": "Step until I say stop."}], "max_turns": 1}


def case_egret():
    return {"record": [lab.user("Hello?"), lab.fail("overloaded")],
            "prompts": [{"text": "Still there?"}]}
