"""lab.drive: take a run's events, or walk away after k of them and close the run."""

import asyncio

import lab


def counting_run(log):
    try:
        for n in range(5):
            yield n
        log.append("finished")
    finally:
        log.append("closed")


async def counting_async_run(log):
    try:
        for n in range(5):
            yield n
    finally:
        log.append("closed")


def test_drive_takes_every_event_of_a_run():
    log = []

    events = asyncio.run(lab.drive(counting_run(log)))

    assert events == [0, 1, 2, 3, 4] and log == ["finished", "closed"], f"{events}, {log}"


def test_stop_after_takes_k_events_and_closes_the_run_there():
    log = []

    events = asyncio.run(lab.drive(counting_run(log), stop_after=2))

    assert events == [0, 1], f"took {events}"
    assert log == ["closed"], f"the run should be closed without finishing: {log}"


def test_drive_walks_away_from_an_async_run_too():
    log = []

    events = asyncio.run(lab.drive(counting_async_run(log), stop_after=3))

    assert events == [0, 1, 2] and log == ["closed"], f"{events}, {log}"


def test_stop_after_beyond_the_end_takes_the_whole_run():
    log = []

    events = asyncio.run(lab.drive(counting_run(log), stop_after=50))

    assert events == [0, 1, 2, 3, 4] and log == ["finished", "closed"], f"{events}, {log}"
