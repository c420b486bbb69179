"""Shows the resume notice to the user and tells the model nothing: the model goes on as if
the record were whole, and never hears of the line a crash set aside.

Fails: test_a_resumed_harness_tells_the_model_what_it_tells_the_user_as_its_note
"""


class Harness(Harness):
    def _note(self, text):
        if not text.startswith("The user attached"):
            return  # a resume's notice: for the user's eyes only
        record_message(self._messages, note_entry(text),
                       self._save if self._file is not None else None)
