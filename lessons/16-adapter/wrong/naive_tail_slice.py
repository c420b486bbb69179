"""Wrong: the trim is the tail slice everyone writes first, messages[-keep:], which can begin
on a result whose call was cut away (and, at keep=0, returns everything).
Fails: test_safe_trim_is_legal_at_every_keep
"""


def safe_trim(messages, keep):
    return list(messages[-keep:])
