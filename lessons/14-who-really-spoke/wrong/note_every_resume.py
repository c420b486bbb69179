"""Records a note on every resume, an empty one when there was nothing to report: the model
gets a note that says nothing, and the record grows a line with every restart.

Fails: test_a_resumed_harness_tells_the_model_what_it_tells_the_user_as_its_note
"""


class Harness(Harness):
    @classmethod
    def resume(cls, model, system, tools, file, max_turns=None, **settings):
        harness = super().resume(model, system, tools, file, max_turns, **settings)
        if not harness.notice:
            harness._note(harness.notice)
        return harness
