"""Tells on_retry once the wait is over, when the user has already sat through it with
nothing on the screen to say why.

Fails: test_on_retry_is_told_before_each_wait
"""


class Retrying(Retrying):
    def __init__(self, model, policy, sleep, shrink=None, on_retry=None):
        told = []

        def sleep_then_tell(seconds):
            sleep(seconds)
            if told and on_retry is not None:
                on_retry(*told.pop())

        super().__init__(model, policy, sleep_then_tell, shrink,
                         lambda *news: told.append(news))
