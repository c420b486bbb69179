"""content[0]'s text: the one-liner everybody writes first, which reads one block of many.

Fails: test_text_of_joins_every_text_block_in_order
"""


def text_of(message):
    return message["content"][0]["text"]
