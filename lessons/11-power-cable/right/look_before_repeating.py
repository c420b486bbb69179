"""Another correct notice, worded without the word "check": it names each call that did not
finish by the id the model is shown, with its tool and the file it would have changed, and
asks the user to look at that file before anything is run again. The tests must judge what a
notice tells the user, not whether it uses the lesson's words.
"""


def resume_notice(interrupted, set_aside):
    lines = []
    for line in set_aside:
        lines.append("A line of the saved session was cut off by the crash and is not loaded. "
                     f"It began: {line[:60]}")
    for call in interrupted:
        target = call["arguments"].get("path", "(no file named)")
        lines.append(f"{call['id']}: {call['name']} of {target} was cut short. Look at {target} "
                     "to see what it would have changed before you ask for it again.")
    return "\n".join(lines)
