"""`python -m bot` / `mattekrig`: start the bot, or end with one clear sentence why not."""

from __future__ import annotations

import argparse
import logging
import sys

import aiohttp
import discord

from bot.config import ConfigError, load_config


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="mattekrig", description="Run the Mattekrig bot.")
    parser.add_argument(
        "--sync", action="store_true", help="sync slash commands globally at start-up"
    )
    args = parser.parse_args(argv)
    try:
        config = load_config()
    except ConfigError as error:
        print(f"mattekrig: {error}", file=sys.stderr)
        return 2
    discord.utils.setup_logging(level=getattr(logging, config.log_level))
    discord.VoiceClient.warn_nacl = False  # the bot never uses voice
    from bot.client import MattekrigBot

    bot = MattekrigBot(config, sync_global=args.sync)
    try:
        bot.run(config.token, log_handler=None)
    except discord.LoginFailure:
        print(
            "mattekrig: Discord rejected DISCORD_TOKEN: reset the token in the Developer "
            "Portal (Bot → Reset Token) and put the new one in .env.",
            file=sys.stderr,
        )
        return 2
    except discord.PrivilegedIntentsRequired:  # pragma: no cover - the bot asks for none
        print("mattekrig: Discord refused the bot's intents.", file=sys.stderr)
        return 2
    except (aiohttp.ClientError, OSError) as error:
        print(f"mattekrig: cannot reach Discord ({error}); check the network.", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
