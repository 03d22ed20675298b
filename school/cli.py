"""The school server's commands, which `mattekrig` hands over whole: ``serve …`` (the server
itself, school/serve.py) and ``teachers …`` (the teachers who may sign in, school/teachers.py)."""

from __future__ import annotations

from school import serve, teachers

COMMANDS = ("serve", "teachers")


def main(argv: list[str]) -> int:
    """``argv`` starts with the command's name (``serve``, ``teachers``)."""
    command, rest = argv[0], argv[1:]
    if command == "serve":
        return serve.main(rest)
    if command == "teachers":
        return teachers.main(rest)
    raise ValueError(f"not a school server command: {command}")


__all__ = ["COMMANDS", "main"]
