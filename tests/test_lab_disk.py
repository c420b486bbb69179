"""lab.Disk, a disk that loses power at an exact byte, and models that name their calls as
providers do (lab.restarting_ids, lab.empty_ids), with the validator's rule on empty ids."""

import pytest

import lab


def test_power_fails_at_the_byte_asked_for_and_the_write_that_crosses_it_raises():
    disk = lab.Disk(power_fails_after=7)
    file = disk.open("log")

    file.write("abc\n")
    with pytest.raises(lab.PowerCut) as cut:
        file.write("defgh\n")

    assert disk.read_bytes("log") == b"abc\ndef", f"kept: {disk.read_bytes('log')!r}"
    assert disk.dead and disk.written == 7, (disk.dead, disk.written)
    assert disk.writes == [("log", 0, 4), ("log", 4, 7)], disk.writes
    assert "3 of the 6 bytes" in str(cut.value), str(cut.value)
    with pytest.raises(lab.PowerCut):
        file.write("more")


def test_a_program_that_swallows_the_power_cut_still_writes_nothing_more():
    disk = lab.Disk(power_fails_after=2)
    file = disk.open("log")
    try:
        file.write("abc")
    except Exception:  # a harness that shrugs the failure off and carries on
        pass

    with pytest.raises(lab.PowerCut):
        file.write("d")
    assert disk.read_text("log") == "ab"


def test_power_off_between_writes_keeps_everything_written_so_far():
    disk = lab.Disk()
    file = disk.open("log")
    file.write("one\n")

    disk.power_off()

    with pytest.raises(lab.PowerCut):
        file.write("two\n")
    assert disk.read_text("log") == "one\n"


def test_restart_is_a_fresh_disk_with_the_surviving_bytes_and_the_power_on():
    disk = lab.Disk(power_fails_after=5)
    with pytest.raises(lab.PowerCut):
        disk.open("log").write("héllo")

    back = disk.restart()
    back.open("log").write("!")

    assert disk.read_bytes("log") == "héll".encode()
    assert back.read_text("log") == "héll!", "a restarted disk keeps the bytes and writes on"
    assert not back.dead and back.written == 1


def test_a_character_cut_in_half_reads_as_a_replacement_character():
    disk = lab.Disk(power_fails_after=2)
    with pytest.raises(lab.PowerCut):
        disk.open("log").write("aé")

    assert disk.read_text("log") == "a\ufffd", repr(disk.read_text("log"))


def test_a_file_appends_whatever_its_position_and_reads_from_it_like_a_plus_mode():
    disk = lab.Disk({"log": "one\n"})
    file = disk.open("log")

    unread = file.read()
    file.seek(0)
    everything = file.read()
    file.seek(0)
    file.write("two\n")

    assert (unread, everything) == ("", "one\n"), (unread, everything)
    assert disk.read_text("log") == "one\ntwo\n", "writes go to the end, as in mode a+"


def test_truncation_is_recorded_so_a_rewrite_can_be_told_from_an_append():
    disk = lab.Disk({"log": "one\ntwo\n"})
    file = disk.open("log")

    file.truncate(4)

    assert disk.read_text("log") == "one\n" and disk.truncations == [("log", 4)]


def test_a_closed_file_refuses_to_write_and_a_missing_one_names_what_is_there():
    disk = lab.Disk({"a": ""})
    file = disk.open("log")
    file.close()

    with pytest.raises(ValueError, match="closed"):
        file.write("x")
    with pytest.raises(FileNotFoundError, match="a, log"):
        disk.read_text("nope")


def test_restarting_ids_start_again_every_reply_and_empty_ids_are_empty():
    script = [lab.reply(lab.call("search", {}), lab.call("search", {})), lab.reply(lab.call("read", {}))]
    kimi = lab.ScriptedModel(script, ids=lab.restarting_ids("functions.{name}:{k}"))
    blank = lab.ScriptedModel(script, ids=lab.empty_ids)

    first = kimi.complete("", [lab.user("x")], [])
    answered = [first] + [lab.tool_result(c, "ok") for c in first["content"]]
    second = kimi.complete("", [lab.user("x")] + answered, [])
    nameless = blank.complete("", [lab.user("x")], [])

    assert [c["id"] for c in first["content"]] == ["functions.search:0", "functions.search:1"]
    assert [c["id"] for c in second["content"]] == ["functions.read:0"]
    assert [c["id"] for c in nameless["content"]] == ["", ""]


def test_the_provider_refuses_a_call_with_an_empty_id():
    nameless = lab.call("read", {}, id="")
    request = [lab.user("x"), lab.reply(nameless), lab.tool_result(nameless, "ok")]

    assert lab.validate(request) == ["messages[1]: toolCall id '' is empty"], lab.validate(request)
