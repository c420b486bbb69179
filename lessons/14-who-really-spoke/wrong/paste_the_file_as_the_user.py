"""Records an attached file as a user message, the file's text under a line that names it, as
a harness that pastes the file into the prompt does: the file's words are the user's.

Fails: test_an_attached_file_reaches_the_model_as_the_harness_note_never_as_the_users_words
"""


class Harness(Harness):
    def attach(self, path, text):
        if self._running:
            raise RuntimeError("already running; attach a file before the next prompt")
        record_message(self._messages, user_message(f"File {path}:\n{text}"),
                       self._save if self._file is not None else None)
