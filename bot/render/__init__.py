"""Everything a pupil or teacher reads, rendered: pure functions that never await.

`board` draws a game's board (embed + buttons), `invitations` challenges and lobbies, `texts`
the rules and help, `cards` card faces and exact values. Nothing here touches storage or the
network, so the services can render whenever they like and tests can render any position.

Modules are imported by name (this package imports none of them), so the discord-free ones
(`cards`, `results`, `board_text`, `naming`, `locale`) serve screens without discord too.
"""
