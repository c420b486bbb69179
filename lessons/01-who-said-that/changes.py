"""A small agent harness: lesson 01, "Who said that?".

Read it top to bottom: the messages a conversation is made of, and the loop, which for now
is one exchange: the user speaks, the model answers, and both are kept in the record, a
list of dicts that says who said what. Nothing here talks to a network, so the lab's
scripted model can stand in for a real one.
"""

# == 1 messages ==
# A conversation is a list of dicts. Each one says, in its "role", who is speaking.

SYSTEM = "You are a helpful assistant."  # sent with every request, never stored in the record


def user_message(text):
    """What the user typed. A user message's content is a plain string."""
    return {"role": "user", "content": text}


def text_of(message):
    """The words of an assistant message: its content is a list of blocks, and the words are
    the "text" blocks, joined."""
    # --- your code ---
    return "".join(block["text"] for block in message["content"] if block["type"] == "text")
    # --- starter ---
    #| # A first draft, the one-liner everybody writes first. Which replies does it get wrong?
    #| # The words are every block whose "type" is "text", in order, joined with nothing
    #| # between them; any other block (lesson 02's tool calls) holds no words.
    #| return message["content"][0]["text"]
    # --- end ---


# == 2 loop ==
# The loop talks to the model. It holds no state between runs: the record is passed in.

def run_agent(model, system, messages, prompt):
    """One exchange: the user's `prompt` goes on the record, the model is asked with the whole
    record and the system prompt beside it, and its reply goes on the record too. Returns the
    reply. The system prompt travels with every request and is never stored: the record holds
    only what was said, and who said it."""
    # --- your code ---
    messages.append(user_message(prompt))
    reply = model.complete(system, messages, [])
    # --- starter ---
    #| # A teammate's draft. The record is `messages`, the caller's list; the model's call is
    #| # complete(system, messages, tools), and lesson 01 has no tools yet.
    #| if not messages:  # a new conversation: put the instructions in front of its first words
    #|     prompt = f"{system}\n\n{prompt}"
    #| messages.append(user_message(prompt))
    #| reply = model.complete(system, messages, [])
    # --- end ---
    # --- your code ---
    messages.append(reply)
    # --- starter ---
    #| messages.append(user_message(text_of(reply)))  # keep what the model said
    # --- end ---
    return reply
