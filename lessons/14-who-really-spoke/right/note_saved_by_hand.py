"""Another correct harness: attach asks the public is_running, and _note appends the entry and
saves it itself, without record_message (nobody is listening for a note's event here).
"""


class Harness(Harness):
    def attach(self, path, text):
        if self.is_running:
            raise RuntimeError("a run is going: attach the file when it has ended")
        self._note(attached_file(path, text))

    def _note(self, text):
        entry = note_entry(text)
        self._messages.append(entry)
        if self._file is not None:
            save_message(self._file, entry)
