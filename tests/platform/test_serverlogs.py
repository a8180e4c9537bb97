"""The ASGI server's logs: a backing service lost under a task nobody awaits is a
warning, any other exception there stays an error with its traceback."""

import asyncio
import gc
import logging
import threading

import pytest
import redis

from config import serverlogs


def orphan_task_raising(error: BaseException) -> None:
    """Run a task that raises ``error`` and that nobody awaits, then let it go: asyncio
    reports the exception when the task is collected."""

    async def background() -> None:
        raise error

    async def main() -> None:
        task = asyncio.ensure_future(background())
        await asyncio.sleep(0.01)
        assert task.done()  # and nobody asks for its exception

    def in_own_thread() -> None:
        # A thread of its own: an earlier test (a browser's) may keep a loop running in
        # this one.
        loop = asyncio.new_event_loop()
        try:
            loop.run_until_complete(main())
        finally:
            loop.close()
        gc.collect()

    thread = threading.Thread(target=in_own_thread, name="orphan-task")
    thread.start()
    thread.join()


@pytest.fixture
def installed():
    serverlogs.install()
    logger = logging.getLogger("asyncio")
    yield
    for found in [f for f in logger.filters if isinstance(f, serverlogs.LostServiceInOrphanTasks)]:
        logger.removeFilter(found)


def test_redis_lost_under_an_orphan_task_is_a_warning(installed, caplog):
    with caplog.at_level(logging.WARNING, logger="asyncio"):
        orphan_task_raising(redis.exceptions.ConnectionError("Connection closed by server."))
    records = [r for r in caplog.records if r.name == "asyncio"]
    assert [r.levelname for r in records] == ["WARNING"]
    assert records[0].exc_info is None
    assert "Connection closed by server." in records[0].getMessage()


@pytest.mark.expected_log_errors(r"Task exception was never retrieved", r"a defect")
def test_any_other_exception_of_an_orphan_task_stays_an_error(installed, caplog):
    with caplog.at_level(logging.WARNING, logger="asyncio"):
        orphan_task_raising(ValueError("a defect"))
    records = [r for r in caplog.records if r.name == "asyncio"]
    assert [r.levelname for r in records] == ["ERROR"]
    assert records[0].exc_info[1].args == ("a defect",)
