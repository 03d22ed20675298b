"""`python -m bot` / `mattekrig`: the command line lives in `bot.ops.cli`."""

from __future__ import annotations

from bot.ops.cli import main

if __name__ == "__main__":
    raise SystemExit(main())
