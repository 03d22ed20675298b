"""Shared pytest configuration: the fake Discord fixtures."""

pytest_plugins = ["tests.fakediscord.fixtures"]
