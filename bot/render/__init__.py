"""Everything a pupil or teacher reads, rendered: pure functions that never await.

`board` draws a game's board (embed + buttons), `invitations` challenges and lobbies, `texts`
the rules and help, `cards` card faces and exact values. Nothing here touches storage or the
network, so the services can render whenever they like and tests can render any position.
"""

from bot.render.board import (
    AnswerModalText,
    Board,
    dump_board,
    render_answer_modal,
    render_board,
    render_hint,
    render_modal_title,
)
from bot.render.cards import card_face, face_down, hidden_card, value_text
from bot.render.invitations import render_challenge, render_invitation, render_lobby
from bot.render.texts import help_text, rules_text

__all__ = [
    "AnswerModalText",
    "Board",
    "card_face",
    "dump_board",
    "face_down",
    "help_text",
    "hidden_card",
    "render_answer_modal",
    "render_board",
    "render_challenge",
    "render_hint",
    "render_invitation",
    "render_lobby",
    "render_modal_title",
    "rules_text",
    "value_text",
]
