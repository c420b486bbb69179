"""The graded tests of lesson 13, "the conversation that outgrew its window".

Run them with lab_check, never by importing your harness here: every test runs your harness
in a process of its own and judges the plain data that comes back.

    lab-check --harness harness.py --lesson 13

First where a record may be cut (never between a call and its results, never before the
newest summary, and every edge a record can have), then the view of a compacted record, then
sessions through the Harness, on a scripted model whose window is as small as the Harness's
and which refuses, the way OpenAI does, any request over it. Every request is counted here
with the lab's own counter (lab.request_tokens), never taken from the harness's word for it.
The manifest lists the gaps in the order to fill them (cut, view, compact).
"""

import json

from hypothesis import given, settings
from hypothesis import strategies as st

import lab
from lab.testkit import expect, expect_untouched

SYSTEM_PROMPT = "You are a helpful assistant."
WINDOW = 600  # the session's window: ten reads outgrow it three times
READS = [f"Read notes{k}.txt" for k in range(1, 11)]
# A system prompt of about 300 tokens: half the window, which leaves the messages half of it.
LONG_SYSTEM = SYSTEM_PROMPT + " Keep answers short and exact." * 40
HEADER_START = "[A summary written by the harness, not by the user"

NEVER_SPLIT = ("a cut is never made between a call and its results: safe_cuts lists an assistant "
               "message that opens a span (not a placeholder), and a user message after which "
               "only user messages come before the next such assistant message (or the end); "
               "never a tool result, a summary or a placeholder.")
EDGES = ("every edge of a record: an empty record has no safe cut and no cut; damage at the "
         "first message (a result nobody asked for) or at the last (a call with no result, a "
         "failed reply, a stray result) moves the cuts only as the rule says.")
LONGEST = ("choose_cut keeps the longest newest part that fits: the earliest safe cut whose "
           "view counts at most `keep` tokens (lab.tokens, message by message).")
NONE_FITS = ("when not even the newest turn fits in `keep` tokens, choose_cut says so with "
             "None, never a cut that keeps more than it may, and never a cut with nothing kept.")
AFTER_SUMMARY = ("a cut is never before the newest summary's first_kept: what a summary "
                 "already stands for is not sent word for word again.")
PURE = "finding a cut leaves the record exactly as it was."
MARKED_VIEW = ("the view of a compacted record is the newest summary, sent in the user's role "
               "as summary_message makes it (SUMMARY_HEADER first: the harness's words, not the "
               "user's), then the record from that summary's first_kept on, word for word, "
               "every summary left out; a record with no summary is sent as lesson 12 sent it. "
               "The record is not touched.")
SAME_BYTES = ("the view of a record is the same bytes every time it is built, and the view "
              "of a longer record starts with the bytes of the view of a shorter one: a "
              "provider's prompt cache keeps hitting.")
BUDGET = ("no request over the window is ever sent: every request, the summary requests "
          "too, counts at most the window's tokens (lab.request_tokens), and every prompt of "
          "a long session is answered.")
RECORD_KEPT = ("the record keeps everything: every message of the session, in order, as if "
               "nothing had been compacted, plus each summary as the harness's own (role "
               "\"summary\", first_kept a safe cut, its content the model's words), all of "
               "it in the file too.")
THROUGH_THE_LOOP = ("the summary is written by the model, asked through the harness's own "
                    "loop: the same system prompt, no tools, what the replaced part was sent "
                    "as (the newest summary, then the record from its first_kept to the cut), "
                    "and SUMMARISE as the last message.")
WORD_FOR_WORD = ("after a compaction every request is the marked summary, then the newest turns "
                 "word for word, exactly as the record holds them from the cut on.")
PREFIX_STABLE = ("between two summaries every request starts with the whole of the one before "
                 "it, byte for byte: the system prompt and the kept prefix never move.")
IDEMPOTENT = ("a record that is already compacted, and fits, is sent as it is: no new "
              "summary, nothing re-cut, the same view as before.")
TOO_LONG = ("a turn that cannot fit the window gets a clear failed reply made by the harness "
            "(stop_reason \"error\", its error_message saying why, failure kind too_long with "
            "no status: no provider was asked), no request over the window is sent, and the "
            "next prompts are answered.")
RESUMED = ("a resumed record compacts the same way: after a crash, the harness resumed from "
           "the file sends what the harness that never crashed sends, summary for summary.")


# -- small helpers ------------------------------------------------------------------------------

def shaped(messages):
    return lab.shape(messages) or "no message"


def one_line(messages):
    return lab.show(messages, clip=50).replace("\n", " | ") or "(nothing)"


def summary(text, first_kept):
    return {"role": "summary", "content": text, "first_kept": first_kept}


def sent_as(entry, header):
    """What a summary entry is sent as, built here from the header the harness declares."""
    return {"role": "user", "content": f"{header}\n\n{entry['content']}"}


def is_summary_request(request):
    last = request["messages"][-1] if request["messages"] else {}
    return last.get("role") == "user" and not request["tools"] and \
        last.get("content", "").startswith("Summarise the conversation")


def main_requests(seen):
    return [r for r in seen["requests"] if not is_summary_request(r)]


def answered(seen):
    return [m.get("error_message") for m in seen["last"] if m.get("stop_reason") == "error"]


def header_of(seen):
    """The SUMMARY_HEADER a compacted request opened with (its first line)."""
    for request in main_requests(seen):
        first = request["messages"][0] if request["messages"] else {}
        if first.get("role") == "user" and first["content"].startswith(HEADER_START):
            return first["content"].split("\n\n", 1)[0]
    return None


def turn(k, text=None):
    """One healthy turn: U A[c_k] R(c_k) A."""
    call = lab.call("read", {"path": f"notes{k}.txt"}, id=f"c{k}")
    return [lab.user(f"Read notes{k}.txt"), lab.reply(lab.text("Reading."), call),
            lab.tool_result(call, text or f"notes {k}: {'x' * 40}"), lab.say(f"Done {k}.")]


def size(messages):
    return sum(lab.tokens(m) for m in messages)


# -- where a record may be cut ------------------------------------------------------------------

C1, C2 = lab.call("read", {"path": "a"}, id="c1"), lab.call("write", {"path": "b"}, id="c2")
CASES = [  # (what it is, the record, its safe cuts)
    ("two healthy turns", turn(1) + turn(2), [0, 1, 3, 4, 5, 7]),
    ("a steer typed among the results",
     [lab.user("Go."), lab.reply(C1, C2), lab.user("Use spaces."), lab.tool_result(C1, "A"),
      lab.tool_result(C2, "B"), lab.user("Well?"), lab.say("Done.")], [0, 1, 5, 6]),
    ("a result recorded after the model spoke again",
     [lab.user("Go."), lab.reply(C1), lab.say("Still going."), lab.tool_result(C1, "A"),
      lab.user("And?")], [0, 1, 2, 4]),
    ("a placeholder between a call and its result",
     [lab.user("Go."), lab.reply(C1), lab.reply(lab.text("  ")), lab.tool_result(C1, "A"),
      lab.say("Done.")], [0, 1, 4]),
    ("a summary in the record",
     turn(1) + [summary("They read notes1.", 4)] + turn(2), [0, 1, 3, 5, 6, 8]),
]


def test_a_cut_is_never_made_between_a_call_and_its_results(student):
    for what, record, wanted in CASES:
        seen = student.scenario("cuts", messages=record)

        expect(seen["cuts"] == wanted, NEVER_SPLIT, given=f"{what}: {shaped(record)}",
               expected=f"safe cuts {wanted}", got=f"safe cuts {seen['cuts']}")


INTERRUPTED = ("Tool call interrupted: no result was recorded. It may not have run, or may have "
               "run partly; check before repeating it.")
STAND_IN_C2 = {"role": "toolResult", "tool_call_id": "c2", "tool_name": "write",
               "content": INTERRUPTED, "is_error": True}
EDGE_CASES = [  # (what it is, the record, its safe cuts, the tokens to keep, the cut)
    ("an empty record", [], [], 1000, None),
    ("a result nobody asked for, first", [lab.tool_result(C1, "A")] + turn(1), [1, 2, 4],
     size(turn(1)), 1),
    ("a call with no result, last", turn(1) + [lab.user("Go on."), lab.reply(C2)],
     [0, 1, 3, 4, 5], size([lab.user("Go on."), lab.reply(C2), STAND_IN_C2]), 4),
    ("a failed reply with nothing in it, last",
     turn(1) + [lab.user("Go on."), lab.fail("503 overloaded")], [0, 1, 3, 4],
     size([lab.user("Go on.")]), 4),
    ("a result nobody asked for, last", turn(1) + [lab.user("Go on."), lab.tool_result(C2, "B")],
     [0, 1, 3], size([lab.say("Done 1."), lab.user("Go on.")]), 3),
    ("one user message and nothing else", [lab.user("Hello?")], [0], size([lab.user("Hello?")]), 0),
]


def test_every_edge_of_a_record_empty_and_damaged_at_either_end(student):
    for what, record, wanted, keep, cut in EDGE_CASES:
        seen = student.scenario("cuts", messages=record, keep=keep)

        expect(seen["cuts"] == wanted, EDGES, given=f"{what}: {shaped(record)}",
               expected=f"safe cuts {wanted}", got=f"safe cuts {seen['cuts']}")
        expect(seen["cut"] == cut, EDGES, given=f"{what}: {shaped(record)}, keep={keep}",
               expected=f"cut {cut}", got=f"cut {seen['cut']}")


def test_the_cut_keeps_the_longest_newest_part_that_fits(student):
    record = turn(1) + turn(2) + turn(3)
    safe = [0, 1, 3, 4, 5, 7, 8, 9, 11]
    for keep in (size(record), size(record) - 1, size(record[5:]), size(record[5:]) - 1,
                 size(record[9:]) + 3, size(record[11:])):
        wanted = next(i for i in safe if size(record[i:]) <= keep)

        seen = student.scenario("cuts", messages=record, keep=keep)

        expect(seen["cut"] == wanted, LONGEST, given=f"{shaped(record)}, keep={lab.counted(keep, 'token')}",
               expected=f"cut {wanted} (keeps {shaped(record[wanted:])}, "
                        f"{lab.counted(size(record[wanted:]), 'token')})",
               got=f"cut {seen['cut']}")


def test_no_cut_when_even_the_newest_turn_does_not_fit(student):
    record = turn(1) + [lab.user("Read this: " + "y" * 800)]
    for keep in (size(record[4:]) - 1, 10, 0):
        seen = student.scenario("cuts", messages=record, keep=keep)

        expect(seen["cut"] is None, NONE_FITS,
               given=f"{shaped(record)}, the newest message alone "
                     f"{lab.counted(size(record[4:]), 'token')}, "
                     f"keep={keep}", expected="None", got=f"cut {seen['cut']}")


def test_a_cut_never_goes_back_before_the_newest_summary(student):
    record = turn(1) + turn(2) + [summary("They read notes1 and notes2.", 5)] + turn(3)
    for keep in (size(record), size(record[5:]) + 50):
        seen = student.scenario("cuts", messages=record, keep=keep)

        expect(seen["cut"] == 5, AFTER_SUMMARY,
               given=f"{shaped(record)}, the summary's first_kept 5, keep={keep}",
               expected="cut 5", got=f"cut {seen['cut']}")
        expect_untouched(seen["input_before"], seen["input_after"], PURE, what="the record")


# -- the view of a compacted record ----------------------------------------------------------------

def test_the_view_of_a_compacted_record_is_the_marked_summary_then_the_kept_turns(student):
    entry = summary("The user is reading notes files one by one.", 4)
    older = summary("The user asked for notes1.", 4)
    cases = [("one summary", turn(1) + turn(2) + [entry] + turn(3), entry),
             ("two summaries: the newest counts",
              turn(1) + [older] + turn(2) + [dict(entry, first_kept=10)] + turn(3),
              dict(entry, first_kept=10))]
    for what, record, newest in cases:
        view = student.view(record)

        expect_untouched(record, view.input_after, MARKED_VIEW, kept_objects=view.input_kept_objects)
        first = view.messages[0] if view.messages else {}
        content = first.get("content") if isinstance(first.get("content"), str) else ""
        expect(first.get("role") == "user" and content.startswith(HEADER_START)
               and content.endswith("\n\n" + newest["content"]), MARKED_VIEW,
               given=f"{what}: {shaped(record)}",
               expected=f"first: user -> \"{HEADER_START}...]\\n\\n{newest['content']}\"",
               got=f"first: {one_line([first]) if first else 'nothing'}")
        kept = [m for m in record[newest["first_kept"]:] if m["role"] != "summary"]
        expect(view.messages[1:] == kept, MARKED_VIEW, given=f"{what}: {shaped(record)}",
               expected=f"then {shaped(kept)}", got=f"then {shaped(view.messages[1:])}")
    damaged = [lab.user("Go."), lab.reply(C1), lab.user("Never mind.")]
    view = student.view(damaged)
    wanted = ["U", "A[c1]", "R(c1)", "U"]
    expect(lab.shape(view.messages).split() == wanted, MARKED_VIEW,
           given=f"no summary: {shaped(damaged)}", expected=" ".join(wanted),
           got=shaped(view.messages))


def test_the_view_of_a_record_is_the_same_bytes_every_time_and_grows_only_at_its_end(student):
    entry = summary("The user is reading notes files one by one.", 4)
    record = turn(1) + turn(2) + [entry] + turn(3) + turn(4)
    ends = [i for i, m in enumerate(record) if m["role"] == "assistant" and i > 8]
    shorter = [record[:i] for i in ends] + [record]

    seen = student.scenario("views", records=shorter)

    for short, (first, again) in zip(shorter, seen):
        opening = (json.loads(first) or [{}])[0]
        expect(str(opening.get("content")).startswith(HEADER_START)
               and all(m.get("role") != "summary" for m in json.loads(first)), SAME_BYTES,
               given=shaped(short), expected="the marked summary first, and no summary entry",
               got=one_line(json.loads(first)[:2]))
        expect(first == again, SAME_BYTES, given=shaped(short), expected=first[:160] + "…",
               got=f"the second time: {again[:160]}…")
    whole = json.loads(seen[-1][0])
    for short, (first, _) in zip(shorter, seen):
        part = json.loads(first)
        expect(json.dumps(whole[:len(part)]) == first, SAME_BYTES,
               given=f"{shaped(short)}, then more", expected=f"the view of {shaped(short)} first",
               got=shaped(whole[:len(part)]))


# -- sessions through the Harness -------------------------------------------------------------------

def test_a_long_session_never_sends_a_request_over_the_window(student):
    seen = student.scenario("session", prompts=READS, window=WINDOW)

    over = [r["tokens"] for r in seen["requests"] if r["tokens"] > WINDOW]
    expect(not over, BUDGET,
           given=f"ten prompts, each a read, with a window of {lab.counted(WINDOW, 'token')}",
           expected=f"every request at most {lab.counted(WINDOW, 'token')}",
           got=f"{len(over)} over it, of these sizes in tokens: {over[:5]}")
    refused = answered(seen)
    expect(not refused, BUDGET, given="the same session", expected="ten answers",
           got=f"failed: {refused[0] if refused else ''}")
    # The room is what the system prompt and the tools leave: a harness that keeps half of the
    # window, and not half of the room, has no room left for the summary under this one.
    crowded = student.scenario("session", prompts=READS, window=WINDOW, system=LONG_SYSTEM)
    over = [r["tokens"] for r in crowded["requests"] if r["tokens"] > WINDOW]
    refused = answered(crowded)
    given = (f"the same ten reads under a system prompt of "
             f"{lab.counted(lab.request_tokens(LONG_SYSTEM, [], []), 'token')}")
    expect(not over and not refused, BUDGET, given=given,
           expected=f"ten answers, every request at most {lab.counted(WINDOW, 'token')}",
           got=f"{lab.counted(len(over), 'request')} over it, "
               f"{lab.counted(len(refused), 'prompt')} failed: "
               f"{refused[0] if refused else ''}")


def test_the_record_keeps_every_message_and_each_summary_as_written_by_the_harness(student):
    seen = student.scenario("session", prompts=READS, window=WINDOW)
    whole = student.scenario("session", prompts=READS, window=100_000)

    record = seen["record"]
    summaries = [m for m in record if m.get("role") == "summary"]
    expect(summaries, RECORD_KEPT, given=f"ten reads in a window of {WINDOW}",
           expected="at least one summary in the record", got=shaped(record))
    messages = [m for m in record if m.get("role") != "summary"]
    expect(messages == whole["record"], RECORD_KEPT, given="the same session, window or not",
           expected=shaped(whole["record"]), got=f"without its summaries: {shaped(messages)}")
    for k, m in enumerate(record):
        if m.get("role") == "summary":
            safe = student.scenario("cuts", messages=record[:k])["cuts"]
            expect(set(m) == {"role", "content", "first_kept"} and m["first_kept"] in safe,
                   RECORD_KEPT, given=f"the summary at record[{k}]",
                   expected=f"role, content, first_kept, one of {safe}", got=m)
    on_disk = [json.loads(line) for line in seen["file"].split("\n") if line]
    expect(on_disk == record, RECORD_KEPT, given="the record's file",
           expected=shaped(record), got=shaped(on_disk))


def test_the_model_writes_the_summary_through_the_harness_loop(student):
    seen = student.scenario("session", prompts=READS, window=WINDOW)

    record, asked = seen["record"], [r for r in seen["requests"] if is_summary_request(r)]
    entries = [(k, m) for k, m in enumerate(record) if m.get("role") == "summary"]
    expect(asked and len(asked) == len(entries), THROUGH_THE_LOOP,
           given=f"ten reads in a window of {WINDOW}",
           expected="one summary request for each summary in the record",
           got=f"{lab.counted(len(asked), 'summary request')}, "
               f"{lab.counted(len(entries), 'summary', 'summaries')}")
    header = header_of(seen) or "(no compacted request)"
    previous = None
    for request, (k, entry) in zip(asked, entries):
        start = 0 if previous is None else previous["first_kept"]
        older = [m for m in record[start:entry["first_kept"]] if m.get("role") != "summary"]
        wanted = ([] if previous is None else [sent_as(previous, header)]) + older
        expect(request["system"] == SYSTEM_PROMPT and request["tools"] == []
               and request["messages"][:-1] == wanted, THROUGH_THE_LOOP,
               given=f"the summary at record[{k}], first_kept {entry['first_kept']}",
               expected=f"system as the session's, no tools, {shaped(wanted)} then SUMMARISE",
               got=f"{'the same' if request['system'] == SYSTEM_PROMPT else 'another'} system, "
                   f"{lab.counted(len(request['tools']), 'tool')}, {shaped(request['messages'][:-1])} then "
                   "SUMMARISE")
        previous = entry
    replies = [m for m in record if m.get("role") == "summary"]
    expect(all(m["content"].startswith("Summary ") for m in replies), THROUGH_THE_LOOP,
           given="the model's answers to the summary requests",
           expected="each summary's content is the model's reply, word for word",
           got=[m["content"][:40] for m in replies])


def test_the_newest_turns_are_sent_word_for_word_after_the_marked_summary(student):
    seen = student.scenario("session", prompts=READS, window=WINDOW)

    record, header = seen["record"], header_of(seen)
    expect(header is not None and header.startswith(HEADER_START), WORD_FOR_WORD,
           given=f"ten reads in a window of {WINDOW}",
           expected=f"a request opening with \"{HEADER_START}...\"", got="none does")
    entries = [m for m in record if m.get("role") == "summary"]
    compacted = [r for r in main_requests(seen) if r["messages"]
                 and r["messages"][0]["content"].startswith(HEADER_START)]
    for request in compacted:
        entry = next((e for e in entries if request["messages"][0] == sent_as(e, header)), None)
        expect(entry is not None, WORD_FOR_WORD, given="a compacted request",
               expected="its first message is a summary from the record, as summary_message "
                        "sends it", got=one_line(request["messages"][:1]))
        kept = [m for m in record[entry["first_kept"]:] if m.get("role") != "summary"]
        sent = request["messages"][1:]
        expect(sent and sent == kept[:len(sent)], WORD_FOR_WORD,
               given=f"the request after the summary with first_kept {entry['first_kept']}",
               expected=f"{shaped(kept[:len(sent)])}, as recorded",
               got=shaped(sent))


def test_the_start_of_what_is_sent_stays_the_same_between_summaries(student):
    seen = student.scenario("session", prompts=READS, window=WINDOW)

    requests = main_requests(seen)
    expect(seen["summary_requests"] > 0, PREFIX_STABLE, given=f"ten reads in a window of {WINDOW}",
           expected="a session that was compacted", got="no summary was asked for")
    for before, after in zip(requests, requests[1:]):
        if after["messages"][:1] != before["messages"][:1]:
            continue  # a new summary: the start moves once, here
        n = len(before["messages"])
        expect(after["system"] == before["system"]
               and json.dumps(after["messages"][:n]) == json.dumps(before["messages"]),
               PREFIX_STABLE, given=f"two requests in a row, {shaped(before['messages'])} first",
               expected=f"the second starts with it: {shaped(before['messages'])}",
               got=shaped(after["messages"][:n]))


def test_a_compacted_record_that_fits_is_sent_as_it_is(student):
    entry = summary("Summary 1: the user read notes1 to notes3.", 8)
    record = turn(1) + turn(2) + turn(3) + [entry]

    seen = student.scenario("session", prompts=["Read notes4.txt"], window=WINDOW, record=record)

    expect(seen["summary_requests"] == 0, IDEMPOTENT,
           given=f"a record already compacted ({shaped(record)}), in a window it fits",
           expected="no summary asked for", got=f"{seen['summary_requests']} summary requests")
    first = main_requests(seen)[0]["messages"] if main_requests(seen) else []
    kept = record[8:12] + [lab.user("Read notes4.txt")]
    expect(first[1:] == kept and first[:1] and first[0]["content"].endswith(entry["content"])
           and first[0]["content"].startswith(HEADER_START), IDEMPOTENT,
           given=shaped(record), expected=f"the marked summary, then {shaped(kept)}",
           got=one_line(first))
    expect(len([m for m in seen["record"] if m.get("role") == "summary"]) == 1, IDEMPOTENT,
           given=shaped(record), expected="still one summary in the record",
           got=shaped(seen["record"]))


def test_a_turn_too_long_for_the_window_gets_a_clear_failed_reply_and_is_never_sent(student):
    prompts = READS[:2] + ["Here is my whole log: " + "x" * 3000] + READS[2:5]

    seen = student.scenario("session", prompts=prompts, window=WINDOW)

    over = [r["tokens"] for r in seen["requests"] if r["tokens"] > WINDOW]
    expect(not over, TOO_LONG, given="two reads, a prompt of 3000 characters, three reads",
           expected=f"no request over {lab.counted(WINDOW, 'token')}",
           got=f"{len(over)} over it: {over[:3]}")
    failed = seen["last"][2]
    failure = failed.get("failure") or {}
    expect(failed.get("stop_reason") == "error" and failed.get("content") == []
           and "window" in str(failed.get("error_message")) and failure.get("kind") == "too_long"
           and failure.get("status") is None, TOO_LONG, given="the prompt of 3000 characters",
           expected="a failed reply: error_message naming the window, failure kind too_long, "
                    "status None",
           got=failed)
    later = [m.get("error_message") for m in seen["last"][3:] if m.get("stop_reason") == "error"]
    expect(not later, TOO_LONG, given="three reads after it", expected="three answers",
           got=f"failed: {later[0] if later else ''}")
    expect(any(m.get("content") == prompts[2] for m in seen["record"]), TOO_LONG,
           given="the record", expected="still holding the long prompt", got=shaped(seen["record"]))


def test_a_resumed_record_compacts_the_same_way(student):
    crashed = student.scenario("session", prompts=READS, window=WINDOW, crash_after=6)
    steady = student.scenario("session", prompts=READS, window=WINDOW)

    before = crashed["before_crash"] or []
    expect(any(m.get("role") == "summary" for m in before), RESUMED,
           given=f"six reads in a window of {WINDOW}, then the process is gone",
           expected="a summary in the record before the crash", got=shaped(before))
    expect(crashed["requests"] == steady["requests"], RESUMED,
           given="the same ten reads, with a crash and a resume after the sixth",
           expected=f"the same {lab.counted(len(steady['requests']), 'request')} as without the crash",
           got=f"{lab.counted(len(crashed['requests']), 'request')}, the first that differs: "
               + next((one_line(a["messages"][-3:]) for a, b in
                       zip(crashed["requests"], steady["requests"]) if a != b), "(none)"))
    expect(crashed["record"] == steady["record"], RESUMED, given="the same ten reads",
           expected=shaped(steady["record"]), got=shaped(crashed["record"]))


# -- the cut, on records hypothesis makes up --------------------------------------------------------

def reference_cuts(record):
    """The rule of safe_cuts, written another way: forwards, span by span."""
    def opens(m):
        return m["role"] == "assistant" and (
            any(b["type"] == "toolCall" for b in m["content"])
            or "".join(b.get("text", "") for b in m["content"]).strip() != "")

    starts = [i for i, m in enumerate(record) if opens(m)]
    found = set(starts)
    for i, m in enumerate(record):
        if m["role"] != "user":
            continue
        end = min([j for j in starts if j > i] or [len(record)])
        if not any(r["role"] == "toolResult" for r in record[i:end]):
            found.add(i)
    return sorted(found)


@st.composite
def records(draw, summaries=True):
    """Turns of calls and results, broken as a crash or a resume breaks them (lost, late and
    stray results, placeholders, failed replies, steers among results), sometimes with a
    summary in them, and cut off anywhere."""
    record = []
    for k in range(draw(st.integers(0, 4))):
        record.append(lab.user(f"prompt {k}"))
        for _ in range(draw(st.integers(0, 2))):
            calls = [lab.call("read", {"n": k}, id=f"c{k}{j}") for j in range(draw(st.integers(1, 2)))]
            record.append(lab.fail("cut off", *calls) if draw(st.integers(0, 5)) == 0
                          else lab.reply(*calls))
            if draw(st.integers(0, 5)) == 0:
                record.append(lab.reply(lab.text(" ")))
            for c in calls:
                fate = draw(st.sampled_from(["kept"] * 4 + ["lost", "steer first", "stray"]))
                if fate == "steer first":
                    record.append(lab.user("typed while it ran"))
                if fate != "lost":
                    record.append(lab.tool_result(c, "output"))
                if fate == "stray":
                    record.append(lab.tool_result(lab.call("read", {}, id="zz"), "nobody asked"))
        if draw(st.booleans()):
            record.append(lab.say("ok") if draw(st.booleans()) else lab.fail("503 overloaded"))
        if summaries and record and draw(st.integers(0, 4)) == 0:
            record.append(summary("so far", draw(st.integers(0, len(record)))))
    return record[:draw(st.integers(0, len(record)))] if draw(st.booleans()) else record


@given(records())
@settings(max_examples=30, deadline=None)
def test_any_record_is_cut_only_where_no_call_is_parted_from_its_results(student, record):
    seen = student.scenario("cuts", messages=record)

    expect_untouched(seen["input_before"], seen["input_after"], PURE, what="the record")
    wanted = reference_cuts(record)
    expect(seen["cuts"] == wanted, NEVER_SPLIT, given=shaped(record),
           expected=f"safe cuts {wanted}", got=f"safe cuts {seen['cuts']}")


@given(records(summaries=False), st.integers(0, 300))
@settings(max_examples=25, deadline=None)
def test_any_record_is_cut_at_the_earliest_safe_cut_that_fits(student, record, keep):
    safe = reference_cuts(record)

    seen = student.scenario("cuts", messages=record, keep=keep)
    views = student.scenario("views", records=[record[i:] for i in safe])

    fits = [i for i, (text, _) in zip(safe, views) if size(json.loads(text)) <= keep]
    wanted = fits[0] if fits else None
    expect(seen["cut"] == wanted, LONGEST, given=f"{shaped(record)}, keep={keep}",
           expected=f"cut {wanted}", got=f"cut {seen['cut']}")
