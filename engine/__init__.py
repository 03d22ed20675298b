"""Pure Mattekrig game logic: no I/O, no clock, no global RNG, exact arithmetic.

Every game is configuration + seed + the ordered list of actions, so it can be stored,
restored and replayed bit for bit (see docs/replay.md).
"""
