"""Right, another way: each harness exposed by a different session from the reference's.

ash: three steps, the steer typed during the second. birch: two calls in one reply, walked
away at the ninth event, the end of the second tool on birch. cedar: a failed reply with nothing but
a call. dogwood: a record handed over with two results out of call order, which dogwood sorts
in the record itself. elm: the same record, which elm sends unsorted.
"""

DIAGNOSIS = {"elm": "results_directly_after_in_call_order", "dogwood": "record_is_not_the_view",
             "cedar": "failed_reply_not_acted_on", "birch": "mutate_then_announce",
             "ash": "steering_between_batches"}


def _out_of_order():
    a, b = lab.call("read", {"path": "a.py"}, id="r1"), lab.call("read", {"path": "b.py"}, id="r2")
    return [lab.user("Read a.py and b.py."), lab.reply(a, b), lab.tool_result(b, "B = 2\n"),
            lab.tool_result(a, "A = 1\n")]


def case_ash():
    return {"tools": [{"name": "step", "result": "done"},
                      {"name": "check", "result": "fine", "steer": "Stop after this one."}],
            "replies": [lab.reply(lab.call("step", {"n": 1}), lab.call("check", {}),
                                  lab.call("step", {"n": 3})), lab.say("Stopped.")],
            "prompts": [{"text": "Do the three steps."}]}


def case_birch():
    return {"tools": [{"name": "step", "result": "done"}],
            "replies": [lab.reply(lab.call("step", {"n": 1}), lab.call("step", {"n": 2}))],
            "prompts": [{"text": "Do both.", "walk_away_after": 9}, {"text": "Which ran?"}]}


def case_cedar():
    return {"tools": [{"name": "bash", "result": "deleted"}],
            "replies": [lab.fail("connection reset", lab.call("bash", {"command": "rm -r build"}))],
            "prompts": [{"text": "Clean the build."}, {"text": "Did it work?"}]}


def case_dogwood():
    return {"record": _out_of_order(), "prompts": [{"text": "Which is bigger?"}]}


def case_elm():
    return {"record": _out_of_order(), "prompts": [{"text": "Which is bigger?"}]}
