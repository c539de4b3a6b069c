"""The project of files the guard cares about (tests/hookproject.py), for the tests of hook/."""

from tests.hookproject import project  # noqa: F401 - the fixture, shared with tests/guard
