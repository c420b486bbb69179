"""Works out which calls did not finish from the record as it was loaded, span by span, and
lists them under the ids the model wrote. The model is shown other ids: a provider that
restarts its ids makes the read call_0 again, which the view sends as call_0_1, so the user is
told about a call_0 the request does not hold (and that the first write already answered).

Fails: test_resume_names_an_unfinished_call_by_the_id_the_model_is_shown
"""


def unanswered_in_the_record(messages):
    missing = []
    for start, rest in spans(messages):
        if start is None:
            continue
        answered = {m["tool_call_id"] for m in rest if m["role"] == "toolResult"}
        missing += [call for call in tool_calls(messages[start]) if call.get("id") not in answered]
    return missing


class Harness(Harness):
    @classmethod
    def resume(cls, model, system, tools, file, max_turns=None):
        file.seek(0)
        text = file.read()
        loaded = load_record(text)
        if text and not text.endswith("\n"):
            file.write("\n")
            file.flush()
        harness = cls(model, system, tools, loaded.messages, max_turns, file)
        harness.set_aside = list(loaded.set_aside)
        harness.interrupted = unanswered_in_the_record(loaded.messages)
        harness.notice = resume_notice(harness.interrupted, harness.set_aside)
        return harness
