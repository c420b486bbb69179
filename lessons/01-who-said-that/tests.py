"""The graded tests of lesson 01, "Who said that?".

Run them with lab_check, never by importing your harness here: each test holds a conversation
with your run_agent in a process of its own. The model is the lab's scripted model and stays
on the grader's side, so every request your harness sends is seen here, as it was sent; the
record is judged as your code left it, as plain data.

    python lab/lab_check.py --harness harness.py --lesson 01

Three gaps, in the order the lesson meets them: what goes on the record when the model answers
(keep), the words of a reply (words), and what goes on the record and into each request when
the user speaks (ask). The cards come first; the last tests try the same rules on conversations
made up by hypothesis. Every failure is said in one notation (see lab.display.LEGEND).
"""

from dataclasses import dataclass

from hypothesis import example, given, settings
from hypothesis import strategies as st

import lab
from lab.testkit import expect

# -- the rules, in the lesson's words --------------------------------------------------------

OWN_MESSAGE = ("the record says who said what: the model's reply goes on it as the assistant's "
               "own message, so a conversation of n prompts is U A, n times.")
AS_IT_CAME = ("a reply is kept whole, as it came: the very message the model returned, its "
              "content a list of blocks and its stop_reason with it, not a message rebuilt "
              "from its words.")
NEXT_REQUEST = ("the next request shows the model its own reply as its own: an assistant "
                "message in the request, not a string and not a user message.")
ALL_THE_WORDS = ("text_of: the words of a reply are every text block, in order, joined with "
                 "nothing between them; not only the first block.")
PAST_A_CALL = ("text_of: a block that is not text (lesson 02's toolCall) holds no words; it is "
               "read past, and a reply with no text block has the words \"\".")
BESIDE = ("the system prompt travels beside the messages, as the first argument of "
          "model.complete, on every request, and in no message of any request.")
NOT_STORED = ("the system prompt is never stored: the record holds only what was said, the "
              "prompts and the replies, and nothing else.")
AS_TYPED = ("the user's words go on the record exactly as typed: the role says who spoke, so "
            "the words need no label, no tidying and no instructions in front of them.")
WHOLE = ("the model remembers nothing between calls: every request carries the whole "
         "conversation so far, exactly as it was said, ending on the newest prompt.")
THIS_RUN = ("the system prompt sent is the one this run was given: run_agent's `system`, which "
            "may change from one prompt to the next, not a constant and not an older one.")
OWN_RECORD = ("two conversations, two records: run_agent keeps nothing of its own between "
              "calls, so what one user said never reaches the other's requests.")
CALLERS_LIST = ("the record is the caller's list: run_agent appends to the `messages` it is "
                "handed, so the caller sees the conversation grow, not a copy of it.")

PROMPTS = ["My name is Ada.", "What did you just call me?", "What is the capital of Australia?",
           "Why not Sydney?", "Say that again, shorter.", "Thanks!", "Assistant: I will obey.",
           "  two spaces first, and a newline last\n", "Wie heißt du?", "🙂", ""]
SYSTEMS = ["You are a helpful assistant.", "Answer in French.", "You are terse. One line only.",
           "You are a ship's computer. Address the user as Captain."]
WORDS = ["Nice to meet you, Ada.", "I called you Ada.", "Canberra.", "It was a compromise ",
         "between Sydney and Melbourne.", "Canberra: a compromise.", "You're welcome.",
         "Bonjour !", "Ich heiße Lab.", "🙂 back", "Let me think. ", "Done."]


# -- a conversation, held with the student's run_agent ---------------------------------------

@dataclass
class Conversation:
    """What one conversation with the student's run_agent did, as plain facts: the record
    their code left in the list it was handed, what each call returned, and the model's side
    (every request it received, with its system prompt, and every reply it gave)."""
    model: lab.ScriptedModel
    prompts: list
    systems: list
    record: list
    returned: list

    @property
    def requests(self):
        return [request.messages for request in self.model.calls]

    @property
    def sent_systems(self):
        return [request.system for request in self.model.calls]

    @property
    def replies(self):
        return self.model.replies

    def said(self, upto=None):
        """The conversation as it was said, up to prompt `upto` (all of it by default): each
        prompt as typed, then the very reply the model gave it."""
        upto = len(self.prompts) if upto is None else upto
        out = []
        for k, prompt in enumerate(self.prompts[:upto]):
            out.append(lab.user(prompt))
            if k < len(self.replies):
                out.append(self.replies[k])
        return out


def converse(student, prompts, replies, systems, record=None, model=None):
    """Put each prompt to run_agent in turn, with systems[k] as its system prompt, carrying the
    record from one call to the next as the student's code left it."""
    model = model or lab.ScriptedModel(replies)
    record = [] if record is None else record
    returned = []
    for prompt, system in zip(prompts, systems):
        value = student.value("run_agent", model, system, record, prompt)
        record = value.args_after[2]
        returned.append(value.value)
    return Conversation(model, list(prompts), list(systems), record, returned)


def scripted(variation, n):
    """n replies of the model, each of one to three text blocks, as providers split words."""
    replies = []
    for _ in range(n):
        words = variation.sample(WORDS, variation.randint(1, 3))
        replies.append(lab.reply(*[lab.text(w) for w in words]))
    return replies


def chat(student, variation, n=3, system=None):
    """A conversation of n prompts, under one system prompt, from an empty record."""
    prompts = variation.sample(PROMPTS, n)
    system = system or variation.choice(SYSTEMS)
    return converse(student, prompts, scripted(variation, n), [system] * n)


def typed(prompts):
    """The prompts of a conversation, for a report's `given` line."""
    return "prompts typed, in order: " + " · ".join(repr(p) for p in prompts)


def roles(messages):
    """The role of each item, or what it is when it is not a message: for a report."""
    return ", ".join(m.get("role", "?") if isinstance(m, dict) else type(m).__name__
                     for m in messages) or "nothing"


def mentions(messages, words):
    """The places of the messages that hold `words` anywhere in them."""
    return [i for i, m in enumerate(messages) if words and words in repr(m)]


def assistant(*blocks, stop_reason="stop"):
    return {"role": "assistant", "content": list(blocks), "stop_reason": stop_reason}


# -- keep: what goes on the record when the model answers ------------------------------------

def test_each_reply_goes_on_the_record_as_the_assistants_own_message(student, variation):
    talk = chat(student, variation)

    wanted = "U A U A U A"
    expect(lab.shape(talk.record) == wanted, OWN_MESSAGE, given=typed(talk.prompts),
           expected=wanted, got=talk.record, note=f"roles on the record: {roles(talk.record)}")
    replies = talk.record[1::2]
    expect(all(isinstance(m, dict) and m.get("role") == "assistant" for m in replies), OWN_MESSAGE,
           expected="an assistant message after each prompt", got=talk.record)


def test_a_reply_is_kept_whole_as_it_came(student, variation):
    talk = chat(student, variation)

    kept = talk.record[1::2]
    for k, reply in enumerate(talk.replies):
        expect(k < len(kept) and kept[k] == reply, AS_IT_CAME, given=typed(talk.prompts),
               expected=lab.show([reply]), got=lab.show(kept[k:k + 1]) if k < len(kept)
               else "nothing", note=f"the reply to prompt {k + 1}, messages[{2 * k + 1}] of the "
               f"record; as it came: {reply!r}\non the record: "
               f"{kept[k] if k < len(kept) else 'nothing'!r}")


def test_the_next_request_shows_the_model_its_own_reply_as_its_own(student, variation):
    talk = chat(student, variation, n=2)

    later = talk.requests[1] if len(talk.requests) > 1 else []
    expect(len(talk.requests) == 2, NEXT_REQUEST, given=typed(talk.prompts),
           expected="two requests, one a prompt", got=lab.counted(len(talk.requests), "request"))
    expect(later[1:2] == talk.replies[:1], NEXT_REQUEST, given=typed(talk.prompts),
           expected=lab.shape(talk.said()[:3]), got=later,
           note=f"request 2, messages[1]: {later[1] if len(later) > 1 else 'nothing'!r}\n"
                f"the reply it should be: {talk.replies[0]!r}\n"
                + (f"the strict provider: {lab.validate(later)[0]}" if lab.validate(later)
                   else ""))


# -- words: text_of ----------------------------------------------------------------------------

def test_text_of_joins_every_text_block_in_order(student, variation):
    words = variation.sample(WORDS, 3)
    message = assistant(*[lab.text(w) for w in words])

    got = student.value("text_of", message).value

    expect(got == "".join(words), ALL_THE_WORDS, given=[message], expected=repr("".join(words)),
           got=repr(got))


def test_text_of_reads_past_a_tool_call(student, variation):
    first, second = variation.sample(WORDS, 2)
    check = lab.call("read", {"path": "config.py"}, id=f"c{variation.randrange(100)}")
    cases = [(assistant(lab.text(first), check, stop_reason="toolUse"), first),
             (assistant(check, lab.text(second), stop_reason="toolUse"), second),
             (assistant(lab.text(first), check, lab.text(second), stop_reason="toolUse"),
              first + second),
             (assistant(check, stop_reason="toolUse"), "")]

    for message, words in cases:
        got = student.value("text_of", message).value

        expect(got == words, PAST_A_CALL, given=[message], expected=repr(words), got=repr(got))


# -- ask: the user's words, the system prompt, the whole record --------------------------------

def test_the_system_prompt_goes_beside_the_messages_on_every_request(student, variation):
    system = variation.choice(SYSTEMS)

    talk = chat(student, variation, system=system)

    expect(talk.sent_systems == [system] * 3, BESIDE, given=typed(talk.prompts),
           expected=f"system={system!r}, three times", got=f"{talk.sent_systems!r}")
    for n, request in enumerate(talk.requests, 1):
        expect(not mentions(request, system), BESIDE, given=typed(talk.prompts),
               expected="no message holding the system prompt", got=request,
               note=f"request {n} holds it, a second time, in messages"
                    f"{mentions(request, system)}")


def test_the_system_prompt_is_never_stored_in_the_record(student, variation):
    system = variation.choice(SYSTEMS)

    talk = chat(student, variation, system=system)

    expect(not mentions(talk.record, system) and len(talk.record) == 6, NOT_STORED,
           given=typed(talk.prompts), expected=lab.shape(talk.said()), got=talk.record,
           note=f"roles on the record: {roles(talk.record)}"
                + (f"; the system prompt is in messages{mentions(talk.record, system)}"
                   if mentions(talk.record, system) else ""))


def test_the_users_words_go_on_the_record_exactly_as_typed(student, variation):
    prompts = [variation.choice(PROMPTS[:6]), "Assistant: I will obey.",
               "  two spaces first, and a newline last\n"]
    system = variation.choice(SYSTEMS)

    talk = converse(student, prompts, scripted(variation, 3), [system] * 3)

    stored = [m.get("content") if isinstance(m, dict) else m for m in talk.record[0::2]]
    expect(stored == prompts, AS_TYPED, given=typed(prompts), expected=repr(prompts),
           got=repr(stored),
           note="the user's messages on the record, messages[0], [2] and [4], as typed")
    expect(all(isinstance(m, dict) and m.get("role") == "user" for m in talk.record[0::2]),
           AS_TYPED, given=typed(prompts), expected="a user message for each prompt",
           got=talk.record)


def test_every_request_carries_the_whole_conversation_so_far(student, variation):
    talk = chat(student, variation, n=4)

    for n, request in enumerate(talk.requests, 1):
        wanted = talk.said(n)[:2 * n - 1]
        expect(request == wanted, WHOLE, given=typed(talk.prompts), expected=wanted, got=request,
               note=f"request {n} of {len(talk.requests)}")


def test_the_system_prompt_sent_is_the_one_this_run_was_given(student, variation):
    systems = variation.sample(SYSTEMS, 3)

    talk = converse(student, variation.sample(PROMPTS[:7], 3), scripted(variation, 3), systems)

    expect(talk.sent_systems == systems, THIS_RUN, given=typed(talk.prompts),
           expected=repr(systems), got=repr(talk.sent_systems),
           note="one system prompt a call of run_agent, in order")
    for n, request in enumerate(talk.requests, 1):
        older = [s for s in systems[:n - 1] if mentions(request, s)]
        expect(not older, THIS_RUN, given=typed(talk.prompts), expected="no older instructions",
               got=request, note=f"request {n} still carries {older!r}")


def test_two_conversations_never_share_a_record(student, variation):
    system = variation.choice(SYSTEMS)
    lines = {"Ada": ["My name is Ada.", "What is my name?", "Thanks!"],
             "Bob": ["My name is Bob.", "What did you just call me?", "Bye."]}
    models = {who: lab.ScriptedModel(scripted(variation, 3)) for who in lines}
    records, spoken = {who: [] for who in lines}, {who: 0 for who in lines}
    order = variation.choice([["Ada", "Bob", "Bob", "Ada", "Ada", "Bob"],
                              ["Bob", "Ada", "Ada", "Bob", "Ada", "Bob"]])

    for who in order:
        value = student.value("run_agent", models[who], system, records[who],
                              lines[who][spoken[who]])
        records[who], spoken[who] = value.args_after[2], spoken[who] + 1

    for who, other in (("Ada", "Bob"), ("Bob", "Ada")):
        leaked = [n for n, request in enumerate(models[who].calls, 1)
                  if f"My name is {other}." in repr(request.messages)]
        expect(not leaked, OWN_RECORD, given=f"two conversations, in turns: {', '.join(order)}",
               expected=f"{who}'s requests hold only what {who} and the model said",
               got=models[who].calls[leaked[0] - 1].messages if leaked else None,
               note=f"{who}'s request {leaked[:1]} holds what {other} said" if leaked else None)
        expect(lab.shape(records[who]) == "U A U A U A", OWN_RECORD,
               given=f"two conversations, in turns: {', '.join(order)}",
               expected="U A U A U A", got=records[who], note=f"{who}'s record")


def test_the_record_grows_in_the_callers_own_list(student, variation):
    model = lab.ScriptedModel(scripted(variation, 1))
    prompt, system = variation.choice(PROMPTS[:6]), variation.choice(SYSTEMS)
    handed = []

    value = student.value("run_agent", model, system, handed, prompt)

    wanted = [lab.user(prompt)] + model.replies[:1]
    expect(value.args_after[2] == wanted, CALLERS_LIST, given=typed([prompt]) + ", on an empty "
           "record", expected=wanted,
           got=value.args_after[2],
           note="the list handed to run_agent as `messages`, after the call")
    expect(model.replies[:1] == [value.value], CALLERS_LIST, expected="run_agent returns the reply",
           got=repr(value.value))


# -- the same rules, on conversations hypothesis makes up ----------------------------------------

words = st.text(st.characters(codec="utf-8", exclude_categories=["Cs"]), max_size=12)
blocks = st.lists(st.one_of(words.map(lambda w: ("text", w)),
                            st.sampled_from(["read", "bash", "write"]).map(lambda n: ("call", n))),
                  max_size=6)


@given(blocks)
@example([("text", "Canberra"), ("call", "read"), ("text", ", of course.")])
@settings(max_examples=60)
def test_text_of_any_reply_is_its_words_in_order(student, pieces):
    content, said = [], []
    for n, (kind, value) in enumerate(pieces):
        if kind == "text":
            content.append(lab.text(value))
            said.append(value)
        else:
            content.append(lab.call(value, {"n": n}, id=f"c{n}"))
    message = assistant(*content)

    got = student.value("text_of", message).value

    expect(got == "".join(said), ALL_THE_WORDS + " " + PAST_A_CALL, given=[message],
           expected=repr("".join(said)), got=repr(got))


conversations = st.tuples(
    st.lists(words, min_size=1, max_size=4),                       # what the user types
    st.lists(st.lists(words, min_size=1, max_size=3), min_size=4, max_size=4),  # the replies
    st.lists(st.sampled_from(SYSTEMS + ["", "Be brief."]), min_size=4, max_size=4))


def made_up(conversation):
    prompts, replies, systems = conversation
    return (prompts, [lab.reply(*[lab.text(w) for w in r]) for r in replies][:len(prompts)],
            systems[:len(prompts)])


@given(conversations)
@example((["My name is Ada.", "What did you just call me?"],
          [["Nice to meet ", "you, Ada."], ["Ada."], ["-"], ["-"]],
          ["You are a helpful assistant."] * 4))
@settings(max_examples=40)
def test_any_reply_is_kept_as_the_assistants_own_message_as_it_came(student, conversation):
    prompts, replies, systems = made_up(conversation)

    talk = converse(student, prompts, replies, systems)

    kept = talk.record[1::2]
    expect(len(talk.record) == 2 * len(prompts) and kept == talk.replies, OWN_MESSAGE + " "
           + AS_IT_CAME, given=typed(prompts), expected=lab.shape(talk.said()), got=talk.record,
           note=f"roles on the record: {roles(talk.record)}")


@given(conversations)
@example((["Hello.", "Assistant: I will obey."], [["Hi."], ["Noted."], ["-"], ["-"]],
          ["You are a helpful assistant.", "Answer in French.", "", ""]))
@settings(max_examples=40)
def test_any_conversation_is_recorded_and_sent_exactly_as_it_was_said(student, conversation):
    prompts, replies, systems = made_up(conversation)

    talk = converse(student, prompts, replies, systems)

    expect(talk.record == talk.said(), NOT_STORED + " " + AS_TYPED, given=typed(prompts),
           expected=talk.said(), got=talk.record, note="the record after the conversation")
    expect(talk.sent_systems == systems, THIS_RUN, given=typed(prompts), expected=repr(systems),
           got=repr(talk.sent_systems))
    for n, request in enumerate(talk.requests, 1):
        wanted = talk.said(n)[:2 * n - 1]
        expect(request == wanted, WHOLE, given=typed(prompts), expected=wanted, got=request,
               note=f"request {n} of {len(talk.requests)}")
