"""Slash-command groups that turn Discord interactions into engine actions."""
