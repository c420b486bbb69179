"""Renames repeated ids with one counter for the whole history: every rename takes the next k,
whichever id it is renaming. With one id that repeats, that is the smallest free k; with two,
call_0 and call_1 repeated become call_0_1 and call_1_2, a number call_1 never needed. The
request is valid and stable; it breaks the rule that each id counts its own k.

Fails: test_each_repeated_id_takes_its_own_smallest_free_k
"""

_one_counter = [0]


def unique_id(wanted, used):
    new_id = wanted
    if new_id in used:
        k = _one_counter[0]
        while new_id in used:
            k += 1
            new_id = f"{wanted}_{k}"
        _one_counter[0] = k
    used.add(new_id)
    return new_id


_repair_with_one_counter = repair_history


def repair_history(messages, is_read_only=None):
    _one_counter[0] = 0  # one count a repair, shared by every id in it
    return _repair_with_one_counter(messages, is_read_only)
