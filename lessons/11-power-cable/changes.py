"""A small agent harness: lesson 11, "the power cable".

Read it top to bottom: messages, tools, the loop and what it sends, the repair every request
goes through, the record on disk, the harness that owns the transcript, and two frontends.
Everything is plain dicts and generators; nothing here talks to a network, so the lab's
scripted model can stand in for a real one. What is new since lesson 10: the record is written
to a file as it grows, a crash at any byte leaves a file this harness can pick up again, and
the repair copes with what a resumed history holds (spans, repeated and empty call ids,
placeholders).
"""

import os
from dataclasses import dataclass

# drop: repair_tool_history


# == loop ==


# place: after run_agent
def record_message(messages, message, save):
    """Append `message` to the record `messages`, persist it with `save` (when there is one),
    and return the message_end event that announces it. The order is the lesson: a message
    nobody has been told about may be lost in a crash; one that was announced may not."""
    messages.append(message)
    # --- your code ---
    if save is not None:
        save(message)
    # --- starter ---
    #| # Lesson 11: persist the message here, with save(message), before it is announced.
    # --- end ---
    return {"type": "message_end", "message": message}


# == the view ==
# What one request sends: the record, with lesson 5's drop and the repair applied. The record
# itself is never changed by it, so what happened stays on the record (and on disk).

def context_for_model(messages):
    """The view: what one request sends, built afresh from the record each time.

    The record keeps everything that happened; a provider takes only a well-formed transcript.
    So a failed reply with nothing in it (lesson 5) is left out, and the rest goes through
    repair_history (see repaired_view). A new list comes back; the record and its messages
    are not touched.
    """
    # --- your code ---
    return repaired_view(messages).messages
    # --- starter ---
    #| # Lesson 10's view. Today's change: send what repaired_view(messages) returns instead
    #| # (its .messages), so the repair of lesson 11 is what the model sees.
    #| return repair_tool_history([m for m in messages if not is_empty_failure(m)])
    # --- end ---


def repaired_view(messages):
    """repair_history's answer for the record `messages`, after lesson 5's drop, with this
    harness's idea of which tools only read. context_for_model sends its .messages; resume()
    tells the user its .interrupted, so the ids the user reads are the ids the model is shown."""
    return repair_history([m for m in messages if not is_empty_failure(m)], is_read_only)


def is_empty_failure(message):
    """An assistant reply that failed before any of it arrived: nothing a model can read."""
    return (message["role"] == "assistant" and not message["content"]
            and message.get("stop_reason") == "error")


READ_ONLY_TOOLS = ("read",)  # tools that look and change nothing: see make_read_tool


def is_read_only(tool_name):
    """True for a tool that only reads, so a call of it cut short changed nothing."""
    return tool_name in READ_ONLY_TOOLS


# What the model is told for a call whose result is missing. The first is lesson 10's, word for
# word; the second is for a tool that only reads, which cannot have left anything half done.
INTERRUPTED = ("Tool call interrupted: no result was recorded. It may not have run, or may have "
               "run partly; check before repeating it.")
INTERRUPTED_READ_ONLY = ("Tool call interrupted: no result was recorded. This tool only reads, "
                         "so nothing was changed; run it again if its result is still needed.")


@dataclass(frozen=True)
class Repaired:
    """What repair_history returns. `messages`: the view, a list a strict provider accepts.
    `interrupted`: the calls given a stand-in result, as they appear in `messages` (under the
    ids the request carries), in order."""
    messages: list
    interrupted: list


# --- your code ---
def repair_history(messages, is_read_only=None):
    """Return a Repaired view of `messages` in which every tool call has exactly one result,
    right after it, under an id no other call in the view uses.

    The history is read in spans: a span runs from an assistant message with calls up to the
    next assistant message. A span's results move to just after its calls, in call order, and
    the rest of the span (a steer typed while the tools ran) follows them in its own order.
    A result is paired only inside its own span, because a provider wants it in the turn right
    after its call; a call gets the first unpaired result with its id there, so when ids repeat
    the calls and results pair in the order they were recorded. Then:
      - a call with no result in its span gets a stand-in: INTERRUPTED_READ_ONLY when
        is_read_only(tool name) says the tool only reads, else INTERRUPTED (no is_read_only:
        every tool may have run partly). Those calls come back in .interrupted;
      - an empty id becomes call_{m}_{c}: m is the message's index in `messages`, c the
        call's index in that message;
      - an id used by an earlier call becomes {id}_{k}, with the smallest k >= 1 no earlier
        call uses; its result is renamed with it;
      - a result whose call is not in its span, or a second result for a call, is left out
        (lesson 10: inventing a call would put words in the model's mouth);
      - an assistant message with no calls and nothing but whitespace is a placeholder saved
        before the tools ran: it is dropped as if it had never been there, so it ends no span.

    Pure and deterministic: `messages` and its dicts are never changed; a message that needs
    no change may come back as the very object or as an equal copy (this one returns the
    objects it was handed), and a renamed call or result is a new dict. Every id and a span's
    whole output depend only on the span and what came before it, so the repair of a longer
    history starts with the same bytes as the repair of any shorter one that ends where an
    assistant message begins: a provider's prompt cache keeps hitting. Repairing a repaired
    history changes nothing.
    """
    view, interrupted, used = [], [], set()
    for start, rest in spans(messages):
        if start is None or not tool_calls(messages[start]):
            view += ([] if start is None else [messages[start]])
            view += [m for m in rest if m["role"] != "toolResult"]  # orphans are left out
            continue
        owner, calls = messages[start], tool_calls(messages[start])
        ids = [unique_id(call.get("id") or f"call_{start}_{c}", used)
               for c, call in enumerate(calls)]
        view.append(owner if ids == [call.get("id") for call in calls]
                    else renamed_calls(owner, iter(ids)))
        waiting = [m for m in rest if m["role"] == "toolResult"]
        for call, new_id in zip(calls, ids):
            found = next((m for m in waiting if m["tool_call_id"] == call.get("id")), None)
            if found is None:  # nothing recorded for it in its span
                stand_in = dict(call, id=new_id) if new_id != call.get("id") else call
                interrupted.append(stand_in)
                view.append(interrupted_result(stand_in, is_read_only))
                continue
            waiting.remove(found)  # paired: a second result for the same id waits for another
            view.append(found if found["tool_call_id"] == new_id
                        else dict(found, tool_call_id=new_id))
        view += [m for m in rest if m["role"] != "toolResult"]
    return Repaired(view, interrupted)
# --- starter ---
#| def repair_history(messages, is_read_only=None):
#|     """Lesson 11's repair: the rules are in the lesson, and in the summary below."""
#|     raise NotImplementedError("repair_history is yours to write in lesson 11")
#|
#|
#| # repair_history(messages, is_read_only=None) -> Repaired(messages=view, interrupted=calls),
#| # by the six rules of the walkthrough's "The rules of repair_history". A span runs from an
#| # assistant message with calls to the next assistant message.
#| #   1. a span's results move to just after its calls, in call order, the rest of the span
#| #      after them; a result pairs only with a call of its own span; two calls of a span
#| #      with one id take that id's results in the order they were recorded;
#| #   2. a call with no result in its span: INTERRUPTED, or INTERRUPTED_READ_ONLY when
#| #      is_read_only(tool name) is true; such calls are listed in .interrupted, ids as sent;
#| #   3. a result with no call in its span, or a second result for a call: left out;
#| #   4. an id an earlier call has becomes {id}_{k}, smallest k >= 1 free for that id, its
#| #      result renamed too;
#| #   5. an empty id becomes call_{m}_{c}: m the message's index in `messages`, c the call's
#| #      index among that message's calls;
#| #   6. an assistant message with no calls and only whitespace: dropped, ending no span;
#| #      empty content ([] or empty text blocks) is such a placeholder, whatever its
#| #      stop_reason (a failed reply with no words too).
#| # Pure (never changes `messages` or a message in it; returning the same message objects
#| # or equal copies is both fine), idempotent, and prefix-stable: a span's output and every
#| # id depend only on the span and what came before it.
#| #
#| # Given below the gap, for you to use: spans(messages), is_placeholder(message),
#| # unique_id(wanted, used), renamed_calls(message, ids) and interrupted_result(call,
#| # is_read_only).
#| #
#| # Lesson 10's repair, which the starter's view still uses until you change it:
#| def repair_tool_history(messages):
#|     """Every call followed at once by exactly one result, in call order (lesson 10)."""
#|     first_result = {}
#|     for message in messages:
#|         if message["role"] == "toolResult":
#|             first_result.setdefault(message["tool_call_id"], message)
#|     view = []
#|     for message in messages:
#|         if message["role"] == "toolResult":
#|             continue
#|         view.append(message)
#|         if message["role"] == "assistant":
#|             for call in tool_calls(message):
#|                 found = first_result.get(call["id"])
#|                 view.append(found if found is not None else interrupted_result(call))
#|     return view
# --- end ---


def spans(messages):
    """(index of the assistant message that opens a stretch, [the messages up to the next
    one]) for each stretch of `messages`, in order; index None for what comes before the first
    assistant message. Placeholders are skipped, as if they were not there."""
    found, start, rest = [], None, []
    for index, message in enumerate(messages):
        if message["role"] == "assistant" and not is_placeholder(message):
            found.append((start, rest))
            start, rest = index, []
        elif message["role"] != "assistant":
            rest.append(message)
    found.append((start, rest))
    return [(s, r) for s, r in found if s is not None or r]


def is_placeholder(message):
    """An assistant message with no calls and no words: saved before anything arrived."""
    return (message["role"] == "assistant" and not tool_calls(message)
            and not text_of(message).strip())


def unique_id(wanted, used):
    """`wanted`, or wanted_k with the smallest k >= 1 when an earlier call has it; noted in
    `used` either way."""
    new_id, k = wanted, 0
    while new_id in used:
        k += 1
        new_id = f"{wanted}_{k}"
    used.add(new_id)
    return new_id


def renamed_calls(message, ids):
    """A copy of assistant `message` whose call blocks take their ids, in order, from `ids`."""
    return dict(message, content=[dict(block, id=next(ids)) if block["type"] == "toolCall"
                                  else block for block in message["content"]])


def interrupted_result(call, is_read_only=None):
    """The stand-in result for a call that has none in its span."""
    read_only = is_read_only is not None and is_read_only(call["name"])
    return {"role": "toolResult", "tool_call_id": call["id"], "tool_name": call["name"],
            "content": INTERRUPTED_READ_ONLY if read_only else INTERRUPTED, "is_error": True}


# == the record on disk ==
# One line of JSON a message, appended as the message is recorded. Nothing in the file is ever
# rewritten: a crash can only cut its last line short, and loading says what it set aside.

def open_record(path):
    """The record's file at `path`, created when it is not there: a RecordFile."""
    return RecordFile(path)


class RecordFile:
    """A real file opened for reading and appending ("a+"): writes always go to the end.
    flush() hands what was written to the operating system, which outlives a killed process,
    and then os.fsync asks it to put the bytes on the disk itself, which outlives a power cut.
    Undecodable bytes (a character cut in half by a crash) read as U+FFFD."""

    def __init__(self, path):
        self._file = open(path, "a+", encoding="utf-8", errors="replace")

    def write(self, text):
        return self._file.write(text)

    def flush(self):
        self._file.flush()
        os.fsync(self._file.fileno())

    def seek(self, offset):
        return self._file.seek(offset)

    def read(self):
        return self._file.read()

    def close(self):
        self._file.close()


@dataclass(frozen=True)
class Loaded:
    """What load_record found: the messages of the whole lines, in order, and each line it
    set aside (torn by a crash), as text."""
    messages: list
    set_aside: list


def save_message(file, message):
    """Append `message` to `file` as one line of JSON, and flush it, so that it is on the
    disk when this returns (see RecordFile; the lab's Disk stores a write at once).

    One write a line, so a crash can cut a line short but never interleave two. json.dumps
    escapes every character outside ASCII, so a cut never splits a character either.
    """
    file.write(json.dumps(message) + "\n")
    file.flush()


def load_record(text):
    """The record written in `text`, a file of save_message's lines, as Loaded.

    A line is a message when it is a whole JSON object; the newline after it only separates.
    Any other line was cut short by a crash while it was being written: it is set aside, never
    half-read, and the whole lines around it are kept. A crash can only tear the last line,
    but a resumed harness closes that line with a newline (it never rewrites the file), so a
    torn line from an earlier crash can sit between whole ones: it is set aside again.
    """
    messages, set_aside = [], []
    for line in text.split("\n"):  # a line may hold any character but the newline
        # --- your code ---
        if not line:
            continue
        try:
            message = json.loads(line)
        except json.JSONDecodeError:
            message = None
        if isinstance(message, dict):
            messages.append(message)
        else:
            set_aside.append(line)
        # --- starter ---
        #| # Lesson 11: a line that is a whole JSON object goes to messages; any other line
        #| # was torn by a crash and goes to set_aside, as text. An empty piece is no line.
        #| raise NotImplementedError("load_record is yours to write in lesson 11")
        # --- end ---
    return Loaded(messages, set_aside)


# == harness ==
# One transcript and one writer. The loop stays stateless; the harness owns the list, and the
# file it is written to.


# place: after Harness
def resume_notice(interrupted, set_aside):
    """What to tell the user on picking a record up ("" when all is well): each line set
    aside, quoting its start, and each call that did not finish, by the id the model is shown,
    with its tool and its arguments (the file it would have changed), and a warning to look
    at what it would have changed before repeating it."""
    lines = [f"Set aside a line of the record that a crash cut short: {clip(line)}"
             for line in set_aside]
    lines += [f"Did not finish: {call['name']} {clip(json.dumps(call['arguments']))} "
              f"(call {call['id']})." for call in interrupted]
    if interrupted:
        lines.append("Each of these may not have run, or may have run partly: check what it "
                     "would have changed before repeating it, above all a write.")
    return "\n".join(lines)  # "" when all is well


def clip(text, most=80):
    """`text`, cut to `most` characters with an ellipsis when it is longer."""
    return text[:most - 1] + "…" if len(text) > most else text
