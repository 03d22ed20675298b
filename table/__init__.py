"""The classroom table: Mattekrig in a web browser, with no Discord, account or token.

`python -m table` (and `mattekrig play`) starts a small aiohttp server on this computer and
opens the page. Games live in memory, are played by the engine and its view, and are told in
the words of the Discord board (`classroom.i18n`, `classroom.text.board_text`,
`classroom.text.results`).
Nothing here imports discord.
"""
