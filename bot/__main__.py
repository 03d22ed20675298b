"""`python -m bot` / `mattekrig`: start the bot, or end with one clear sentence why not."""

from __future__ import annotations

import sys

from bot.config import ConfigError, load_config


def main(argv: list[str] | None = None) -> int:
    try:
        load_config()
    except ConfigError as error:
        print(f"mattekrig: {error}", file=sys.stderr)
        return 2
    print(
        "mattekrig: the Discord client is not part of this build yet; "
        "the engine can be tried with `python -m engine.replay FILE.json`.",
        file=sys.stderr,
    )
    return 1


if __name__ == "__main__":
    raise SystemExit(main())
