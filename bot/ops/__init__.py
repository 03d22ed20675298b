"""Running the bot as an operator sees it: start-up checks, where the data lives, logs, the
one-bot-per-database lock, backups, and the `mattekrig` command line.

Nothing here is game logic; it wraps the client so that every problem an operator can fix
ends in one sentence and exit code 2 before the bot logs in, never in a traceback.
"""
