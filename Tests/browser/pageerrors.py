"""What the page reported in one test: every uncaught error (a TypeError in a key handler, a
rejected promise), every console error, and every request that failed (a refusal the server
answered with 4xx or 5xx, a connection refused). conftest.py fails each test whose page
reported any that the test did not expect with `allow`.

Chromium's browser log holds them all, across navigations and windows; the log is read at the
start of each test (and so emptied), when a studio closes (before its page loses the studio,
which is no error of the page's) and at the end of the test."""

import re

_seen = []
_allowed = []


def allow(*patterns):
    """Lets the current test's page report what matches any of `patterns` (regular expressions
    searched in the log's line): a refusal or a lost studio that the test brings about."""
    _allowed.extend(re.compile(pattern) for pattern in patterns)


def collect(driver):
    """Keeps what the page reported since the last read."""
    if driver is None:
        return
    try:
        entries = driver.get_log("browser")
    except Exception:
        # The browser is gone (the module's teardown quit it): nothing more to read.
        return
    _seen.extend(entry["message"] for entry in entries if entry.get("level") == "SEVERE")


def begin(driver):
    """A new test: what an earlier test left in the log is not this one's."""
    collect(driver)
    _seen.clear()
    _allowed.clear()


def unexpected(driver):
    """What the page reported in this test that it did not `allow`."""
    collect(driver)
    return [message for message in _seen if not any(pattern.search(message) for pattern in _allowed)]
