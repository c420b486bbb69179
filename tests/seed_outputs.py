"""What the seed lesson prints under each of its thirteen examples: our trusted reference.

Keyed by the id of the notebook cell that is the same example. Both the examples the suite
runs on its own (test_lesson_examples) and the notebook (test_notebook) are held against
these texts, which come from the lesson, not from running this project's code. The walk-away
also prints the record it leaves, as the seed's prose shows.
"""

SEED = {
    "steering": r"""
the record:       U A[c1,c2,c3] R(c1) R(c2) R(c3) U A
model calls:      2
second request:   U A[c1,c2,c3] R(c1) R(c2) R(c3) U
valid record:     True
""",
    "teammate-503": r"""
'What is in config.py?'  -> config.py sets PORT = 9090.
'And main.py?'           -> 503 overloaded
'Never mind. Hello?'     -> 400 invalid_request: messages[3]: assistant message has empty content
'Anyone?'                -> 400 invalid_request: messages[3]: assistant message has empty content

the record: U A U A(error) U A(error) U A(error)
""",
    "walk-away": r"""
the last event the screen got: tool_execution_start
commands that ran:             []
the record:                    U A[c1]

'Never mind. What is in config.py?'  -> 400 invalid_request: messages[1]: toolCall c1 has no toolResult
'Are you still there?'               -> 400 invalid_request: messages[1]: toolCall c1 has no toolResult
'Hello?'                             -> 400 invalid_request: messages[1]: toolCall c1 has no toolResult

the record: U A[c1] U A(error) U A(error) U A(error)
""",
    "card-1": r"""
record   U A[c1,c2] R(c1) U               refused: messages[1]: toolCall c2 has no toolResult
view     U A[c1,c2] R(c1) R(c2) U         accepted

what stands in c2's place:
toolResult c2 -> "Tool call interrupted: no result was recorded. It may not have run, or may have run partly; check before repeating it."  [is_error]
""",
    "card-2": r"""
record   U A R(c7) U                refused: messages[2]: toolResult c7 has no toolCall before it
view     U A U                      accepted

the result nobody asked for:
toolResult c7 -> "def main():\n\treturn 1\n"
everything the record can tell you about the call it answers:
  tool_call_id: c7
  tool_name:    read
  arguments:    no message in the record asked for c7
""",
    "card-3": r"""
record   U A[c1] U R(c1) A              refused, twice over:
         messages[1]: toolCall c1 has no toolResult
         messages[3]: toolResult c1 must directly follow its assistant message, in call order
view     U A[c1] R(c1) U A              accepted

what the model is shown for c1:
toolResult c1 -> "def main():\n\treturn 1\n"
is that the very message that was recorded? True
made-up results in the view: 0
""",
    "card-4": r"""
record   U A[c2] R(c2) R(c2) A          refused: messages[3]: toolResult c2 is a second result for a call that already has one
view     U A[c2] R(c2) A                accepted

the two results on the record, in the order they were recorded:
toolResult c2 -> "3 passed"
toolResult c2 -> "3 passed (second run)"
the one the model is shown:
toolResult c2 -> "3 passed"
""",
    "card-5": r"""
the reply that came back:
assistant -> "Writing the file." + toolCall c1 write({"path": "main.py"})  [error: stream ended before the message was complete]
writes to the disk:  []
the record:          U A[c1](error)

the next request:    U A[c1](error) R(c1) U
toolResult c1 -> "Tool call interrupted: no result was recorded. It may not have run, or may have run partly; check before repeating it."  [is_error]
the record:          U A[c1](error) U A
""",
    "choosing-words": r"""
(a) Tool call interrupted by user      provider: accepted
(b) Tool call interrupted: no resul... provider: accepted
(c) The tool ran. (not an error)       provider: accepted

what the record actually says about c2:
  it was asked for:        bash {'command': 'pytest'}
  results recorded for it: 0
  anything else:           nothing was written down
""",
    "when-repair-runs": r"""
repaired once, when the session was loaded:
   prompt 1, on yesterday's hole:   answered
   prompt 2, after a second hole:   400 invalid_request: messages[6]: toolCall c1 has no toolResult
   the record:                      U A[y1] R(y1) U A U A[c1] U A(error)

repaired before every request:
   prompt 1, on yesterday's hole:   answered
   prompt 2, after a second hole:   answered
   the record:                      U A[y1] U A U A[c1] U A
""",
    "record-and-view": r"""
the record: U A(error) U A[c1] U
the view:   U U A[c1] R(c1) U
the record, after building the view: U A(error) U A[c1] U

in the record and not in the view:
assistant -> (nothing)  [error: 503 overloaded]
in the view and not in the record:
toolResult c1 -> "Tool call interrupted: no result was recorded. It may not have run, or may have run partly; check before repeating it."  [is_error]

messages the view shares with the record: 4 of 5
""",
    "walk-away-sweep": r"""
walked away at event 5 of 21, on tool_execution_start
   steps that ran:             []
   the record it left:         U A[c1,c2]
   two prompts later:          answered, answered
   the record now:             U A[c1,c2] U A U A
   steps shown as interrupted: [1, 2]
   ... that really ran:        []
walked away at event 8 of 21, on tool_execution_start
   steps that ran:             [1]
   the record it left:         U A[c1,c2] R(c1)
   two prompts later:          answered, answered
   the record now:             U A[c1,c2] R(c1) U A U A
   steps shown as interrupted: [2]
   ... that really ran:        []
walked away at event 14 of 21, on tool_execution_start
   steps that ran:             [1, 2]
   the record it left:         U A[c1,c2] R(c1) R(c2) A[c3]
   two prompts later:          answered, answered
   the record now:             U A[c1,c2] R(c1) R(c2) A[c3] U A U A
   steps shown as interrupted: [3]
   ... that really ran:        []
""",
    "id-reuse": r"""
the record: U A[c1] R(c1) A[c1] R(c1) U
the view:   U A[c1] R(c1) A[c1] R(c1) U

what the model is shown:
user -> "Read a.py, then b.py."
assistant -> toolCall c1 read({"path": "a.py"})
toolResult c1 -> "A = 1\n"
assistant -> toolCall c1 read({"path": "b.py"})
toolResult c1 -> "A = 1\n"
user -> "Which is bigger?"

the strict model's verdict on the view: messages[3]: toolCall id c1 is used twice in this request
""",
}
