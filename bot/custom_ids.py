"""The custom_id grammar of every button and modal the bot sends, built and parsed in one place.

A custom_id is the only state Discord hands back when a button is pressed, and it must still
make sense after a restart, so it names what was pressed and nothing else:

    mk:<verb>:<ref>[:<number>][:<arg>]         at most 100 characters

* ``verb`` -- one of `Verb`. Each verb belongs to one id space (`VERB_SPACES`), so the verb
  alone says what ``ref`` points at.
* ``ref`` -- the id the verb acts on, prefixed by its space marker: a game id is bare digits
  (``mk:answer:42:3``); a challenge is ``c<id>`` (``mk:accept:c17``) and a lobby ``l<id>``
  (``mk:join:l9``). Challenges and lobbies are rows of the storage ``invitations`` table, so
  their ids never collide; the marker keeps a game id from being read as an invitation id.
  A server is ``g<guild id>`` (``mk:page:g7:2:rating``, ``mk:season:g7::new``,
  ``mk:report:g7:1:1764547200000.0``: a page of the teacher's report and its days), a user
  ``u<user id>`` (``mk:forget:u5::yes``) and a class session ``s<session id>``
  (``mk:myline:s3``).
* ``number`` -- what the press is dated by: for game verbs, the game's decision window when
  the button was drawn (`CustomId.window`: a press from an older window is stale and is
  answered, never applied); for pages, the page (`CustomId.page`); for a new season, the
  season running when it was asked (`CustomId.season`).
* ``arg`` -- one short token for the verb (a bet's card ``1``, a page ``2``, ``yes``/``no``;
  for ``choose``, the control's name and its token or value: ``double.1``);
  letters, digits and ``_ . , + -``. An arg without a number is written with an empty number
  (``mk:season:g7::new``) so the fields stay positional.

Numbers are canonical (no sign, no leading zeros) and below 2**63 (SQLite's integers, and
every snowflake), and there is exactly one way to write each `CustomId`: ``build(*parse(s))``
gives back ``s`` for every ``s`` that parses. `parse` never raises, because custom_ids arrive
from the network and from other bots' components.

`TEMPLATE` (any of our ids) and `template(verb)` (one verb) are regexes for
``discord.ui.DynamicItem``'s ``template=``; discord.py matches them with ``fullmatch``. Give
each ``DynamicItem`` class its own verb's template: two classes whose templates both match an
id would race for it.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from enum import StrEnum

PREFIX = "mk"
MAX_LENGTH = 100  # Discord's limit for a component's custom_id
MAX_NUMBER = 2**63 - 1  # SQLite's INTEGER and Discord's snowflakes: larger ids name nothing


class Verb(StrEnum):
    # challenge space: a host invites named players
    ACCEPT = "accept"
    DECLINE = "decline"
    WITHDRAW = "withdraw"
    # lobby space: an open table anyone may join
    JOIN = "join"
    LEAVE = "leave"
    BEGIN = "begin"
    CANCEL = "cancel"
    TEAMS = "teams"
    # game space: the controls of a game's choices (`bot.render.buttons`), …
    TARGET = "target"
    ANSWER = "answer"
    BET = "bet"
    PASS = "pass"
    CHOOSE = "choose"  # a choice whose control has no verb of its own (arg: its name first)
    # … and the bot's own
    HINT = "hint"
    FLIP = "flip"
    AUTO = "auto"
    REMATCH = "rematch"
    SUMMARY = "summary"  # a finished game: the presser's own summary, privately
    # guild space: a server's leaderboard pages and the teacher's confirmations
    PAGE = "page"
    SEASON = "season"
    REPORT = "report"  # the teacher's report, a page of it (privately)
    # user space: a pupil's own confirmations
    FORGET = "forget"
    # session space: a class session's summary
    MY_LINE = "myline"  # the presser's own line of the session, privately


class Space(StrEnum):
    """What a custom_id's ``ref`` points at."""

    GAME = "game"
    CHALLENGE = "challenge"
    LOBBY = "lobby"
    GUILD = "guild"
    USER = "user"
    SESSION = "session"


MARKERS: dict[Space, str] = {
    Space.GAME: "",
    Space.CHALLENGE: "c",
    Space.LOBBY: "l",
    Space.GUILD: "g",
    Space.USER: "u",
    Space.SESSION: "s",
}

VERB_SPACES: dict[Verb, Space] = {
    Verb.ACCEPT: Space.CHALLENGE,
    Verb.DECLINE: Space.CHALLENGE,
    Verb.WITHDRAW: Space.CHALLENGE,
    Verb.JOIN: Space.LOBBY,
    Verb.LEAVE: Space.LOBBY,
    Verb.BEGIN: Space.LOBBY,
    Verb.CANCEL: Space.LOBBY,
    Verb.TEAMS: Space.LOBBY,
    Verb.PAGE: Space.GUILD,
    Verb.SEASON: Space.GUILD,
    Verb.REPORT: Space.GUILD,
    Verb.FORGET: Space.USER,
    Verb.MY_LINE: Space.SESSION,
    **{
        verb: Space.GAME
        for verb in (
            Verb.TARGET,
            Verb.ANSWER,
            Verb.BET,
            Verb.PASS,
            Verb.CHOOSE,
            Verb.HINT,
            Verb.FLIP,
            Verb.AUTO,
            Verb.REMATCH,
            Verb.SUMMARY,
        )
    },
}

_NUMBER = r"(?:0|[1-9][0-9]*)"
_ARG_CHARS = r"[A-Za-z0-9_.,+\-]"
_ARG_RE = re.compile(rf"{_ARG_CHARS}+")
# After the ref, a ':' must start a number or an empty number followed by ':<arg>'; the
# lookahead refuses a bare trailing ':' so every id has one spelling.
_TAIL = rf"(?::(?=[0-9:])(?P<number>{_NUMBER})?(?::(?P<arg>{_ARG_CHARS}+))?)?"


def _pattern(verb: str, marker: str) -> str:
    return rf"{PREFIX}:(?P<verb>{verb}):(?P<marker>{marker})(?P<ref>{_NUMBER}){_TAIL}"


TEMPLATE: re.Pattern[str] = re.compile(_pattern("[a-z]+", "[a-z]?"))
_TEMPLATES: dict[Verb, re.Pattern[str]] = {
    verb: re.compile(_pattern(re.escape(verb.value), re.escape(MARKERS[space])))
    for verb, space in VERB_SPACES.items()
}


def template(verb: Verb) -> re.Pattern[str]:
    """The regex matching exactly the ids `build` makes for ``verb`` (for a DynamicItem)."""
    return _TEMPLATES[verb]


def templates(verbs: Iterable[Verb]) -> re.Pattern[str]:
    """The regex matching exactly the ids `build` makes for any of ``verbs``, all of one space
    (for one DynamicItem that handles them all)."""
    chosen = sorted(verbs)
    spaces = {VERB_SPACES[v] for v in chosen}
    if len(spaces) != 1:
        raise ValueError(f"verbs of {len(spaces)} spaces: a template's ref has one marker")
    names = "|".join(re.escape(v.value) for v in chosen)
    return re.compile(_pattern(names, re.escape(MARKERS[spaces.pop()])))


@dataclass(frozen=True, slots=True)
class CustomId:
    """A parsed custom_id; ``arg`` stays a string because only the verb knows its type."""

    verb: Verb
    ref: int
    number: int | None = None
    arg: str | None = None

    @property
    def space(self) -> Space:
        return VERB_SPACES[self.verb]

    @property
    def game_id(self) -> int | None:
        return self.ref if self.space is Space.GAME else None

    @property
    def invitation_id(self) -> int | None:
        """The challenge or lobby id (one storage table holds both)."""
        return self.ref if self.space in (Space.CHALLENGE, Space.LOBBY) else None

    @property
    def guild_id(self) -> int | None:
        return self.ref if self.space is Space.GUILD else None

    @property
    def user_id(self) -> int | None:
        return self.ref if self.space is Space.USER else None

    @property
    def session_id(self) -> int | None:
        return self.ref if self.space is Space.SESSION else None

    @property
    def window(self) -> int | None:
        """A game's button: the decision window it was drawn in (None: any window)."""
        return self.number if self.space is Space.GAME else None

    @property
    def page(self) -> int:
        """A page's button: the page it shows (the first when none is written)."""
        return self._number_of(Verb.PAGE, Verb.REPORT)

    @property
    def season(self) -> int:
        """A new season's confirmation: the season running when it was asked (0: none)."""
        return self._number_of(Verb.SEASON)

    def _number_of(self, *verbs: Verb) -> int:
        return (self.number or 0) if self.verb in verbs else 0

    def int_arg(self) -> int | None:
        """``arg`` as an integer, or None when absent or not a whole number."""
        if self.arg is None:
            return None
        try:
            return int(self.arg)
        except ValueError:
            return None

    def to_custom_id(self) -> str:
        return build(self.verb, self.ref, self.number, self.arg)


def build(
    verb: Verb | str, ref: int, number: int | None = None, arg: str | int | None = None
) -> str:
    """The custom_id for pressing ``verb`` on ``ref`` (a game, challenge or lobby id, per verb).

    Raises ValueError for input our own code should never produce: an unknown verb, a
    negative number, an arg with a character outside the grammar, or a result over 100
    characters.
    """
    verb = Verb(verb)
    if isinstance(ref, bool) or not isinstance(ref, int) or not 0 <= ref <= MAX_NUMBER:
        raise ValueError(f"ref must be an int in 0..2**63-1, not {ref!r}")
    parts = [PREFIX, verb.value, f"{MARKERS[VERB_SPACES[verb]]}{ref}"]
    if number is not None:
        if isinstance(number, bool) or not isinstance(number, int) or not 0 <= number <= MAX_NUMBER:
            raise ValueError(f"number must be an int in 0..2**63-1, not {number!r}")
        parts.append(str(number))
    if arg is not None:
        text = str(arg)
        if not _ARG_RE.fullmatch(text):
            raise ValueError(f"arg {text!r} is empty or has a character outside [A-Za-z0-9_.,+-]")
        if number is None:
            parts.append("")
        parts.append(text)
    custom_id = ":".join(parts)
    if len(custom_id) > MAX_LENGTH:
        raise ValueError(f"custom_id is {len(custom_id)} characters; Discord allows {MAX_LENGTH}")
    return custom_id


def parse(custom_id: object) -> CustomId | None:
    """The `CustomId` in ``custom_id``, or None when it is not one of ours or is malformed."""
    if not isinstance(custom_id, str) or len(custom_id) > MAX_LENGTH:
        return None
    match = TEMPLATE.fullmatch(custom_id)
    if match is None:
        return None
    try:
        verb = Verb(match["verb"])
    except ValueError:
        return None
    if match["marker"] != MARKERS[VERB_SPACES[verb]]:
        return None
    ref = int(match["ref"])  # at most 100 digits: cheap, and canonical by the pattern
    number_text = match["number"]
    number = int(number_text) if number_text is not None else None
    if ref > MAX_NUMBER or (number is not None and number > MAX_NUMBER):
        return None  # no game, invitation, server or user has such an id
    return CustomId(verb=verb, ref=ref, number=number, arg=match["arg"])
