"""Everything a pupil or teacher reads, rendered: pure functions that never await.

`board` draws a game's board (embed + buttons), `invitations` challenges and lobbies, `texts`
the rules and help. Nothing here touches storage or the network, so the services can render
whenever they like and tests can render any position. The text both screens print (cards,
the board's lines, the round told) is `classroom.text`.
"""
