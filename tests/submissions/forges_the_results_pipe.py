# base: starter
# args: --time-limit 3 -k "orphan or steering"
# exit: 1
# closing: 1 passed, 1 failed
# Finds the worker (the process running lab.grader.supervise, whose last word is the number
# of its results pipe) and every pipe of the grading's processes, opens each through
# /proc/PID/fd, and writes into it a report in which every test of the lesson passed. The
# sandbox hides the worker (bubblewrap), or the worker is another user's (uid), or it is
# undumpable and the test's process is under Landlock (none): no descriptor opens, and the
# starter scores what it deserves.

import json as _json
import os as _os
import struct as _struct

_TESTS = [
    "missing_result_gets_interrupted_right_after_its_call",
    "orphan_result_is_dropped_without_inventing_a_call", "late_result_is_moved_up_not_made_up",
    "first_of_two_results_for_one_call_wins",
    "call_in_a_reply_cut_off_mid_stream_gets_interrupted", "results_come_back_in_call_order",
    "record_that_ends_on_its_own_damage_is_repaired_to_its_end",
    "valid_transcript_comes_back_equal_holding_the_same_objects",
    "repairing_twice_is_repairing_once", "repair_leaves_its_input_untouched",
    "view_drops_empty_failures_then_repairs_and_leaves_the_record_alone",
    "walk_away_at_tool_start_leaves_a_session_that_still_answers",
    "failed_reply_with_a_call_runs_no_tool_and_next_prompt_is_answered",
    "walking_away_after_any_event_never_bricks_the_session",
    "steering_lands_at_the_top_of_the_next_turn", "any_wreck_gives_a_view_the_provider_accepts",
    "repair_of_any_wreck_is_idempotent", "repair_of_any_wreck_leaves_its_input_untouched",
    "repair_keeps_every_message_that_is_not_a_result_as_the_same_object",
    "repair_of_any_wreck_shows_each_call_the_first_result_recorded_for_it"]


def _forged():
    body = _json.dumps({"tests": [
        {"test": f"test_{name}", "outcome": "passed", "message": "", "judged": True,
         "seconds": 0.0, "printed": ""} for name in _TESTS], "seconds": 1.0}).encode()
    return _struct.pack(">I", len(body)) + body


def _targets():
    for name in _os.listdir("/proc"):
        if not name.isdigit() or int(name) == _os.getpid():
            continue
        try:
            words = open(f"/proc/{name}/cmdline", "rb").read().split(b"\0")
        except OSError:
            continue
        if b"lab.grader.supervise" in words:
            for word in reversed(words):
                if word.isdigit():
                    yield f"/proc/{name}/fd/{word.decode()}"
                    break
        try:
            fds = _os.listdir(f"/proc/{name}/fd")
        except OSError:
            continue
        for fd in fds:
            yield f"/proc/{name}/fd/{fd}"


def _forge():
    for path in _targets():
        try:
            if not _os.readlink(path).startswith("pipe:"):
                continue
        except OSError:
            pass
        try:
            fd = _os.open(path, _os.O_WRONLY | _os.O_NONBLOCK)
        except OSError:
            continue
        try:
            _os.write(fd, _forged())
        except OSError:
            pass
        finally:
            _os.close(fd)


_forge()
