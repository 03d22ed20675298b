"""The operations an answer practises, the words the records count answers under: levels
1–4 their own operation (add, multiply, divide, subtract), levels 5–7 the target, and also
the square or the root when the pupil's expression used one. The bot's results and the
browser table's summary count by these same words."""

from __future__ import annotations

LEVEL_OPERATIONS = {1: "add", 2: "multiply", 3: "divide", 4: "subtract"}
TARGET_OPERATIONS = ("target", "square", "root")
OPERATIONS = (*LEVEL_OPERATIONS.values(), *TARGET_OPERATIONS)


def main_operation(level: int) -> str:
    """The operation a level's misses and exact hits count under: its own (1–4), or the
    target (5–7)."""
    return LEVEL_OPERATIONS.get(level, "target")


def practised(level: int, targets: bool, expr: str) -> tuple[str, ...]:
    """What an answer practised: levels 1–4 their operation, 5–7 (``targets``) the target,
    and a square or a root when the expression used one."""
    if not targets:
        return (LEVEL_OPERATIONS.get(level, "add"),)
    ops = ["target"]
    if "²" in expr:
        ops.append("square")
    if "√" in expr:
        ops.append("root")
    return tuple(ops)
