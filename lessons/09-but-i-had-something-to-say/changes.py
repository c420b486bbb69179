"""A small agent harness: lesson 09, "But I had something to say".

Read it top to bottom: messages, tools, the loop and what it sends, the harness that owns
the transcript, and two frontends. New since lesson 08: the user can speak mid-run, with
steer() and follow_up(), and the loop lets their words in only where a user message keeps
the transcript valid. Everything is plain dicts and generators; nothing here talks to a
network, so the lab's scripted model can stand in for a real one.
"""

from collections import deque
