"""Every block's "text", joined: right for words, and a KeyError the day a reply asks for a
tool, whose toolCall block has no "text".

Fails: test_text_of_reads_past_a_tool_call
"""


def text_of(message):
    return "".join(block["text"] for block in message["content"])
