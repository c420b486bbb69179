"""The graded tests of lesson 11, "the power cable".

Run them with lab_check, never by importing your harness here: every test runs your harness
in a process of its own and judges the plain data that comes back.

    lab-check --harness harness.py --lesson 11

First the record on disk (saved before it is announced, loaded back after a crash), then the
resumed sessions (the power cut after every event and at every byte of a job that writes
files, what resume tells its user, and once a real process killed), then each rule of
repair_history, then the view, and last the same rules on histories hypothesis makes up, full
of repeated and empty ids. The rules are numbered as the lesson's "The rules of
repair_history" numbers them. The manifest lists the gaps in the order to fill them (persist,
load, repair, view, resume): each gap's tests need only that gap and the ones before it.
"""

import copy
import json
import re

from hypothesis import example, given, settings
from hypothesis import strategies as st

import lab
from lab.testkit import PowerCut
from lab.testkit import expect, expect_a_copy, expect_untouched

INTERRUPTED = ("Tool call interrupted: no result was recorded. It may not have run, or may have "
               "run partly; check before repeating it.")
INTERRUPTED_READ_ONLY = ("Tool call interrupted: no result was recorded. This tool only reads, "
                         "so nothing was changed; run it again if its result is still needed.")
STAND_INS = (INTERRUPTED, INTERRUPTED_READ_ONLY)
JOB_EVENTS = 21  # the job of scenarios.py, left to finish
READ_STARTS = 14  # its event at which the read of a (call_0 again) starts

PERSIST = ("record, persist, then announce: a message is appended to the file as one line of "
           "JSON before its message_end is handed out, so a crash never takes back a message "
           "anybody was told about.")
ONE_LINE_EACH = ("the record on disk is one line of JSON a message, in the order of the record, "
                 "each line ending in a newline; nothing else is written.")
TORN = ("loading: every line that is a whole JSON object is a message, loaded in order; a line "
        "a crash cut short is set aside, as its text, never half-read, and never takes a whole "
        "line down with it.")
ANSWERS = ("after a power cut the harness resumes from its file and answers the next two "
           "prompts: the provider accepts every request it sends.")
NOTHING_LOST = ("no announced message is lost: everything the harness announced before the power "
                "went is loaded again, in order.")
NOTHING_TORN = ("no torn message is loaded: every message loaded is, whole, one the harness "
                "recorded, in the order it recorded them.")
NO_FALSE_ALARM = ("the model is never told a tool whose result was announced was interrupted: "
                  "that result is on disk, and the resumed view shows it.")
SET_ASIDE = ("resume says what it set aside: exactly the torn last line, as text, and nothing "
             "when the file ends on a whole line.")
NOTICE = ("resume tells its user which calls did not finish: .interrupted lists every one of "
          "them, under the ids the model is shown (rule 4 may have renamed them), and .notice "
          "names each by that id, its tool and the file it would have changed, so the user "
          "knows what to look at before anything is repeated.")
NOTICE_SET_ASIDE = ("resume tells its user about each line it set aside: .notice quotes the start "
                    "of it (its first 20 characters at least), as well as naming each call that "
                    "did not finish.")
CLOSED = ("a last line that lost only its newline is a whole message: it is loaded, nothing is "
          "set aside, and resume closes it with a newline before appending, so the next "
          "message is a line of its own and loading the file again gives the resumed record.")
APPEND_ONLY = ("the file is only ever appended to: the bytes that survived the cut stay, first, "
               "untouched; a torn line is closed with a newline, never merged with the next "
               "message; loading the file again gives the resumed record and the same set-aside "
               "line.")
KILLED = ("a real process killed with SIGKILL mid-run: a fresh process resumes from the real "
          "file, knows which call did not finish, and answers the next prompts.")

RULE_SPAN = ("rule 1, spans: a span runs from an assistant message with calls to the next "
             "assistant message; its results move to just after the calls, in call order, and "
             "the rest of the span (a steer) follows them in its own order.")
RULE_OWN_SPAN = ("rule 1, a result pairs only within its own span: a result recorded after the "
                 "next assistant message is not moved back; its call gets a stand-in (rule 2).")
RULE_WORDING = ("rule 2, the stand-in's words: INTERRUPTED_READ_ONLY for a tool is_read_only says "
                "only reads, INTERRUPTED for any other (and for every tool without "
                "is_read_only); .interrupted lists those calls, ids as sent.")
RULE_ORPHAN = ("rule 3, a result whose call is not in its span is left out, and no call is "
               "invented for it (lesson 10's rule, kept); of two results for one call the "
               "first recorded stays, because the rest of the transcript answered it.")
RULE_REPEATED = ("rule 4, a repeated id becomes {id}_{k} with the smallest k >= 1 that no earlier "
                 "call uses, call and result together; the first call keeps its id.")
RULE_EACH_ID = ("rule 4, each id counts its own k: when several different ids repeat, each "
                "takes the smallest k >= 1 free for it ({id}_1 first), not a number shared with "
                "the other ids.")
RULE_EMPTY = ("rule 5, an empty id becomes call_{m}_{c}: m the message's index in the history "
              "handed to repair_history (not in the view being built), c the call's index among "
              "that message's calls (not among all its blocks); its result takes the same id.")
RULE_PLACEHOLDER = ("rule 6, an assistant message with no calls and only whitespace is dropped as "
                    "if it had never been there: it ends no span and orphans no result.")
UNCHANGED = ("a valid history with unique ids comes back exactly as it was, and nothing is "
             "reported interrupted.")
THE_VIEW = ("the view: context_for_model leaves out an empty failed reply (lesson 5), then sends "
            "the rest through repair_history; the record is not touched.")
SENT_WORDING = ("the view words what it sends by the harness's own is_read_only (rule 2): a read "
                "cut short goes to the model as INTERRUPTED_READ_ONLY, a write as INTERRUPTED.")
RESTARTING = ("a provider that restarts its ids every reply (call_0 again and again), or sends "
              "no ids at all, is answered every time: each request is de-duplicated, while the "
              "record keeps the ids the model sent.")
VALID = "the view of any history is a request the strict provider accepts."
IDEMPOTENT = "idempotent: repairing a repaired history changes nothing."
PURE = ("pure: the history handed over is not changed, and the same history repaired twice "
        "gives the same bytes.")
PURE_RECORD = ("the record is not the view: building the view changes neither the record nor "
               "any message in it (a renamed id lives in a copy).")
PREFIX = ("prefix-stable: the repair of a longer history starts with the bytes of the repair of "
          "any shorter one that ends where an assistant message begins, so a prompt cache "
          "keeps hitting.")
A_COPY = ("code the lesson gives you (lesson 08's snapshot): messages hands out a copy, so a "
          "caller that appends to what it read changes nothing of the harness's record.")
KEPT = ("every message that is not a tool result (placeholders aside) is kept, in order, with "
        "only its call ids renamed.")


# -- small helpers ------------------------------------------------------------------------------

def shaped(messages):
    """The shape of `messages`, or "no message" when there are none."""
    return lab.shape(messages) or "no message"


def one_line(messages):
    return lab.show(messages, clip=60).replace("\n", " | ") or "(nothing)"


def stand_in(call_id, tool_name, words=INTERRUPTED):
    return {"role": "toolResult", "tool_call_id": call_id, "tool_name": tool_name,
            "content": words, "is_error": True}


def is_whole(line):
    try:
        return isinstance(json.loads(line), dict)
    except ValueError:
        return False


def lines_of(messages):
    return "".join(json.dumps(m) + "\n" for m in messages)


def is_blank_reply(message):
    return (message["role"] == "assistant"
            and all(b["type"] == "text" and not b["text"].strip() for b in message["content"]))


def without_ids(message):
    if message["role"] != "assistant":
        return message
    return dict(message, content=[{k: v for k, v in b.items() if k != "id"}
                                  for b in message["content"]])


def told_interrupted(request):
    """(tool, path) of every call that this request answers with a stand-in."""
    calls = {b["id"]: b for m in request if m["role"] == "assistant"
             for b in m["content"] if b["type"] == "toolCall"}
    return {(calls[m["tool_call_id"]]["name"], calls[m["tool_call_id"]]["arguments"].get("path"))
            for m in request if m["role"] == "toolResult" and m["content"] in STAND_INS
            and m["tool_call_id"] in calls}


def finished_calls(events):
    """(tool, path) of every call whose result was announced before the cut."""
    done, running = set(), None
    for event in events:
        if event["type"] == "tool_execution_start":
            running = event["call"]
        elif (event["type"] == "message_end" and event["message"]["role"] == "toolResult"
              and running is not None):
            done.add((running["name"], running["arguments"].get("path")))
    return done


def finished_blocks(events):
    """The call block of every call whose result was announced before the cut."""
    done, running = [], None
    for event in events:
        if event["type"] == "tool_execution_start":
            running = event["call"]
        elif (event["type"] == "message_end" and event["message"]["role"] == "toolResult"
              and running is not None):
            done.append(running)
    return done


def unfinished(calls):
    """(tool, path, id) of each call block of `calls`."""
    return [(c.get("name"), (c.get("arguments") or {}).get("path"), c.get("id")) for c in calls]


def described(calls):
    """(tool, path, id) triples as words: "write b (call_1), read a (call_0_1)", or "none"."""
    return ", ".join(f"{tool} {path} ({call_id})" for tool, path, call_id in calls) or "none"


def names(text, word):
    """Does `text` hold `word` as a word of its own (call_1 is not in call_1_1, b not in "above")?"""
    return bool(re.search(rf"(?<![\w.-]){re.escape(word)}(?![\w.-])", text))


def last_event(seen):
    return seen["events"][-1]["type"] if seen["events"] else "no event"


def judge_the_cut(seen, where):
    """The four promises of a resumed session, after the cut described by `where`."""
    given = f"{where}; the file then held {shaped(seen['loaded'])}"
    refused = [a.get("error_message") for a in seen["answers"] if a.get("stop_reason") == "error"]
    expect(len(seen["answers"]) == 2 and not refused, ANSWERS, given=given,
           expected="both prompts answered", got=f"refused: {refused[0] if refused else ''}")
    announced = [e["message"] for e in seen["events"] if e["type"] == "message_end"]
    expect(seen["loaded"][:len(announced)] == announced, NOTHING_LOST, given=given,
           expected=f"loaded first: {shaped(announced)}", got=seen["loaded"])
    expect(seen["loaded"] == seen["recorded"][:len(seen["loaded"])], NOTHING_TORN, given=given,
           expected=f"a start of what was recorded: {shaped(seen['recorded'])}",
           got=seen["loaded"])
    finished = finished_calls(seen["events"])
    told = set().union(*(told_interrupted(r) for r in seen["requests"]))
    expect(not told & finished, NO_FALSE_ALARM, given=given,
           expected=f"no stand-in for {sorted(finished)}", got=f"stand-ins for {sorted(told & finished)}")


# -- the record on disk ---------------------------------------------------------------------------

def test_every_announced_message_is_already_on_disk_whatever_event_the_power_goes_after(student):
    for k in range(1, JOB_EVENTS + 1):
        seen = student.scenario("power_cut", after_event=k, resume=False)

        announced = [e["message"] for e in seen["events"] if e["type"] == "message_end"]
        on_disk = [json.loads(line) for line in seen["text_at_cut"].split("\n") if is_whole(line)]
        expect(on_disk[:len(announced)] == announced, PERSIST,
               given=f"the power went after event {k} ({last_event(seen)})",
               expected=f"on disk at least: {shaped(announced)}",
               got=f"on disk: {shaped(on_disk)}")


def test_the_file_holds_one_json_line_per_message_in_record_order(student):
    seen = student.scenario("power_cut", resume=False)

    text, record = seen["text_at_cut"], seen["recorded"]
    lines = text.split("\n")
    expect(text.endswith("\n") and len(lines) - 1 == len(record), ONE_LINE_EACH,
           given="the job, left to finish",
           expected=f"{lab.counted(len(record), 'line')}, the last ending in a newline",
           got=f"{lab.counted(len(lines) - 1, 'newline')} in {lab.counted(len(text), 'character')}: "
               f"{text[:120]!r}")
    parsed = [json.loads(line) if is_whole(line) else line for line in lines[:-1]]
    expect(parsed == record, ONE_LINE_EACH, given="the job, left to finish",
           expected=lab.shape(record), got=f"lines: {[str(p)[:60] for p in parsed]}")


def test_a_torn_line_is_set_aside_and_every_whole_line_is_loaded(student):
    u1, u2 = lab.user("Write a.txt."), lab.user("And b.txt.")
    a = lab.reply(lab.text("Writing."), lab.call("write", {"path": "a.txt"}, id="call_0"))
    whole = lines_of([u1, a, u2])
    torn = json.dumps(lab.tool_result(a["content"][1], "Wrote 5 bytes."))[:37]
    cases = [
        ("a file that ends on a whole line", whole, [u1, a, u2], []),
        ("a last line cut short", whole + torn, [u1, a, u2], [torn]),
        ("a last line whole but for its newline", whole[:-1], [u1, a, u2], []),
        ("a torn line an earlier resume closed, then more", lines_of([u1, a]) + torn + "\n"
         + lines_of([u2]), [u1, a, u2], [torn]),
        ("an empty file", "", [], []),
    ]
    for case, text, messages, set_aside in cases:
        loaded = student.scenario("load", text=text)

        expect(loaded["messages"] == messages and loaded["set_aside"] == set_aside, TORN,
               given=f"{case}: {text[-80:]!r}",
               expected=f"loaded {shaped(messages)}, set aside {set_aside}",
               got=f"loaded {shaped(loaded['messages'])}, set aside {loaded['set_aside']}")


# -- resuming after a power cut ---------------------------------------------------------------------

def test_power_cut_after_any_event_leaves_a_session_that_resumes_and_loses_nothing(student):
    for k in range(1, JOB_EVENTS + 1):
        seen = student.scenario("power_cut", after_event=k)

        judge_the_cut(seen, f"the power went after event {k} ({last_event(seen)})")


def test_power_cut_inside_any_write_leaves_a_session_that_resumes_and_loses_nothing(student):
    whole = student.scenario("power_cut", resume=False)
    size = len(whole["text_at_cut"].encode())
    cuts = sorted({n for _, start, end in whole["writes"] for n in (start, (start + end) // 2, end - 1)
                   if 0 <= n < size})
    expect(size > 0 and len(cuts) >= len(whole["recorded"]), PERSIST, given="the job, left to finish",
           expected="a line written for each message",
           got=f"{lab.counted(size, 'byte')} in {lab.counted(len(whole['writes']), 'write')}")

    briefs = student.scenario("power_cuts", at_bytes=cuts)

    for n, seen in zip(cuts, briefs):
        given = (f"the power went when byte {n} of {size} was to be written; resume loaded "
                 f"{seen['loaded_shape'] or 'no message'}")
        expect(seen["answered"] == 2 and not seen["refused"], ANSWERS, given=given,
               expected="both prompts answered", got=f"refused: {seen['refused'][:1]}")
        expect(seen["loaded"][:len(seen["announced"])] == seen["announced"], NOTHING_LOST,
               given=given,
               expected=f"the {lab.counted(len(seen['announced']), 'message')} announced, loaded first",
               got=f"{len(seen['loaded'])} loaded, not starting with them")
        expect(seen["loaded"] == seen["recorded"][:len(seen["loaded"])], NOTHING_TORN,
               given=given,
               expected=f"a start of the {lab.counted(len(seen['recorded']), 'message')} recorded",
               got=f"{len(seen['loaded'])} loaded, not all of them as recorded")
        told = {tuple(c) for c in seen["told"]} & {tuple(c) for c in seen["finished"]}
        expect(not told, NO_FALSE_ALARM, given=given, expected="no stand-in for a finished call",
               got=f"stand-ins for {sorted(told)}")
        wanted = [seen["tail"]] if seen["tail"] and not is_whole(seen["tail"]) else []
        expect(seen["set_aside"] == wanted, SET_ASIDE, given=given,
               expected=f"set aside: {wanted!r}", got=f"set aside: {seen['set_aside']!r}")


def test_a_file_cut_at_any_byte_loads_its_whole_lines_and_sets_the_torn_one_aside(student):
    whole = student.scenario("power_cut", resume=False)
    data = whole["text_at_cut"].encode()
    texts = [data[:n].decode(errors="replace") for n in range(len(data) + 1)]

    loaded = student.scenario("loads", texts=texts)

    for n, (text, seen) in enumerate(zip(texts, loaded)):
        lines = text.split("\n")
        messages = [json.loads(line) for line in lines if is_whole(line)]
        set_aside = [line for line in lines if line and not is_whole(line)]
        expect(seen["messages"] == messages and seen["set_aside"] == set_aside, TORN,
               given=f"the job's file cut after byte {n} of {len(data)}, ending {text[-50:]!r}",
               expected=f"loaded {shaped(messages)}, set aside {set_aside}",
               got=f"loaded {shaped(seen['messages'])}, set aside {seen['set_aside']}")


def judge_the_notice(seen, where, wanted, answered_with):
    """.interrupted is `wanted` ([(tool, path, id as sent)]), the first request answers each
    with the stand-in `answered_with` names, and .notice names each of them (and no call that
    finished) by its id, its tool and its file."""
    given = f"{where}; resume loaded {shaped(seen['loaded']) or 'no message'}"
    got = unfinished(seen["interrupted"])
    expect(got == wanted, NOTICE, given=given, expected=f"interrupted: {described(wanted)}",
           got=f"interrupted: {described(got)}")
    first = seen["requests"][0] if seen["requests"] else []
    for (tool, _, call_id), words in zip(wanted, answered_with):
        expect(stand_in(call_id, tool, words) in first, NOTICE, given=given,
               expected=f"the first request answers {call_id} with "
                        f"{'INTERRUPTED_READ_ONLY' if words == INTERRUPTED_READ_ONLY else 'INTERRUPTED'}",
               got=one_line(first))
    notice = seen["notice"]
    for tool, path, call_id in wanted:
        expect(names(notice, call_id) and tool in notice and names(notice, path), NOTICE,
               given=given, expected=f"a notice naming {call_id}, its tool {tool} and its file {path}",
               got=f"notice: {notice!r}")
    finished = {i for _, _, i in unfinished(finished_blocks(seen["events"]))} - {i for *_, i in wanted}
    expect(not any(names(notice, i) for i in finished), NOTICE, given=given,
           expected=f"a notice that does not name the finished {sorted(finished)}",
           got=f"notice: {notice!r}")


def test_resume_tells_the_user_which_calls_did_not_finish(student):
    seen = student.scenario("power_cut", after_event=8)

    judge_the_notice(seen, "the power went as the write of b started",
                     [("write", "b", "call_1")], [INTERRUPTED])


def test_resume_lists_every_call_that_did_not_finish_not_only_the_last(student):
    seen = student.scenario("power_cut", after_event=5)

    judge_the_notice(seen, "the power went as the write of a started, with b still to come",
                     [("write", "a", "call_0"), ("write", "b", "call_1")], [INTERRUPTED] * 2)


def test_resume_names_an_unfinished_call_by_the_id_the_model_is_shown(student):
    seen = student.scenario("power_cut", after_event=READ_STARTS)

    judge_the_notice(seen, "the power went as the read of a started (the model called it "
                           "call_0 again, so the view calls it call_0_1)",
                     [("read", "a", "call_0_1")], [INTERRUPTED_READ_ONLY])


def test_resume_notice_quotes_each_line_it_set_aside(student):
    whole = student.scenario("power_cut", resume=False)
    _, start, end = whole["writes"][3]  # the line of write b's result
    n = (start + end) // 2

    seen = student.scenario("power_cut", at_byte=n)

    where = f"the power went half-way through the line of write b's result (byte {n})"
    torn = seen["text_at_cut"].rpartition("\n")[2]
    expect(seen["set_aside"] == [torn], SET_ASIDE, given=where, expected=f"set aside: {[torn]!r}",
           got=f"set aside: {seen['set_aside']!r}")
    expect(torn[:20] in seen["notice"], NOTICE_SET_ASIDE, given=where,
           expected=f"a notice quoting {torn[:20]!r}", got=f"notice: {seen['notice']!r}")
    judge_the_notice(seen, where, [("write", "b", "call_1")], [INTERRUPTED])


def test_resume_closes_a_last_line_that_lost_only_its_newline(student):
    whole = student.scenario("power_cut", resume=False)
    newlines = [end - 1 for _, _, end in whole["writes"]]
    expect(len(newlines) >= len(whole["recorded"]) > 0, PERSIST, given="the job, left to finish",
           expected=f"a line written for each of the {lab.counted(len(whole['recorded']), 'message')}",
           got=lab.counted(len(newlines), "write"))

    for n in newlines:
        seen = student.scenario("power_cut", at_byte=n)

        where = (f"the power went at byte {n}, the newline of a line, leaving "
                 f"{seen['text_at_cut'][-40:]!r} at the end")
        expect(seen["set_aside"] == [] and seen["loaded"] == seen["recorded"][:len(seen["loaded"])]
               and len(seen["loaded"]) == newlines.index(n) + 1, CLOSED, given=where,
               expected=f"loaded the {newlines.index(n) + 1} whole lines, set aside nothing",
               got=f"loaded {len(seen['loaded'])}, set aside {seen['set_aside']!r}")
        expect(seen["reloaded"] == seen["resumed_record"] and seen["reloaded_set_aside"] == [],
               CLOSED, given=where,
               expected=f"loaded again: {shaped(seen['resumed_record'])}, set aside nothing",
               got=f"loaded again: {shaped(seen['reloaded'])}, set aside "
                   f"{seen['reloaded_set_aside']!r}")


def test_resume_only_appends_to_the_file_and_a_second_load_agrees(student):
    for n in (30, 200, 700):  # in the prompt, the reply with the writes, the reply with the read
        seen = student.scenario("power_cut", at_byte=n)

        where = f"the power went at byte {n}, leaving {seen['text_at_cut'][-40:]!r} at the end"
        expect(seen["final_text"].startswith(seen["text_at_cut"]) and not seen["truncations"],
               APPEND_ONLY, given=where, expected="the file as the cut left it, then more",
               got=f"truncated {seen['truncations']}; begins {seen['final_text'][:80]!r}")
        expect(seen["reloaded"] == seen["resumed_record"]
               and seen["reloaded_set_aside"] == seen["set_aside"], APPEND_ONLY, given=where,
               expected=f"loaded again: {shaped(seen['resumed_record'])}, set aside "
                        f"{seen['set_aside']}",
               got=f"{shaped(seen['reloaded'])}, set aside {seen['reloaded_set_aside']}")


def test_a_process_killed_mid_run_resumes_from_its_real_file(student):
    try:
        student.scenario("start_on_a_real_file", kill_at_call=2)
    except PowerCut:
        pass
    else:
        expect(False, KILLED, expected="the process killed as the write of b starts",
               got="the job finished")
    student.restart()
    seen = student.scenario("resume_from_a_real_file")

    refused = [a.get("error_message") for a in seen["answers"] if a.get("stop_reason") == "error"]
    expect(lab.shape(seen["loaded"]) == "U A[call_0,call_1] R(call_0)", KILLED,
           expected="loaded: U A[call_0,call_1] R(call_0)", got=seen["loaded"])
    expect([c["id"] for c in seen["interrupted"]] == ["call_1"] and not refused, KILLED,
           given=shaped(seen["loaded"]), expected="call_1 interrupted, both prompts answered",
           got=f"interrupted: {described(unfinished(seen['interrupted']))}; refused: "
               f"{refused[0] if refused else 'nothing'}")
    expect(seen["reloaded"] == seen["resumed_record"], APPEND_ONLY,
           expected=lab.shape(seen["resumed_record"]), got=seen["reloaded"])


# -- the rules of repair_history ---------------------------------------------------------------------

def repaired(student, record, read_only=None):
    params = {"messages": record} if read_only is None else {"messages": record, "read_only": read_only}
    return student.scenario("repair", **params)


def expect_view(seen, wanted, rule, record):
    got = seen["messages"]
    expect(got == wanted, rule, given=record, expected=one_line(wanted), got=one_line(got))


def test_results_move_to_just_after_their_calls_and_the_rest_of_the_span_follows(student):
    c1, c2 = lab.call("read", {"path": "a.txt"}, id="c1"), lab.call("write", {"path": "b.txt"}, id="c2")
    steer = lab.user("Use spaces.")
    r1, r2 = lab.tool_result(c1, "alpha"), lab.tool_result(c2, "Wrote 4 bytes.")
    record = [lab.user("Go."), lab.reply(c1, c2), steer, r2, r1, lab.say("Done.")]

    seen = repaired(student, record)

    expect_view(seen, [record[0], record[1], r1, r2, steer, record[5]], RULE_SPAN, record)


def test_a_result_pairs_only_within_its_own_span(student):
    c1 = lab.call("write", {"path": "a.txt"}, id="c1")
    record = [lab.user("Go."), lab.reply(c1), lab.say("Still working."),
              lab.tool_result(c1, "Wrote 5 bytes."), lab.user("Well?")]

    seen = repaired(student, record)

    expect_view(seen, [record[0], record[1], stand_in("c1", "write"), record[2], record[4]],
                RULE_OWN_SPAN, record)


def test_missing_result_is_worded_by_whether_the_tool_only_reads(student):
    read, write = lab.call("read", {"path": "a.txt"}, id="c1"), lab.call("write", {"path": "b.txt"}, id="c2")
    record = [lab.user("Go."), lab.reply(read, write), lab.user("Never mind.")]

    told = repaired(student, record, read_only=["read"])
    plain = repaired(student, record)

    expect_view(told, [record[0], record[1], stand_in("c1", "read", INTERRUPTED_READ_ONLY),
                       stand_in("c2", "write"), record[2]], RULE_WORDING, record)
    expect_view(plain, [record[0], record[1], stand_in("c1", "read"), stand_in("c2", "write"),
                        record[2]], RULE_WORDING, record)
    expect(told["interrupted"] == [read, write], RULE_WORDING, given=record,
           expected=f"interrupted: {described(unfinished([read, write]))}",
           got=f"interrupted: {described(unfinished(told['interrupted']))}")


def test_repeated_id_becomes_id_k_with_the_smallest_free_k(student):
    first, second, third = (lab.call("read", {"path": p}, id="call_0") for p in ("a", "b", "c"))
    taken = lab.call("read", {"path": "d"}, id="call_0_1")
    record = [lab.user("Read them."),
              lab.reply(first), lab.tool_result(first, "A"),
              lab.reply(taken), lab.tool_result(taken, "D"),
              lab.reply(second), lab.tool_result(second, "B"),
              lab.reply(third), lab.user("Stop.")]

    seen = repaired(student, record)

    renamed = [dict(second, id="call_0_2"), dict(third, id="call_0_3")]
    expect_view(seen, record[:5] + [
        lab.reply(renamed[0]), dict(record[6], tool_call_id="call_0_2"),
        lab.reply(renamed[1]), stand_in("call_0_3", "read"), record[8]], RULE_REPEATED, record)
    expect(seen["interrupted"] == [renamed[1]], RULE_REPEATED, given=record,
           expected=f"interrupted, under the id sent: {described(unfinished([renamed[1]]))}",
           got=f"interrupted: {described(unfinished(seen['interrupted']))}")


def test_each_repeated_id_takes_its_own_smallest_free_k(student):
    reads = {name: [lab.call("read", {"path": f"{name}{n}"}, id=name) for n in range(3)]
             for name in ("call_0", "call_1")}
    record = [lab.user("Read them all.")]
    for n in range(3):
        pair = (reads["call_0"][n], reads["call_1"][n])
        record += [lab.reply(*pair), lab.tool_result(pair[0], f"A{n}"), lab.tool_result(pair[1], f"B{n}")]
    record.append(lab.say("Done."))

    seen = repaired(student, record)

    wanted = [record[0]]
    for n in range(3):
        ids = ("call_0", "call_1") if n == 0 else (f"call_0_{n}", f"call_1_{n}")
        calls = [dict(reads["call_0"][n], id=ids[0]), dict(reads["call_1"][n], id=ids[1])]
        wanted += [lab.reply(*calls), dict(record[2 + 3 * n], tool_call_id=ids[0]),
                   dict(record[3 + 3 * n], tool_call_id=ids[1])]
    wanted.append(record[-1])
    expect_view(seen, wanted, RULE_EACH_ID, record)


def test_empty_id_becomes_call_message_call(student):
    a, b = lab.call("read", {"path": "a"}, id=""), lab.call("read", {"path": "b"}, id="")
    record = [lab.user("Read both."), lab.say("Sure."), lab.reply(a, b),
              lab.tool_result(a, "A"), lab.tool_result(b, "B")]

    seen = repaired(student, record)

    expect_view(seen, [record[0], record[1],
                       lab.reply(dict(a, id="call_2_0"), dict(b, id="call_2_1")),
                       dict(record[3], tool_call_id="call_2_0"),
                       dict(record[4], tool_call_id="call_2_1")], RULE_EMPTY, record)


def test_an_empty_id_is_numbered_by_its_place_in_the_history_and_among_its_calls(student):
    ghost = lab.call("bash", {"command": "ls"}, id="c9")
    a, b = lab.call("read", {"path": "a"}, id=""), lab.call("read", {"path": "b"}, id="")
    record = [lab.user("Read both."), lab.tool_result(ghost, "nobody asked"),
              lab.reply(lab.text("  ")), lab.reply(lab.text("Reading both."), a, b),
              lab.tool_result(a, "A"), lab.tool_result(b, "B")]

    seen = repaired(student, record)

    named = lab.reply(lab.text("Reading both."), dict(a, id="call_3_0"), dict(b, id="call_3_1"))
    expect_view(seen, [record[0], named, dict(record[4], tool_call_id="call_3_0"),
                       dict(record[5], tool_call_id="call_3_1")], RULE_EMPTY, record)


def test_whitespace_placeholder_is_dropped_and_orphans_nothing(student):
    c1 = lab.call("bash", {"command": "pytest"}, id="c1")
    record = [lab.user("Run the tests."), lab.reply(c1), lab.reply(lab.text(" \n")),
              lab.tool_result(c1, "3 passed"), lab.say("All pass.")]

    seen = repaired(student, record)

    expect_view(seen, [record[0], record[1], record[3], record[4]], RULE_PLACEHOLDER, record)


def test_orphan_and_second_results_are_left_out_and_no_call_is_invented(student):
    c1, ghost = lab.call("read", {"path": "a"}, id="c1"), lab.call("read", {"path": "z"}, id="c9")
    record = [lab.user("Read a."), lab.tool_result(ghost, "nobody asked"), lab.reply(c1),
              lab.tool_result(c1, "A"), lab.tool_result(c1, "A again"), lab.say("Done.")]

    seen = repaired(student, record)

    expect_view(seen, [record[0], record[2], record[3], record[5]], RULE_ORPHAN, record)


def test_valid_history_comes_back_unchanged(student):
    c1 = lab.call("bash", {"command": "pytest"}, id="call_0")
    c2 = lab.call("read", {"path": "a"}, id="call_1")
    record = [lab.user("Test, then read."), lab.reply(lab.text("Testing."), c1),
              lab.tool_result(c1, "3 passed"), lab.reply(c2), lab.tool_result(c2, "A"),
              lab.say("Done."), lab.user("Thanks.")]

    seen = repaired(student, record)

    expect_view(seen, record, UNCHANGED, record)
    expect(seen["interrupted"] == [], UNCHANGED, given=record, expected="interrupted: none",
           got=f"interrupted: {described(unfinished(seen['interrupted']))}")


# -- the view ----------------------------------------------------------------------------------------

def test_view_drops_empty_failures_then_repairs_and_leaves_the_record_alone(student):
    first, again = lab.call("read", {"path": "a"}, id="call_0"), lab.call("read", {"path": "b"}, id="call_0")
    record = [lab.user("Read a."), lab.reply(first), lab.tool_result(first, "A"),
              lab.fail("503 overloaded"), lab.user("Now b."), lab.reply(again),
              lab.tool_result(again, "B"), lab.user("And?")]

    view = student.view(record)

    expect_untouched(record, view.input_after, THE_VIEW, kept_objects=view.input_kept_objects)
    wanted = [record[0], record[1], record[2], record[4], lab.reply(dict(again, id="call_0_1")),
              dict(record[6], tool_call_id="call_0_1"), record[7]]
    expect(view.messages == wanted, THE_VIEW, given=record, expected=one_line(wanted),
           got=one_line(view.messages))


def test_the_view_words_a_read_cut_short_as_only_reading(student):
    read, write = lab.call("read", {"path": "a"}, id="c1"), lab.call("write", {"path": "b"}, id="c2")
    record = [lab.user("Read a, then write b."), lab.reply(read, write), lab.user("Never mind.")]

    view = student.view(record)

    wanted = [record[0], record[1], stand_in("c1", "read", INTERRUPTED_READ_ONLY),
              stand_in("c2", "write"), record[2]]
    expect(view.messages == wanted, SENT_WORDING, given=record, expected=one_line(wanted),
           got=one_line(view.messages))


def test_a_provider_that_restarts_or_leaves_out_ids_is_answered_every_time(student):
    for ids, first in (("restarting", "call_0"), ("empty", "")):
        seen = student.scenario("restarting_ids", ids=ids)

        refused = [a.get("error_message") for a in seen["answers"] if a.get("stop_reason") == "error"]
        expect(not refused, RESTARTING, given=f"a model whose ids are {ids}",
               expected="every prompt answered", got=f"refused: {refused[0] if refused else ''}")
        sent = [b["id"] for m in seen["record"] if m["role"] == "assistant"
                for b in m["content"] if b["type"] == "toolCall"]
        expect(sent == [first] * 4, RESTARTING, given=f"a model whose ids are {ids}",
               expected=f"the record keeps the ids sent: {[first] * 4}",
               got=f"the record holds: {sent}")


# -- code the lesson gives you -----------------------------------------------------------------------

def test_appending_to_what_messages_hands_out_leaves_the_record_alone(student):
    seen = student.scenario("handing_out")

    expect_a_copy(seen, A_COPY, given="one prompt answered in words; h.messages read")


# -- the same rules, on histories hypothesis makes up ------------------------------------------------

IDS = ["call_0", "call_1", "", "functions.read:0", "call_0_1", "call_2_0"]
# The strategies histories() draws from, made once: a strategy made inside it would be made
# (and checked) again at every draw of every example, and shrinking a failure replays examples
# by the hundred. The same strategies draw the same histories.
TURNS, RUNS, CALLS = st.integers(1, 4), st.integers(0, 2), st.integers(1, 3)
ONE_IN_5, ONE_IN_4 = st.integers(0, 4), st.integers(0, 3)
TOOL, ID, COIN = st.sampled_from(["read", "write"]), st.sampled_from(IDS), st.booleans()
BLANK = st.sampled_from(["", " ", "\n\t"])
FATE = st.sampled_from(["kept"] * 4 + ["lost", "late", "doubled"])


@st.composite
def histories(draw):
    """A few turns of calls and results with ids from a small pool (so they repeat, collide
    with the names the repair makes, and are often empty), broken the ways a crash and a
    resume break them: results lost, late, doubled, out of order, a placeholder among them,
    orphans, failed replies, and the whole cut off anywhere."""
    record = []
    for turn in range(draw(TURNS)):
        record.append(lab.user(f"prompt {turn}"))
        for _ in range(draw(RUNS)):
            calls = [lab.call(draw(TOOL), {"n": turn}, id=draw(ID))
                     for _ in range(draw(CALLS))]
            failed = draw(COIN) and draw(COIN)
            record.append(lab.fail("stream ended", *calls) if failed else lab.reply(*calls))
            if draw(ONE_IN_5) == 0:
                record.append(lab.reply(lab.text(draw(BLANK))))
            results = [lab.tool_result(c, f"output {turn}.{i}") for i, c in enumerate(calls)]
            results = draw(st.permutations(results)) if draw(COIN) else results
            for result in results:
                fate = draw(FATE)
                if fate != "lost":
                    record.append(result)
                if fate == "late":
                    record.insert(len(record) - 1, lab.user("typed while it ran"))
                if fate == "doubled":
                    record.append(dict(result, content=result["content"] + " (again)"))
        if draw(COIN):
            record.append(lab.fail("503 overloaded") if draw(COIN) else lab.say("ok"))
        if draw(ONE_IN_4) == 0:
            record.append(lab.tool_result(lab.call("read", {}, id=draw(ID)),
                                          "nobody asked"))
    cut = draw(st.integers(1, len(record)))
    return record[:cut] if draw(COIN) else record


@given(histories())
@settings(max_examples=60)
def test_view_of_any_history_is_accepted_and_leaves_the_record_alone(student, record):
    sent = copy.deepcopy(record)

    view = student.view(record)

    expect_untouched(sent, view.input_after, PURE_RECORD, kept_objects=view.input_kept_objects)
    problems = lab.validate(view.messages)
    expect(not problems, VALID, given=record, got=view.messages,
           note=f"the strict provider refuses it: {problems[0] if problems else ''}")


@given(histories())
@settings(max_examples=40)
def test_repair_of_any_history_is_idempotent_and_pure(student, record):
    seen = repaired(student, record)

    expect_untouched(seen["input_before"], seen["input_after"], PURE, what="the history")
    expect(seen["twice"] == seen["messages"], IDEMPOTENT, given=record,
           expected=one_line(seen["messages"]), got=one_line(seen["twice"]))
    expect(json.dumps(seen["again"]) == json.dumps(seen["messages"]), PURE, given=record,
           expected=one_line(seen["messages"]), got=f"the second time: {one_line(seen['again'])}")


RESTARTED = [lab.call("read", {"path": p}, id="call_0") for p in ("a", "b")]


@given(histories())
@example([lab.user("Read a, then b."), lab.reply(RESTARTED[0]), lab.tool_result(RESTARTED[0], "A"),
          lab.reply(RESTARTED[1]), lab.tool_result(RESTARTED[1], "B"), lab.say("Done.")])
@settings(max_examples=40)
def test_repair_is_prefix_stable_byte_for_byte(student, record):
    ends = [i for i, m in enumerate(record) if m["role"] == "assistant" and not is_blank_reply(m)]
    shorter = [record[:i] for i in ends]

    views = student.scenario("repair_each", histories=shorter + [record])

    whole = views[-1]
    for short, view in zip(shorter, views):
        expect(json.dumps(whole[:len(view)]) == json.dumps(view), PREFIX, given=record,
               expected=f"the repair of the first {lab.counted(len(short), 'message')}, "
                        f"{one_line(view)}, first",
               got=one_line(whole[:len(view)]))


@given(histories())
@settings(max_examples=40)
def test_repair_keeps_every_message_that_is_not_a_result(student, record):
    seen = repaired(student, record)

    wanted = [without_ids(m) for m in record if m["role"] != "toolResult" and not is_blank_reply(m)]
    kept = [without_ids(m) for m in seen["messages"] if m["role"] != "toolResult"]
    expect(kept == wanted, KEPT, given=record, expected=one_line(wanted), got=one_line(kept))
