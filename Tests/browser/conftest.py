"""The harness every browser test runs under: a test whose page reported an uncaught error, a
console error or a failed request (pageerrors.py) fails, naming them, unless it allowed them."""

import pytest

import pageerrors
import test_studio


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item):
    pageerrors.begin(test_studio.driver)
    result = yield
    errors = pageerrors.unexpected(test_studio.driver)
    if errors:
        raise AssertionError("the page reported errors:\n" + "\n".join(errors))
    return result
