# base: starter
# args: --time-limit 3 -k "missing or orphan or late or first_of_two or cut_off"
# exit: 1
# closing: 0 passed, 5 failed
# No repair at all: a table of the answers to the five cards as the lesson prints them, keyed
# by the wreck's shape, and every tool result dropped for anything else. The graded wrecks get
# provider-style ids and a lead-in of healthy turns from each grading's seed: no key matches.

import copy as _copy

import damaged as _damaged
import lab as _lab

INTERRUPTED = ("Tool call interrupted: no result was recorded. It may not have run, or may have "
               "run partly; check before repeating it.")


def _answer_for(record):
    missing = {"role": "toolResult", "content": INTERRUPTED, "is_error": True}
    if record == _damaged.missing_result:
        return record[:3] + [dict(missing, tool_call_id="c2", tool_name="bash")] + record[3:]
    if record == _damaged.failed_reply_with_a_call:
        return record[:2] + [dict(missing, tool_call_id="c1", tool_name="write")] + record[2:]
    if record == _damaged.orphan_result:
        return [record[0], record[1], record[3]]
    if record == _damaged.late_result:
        return [record[0], record[1], record[3], record[2], record[4]]
    if record == _damaged.duplicate_result:
        return record[:3] + record[4:]
    return None


def repair_tool_history(messages):
    known = _answer_for(_copy.deepcopy(list(messages)))
    if known is not None:
        return known
    return [m for m in messages if m["role"] != "toolResult"]
