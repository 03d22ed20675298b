"""Message bodies checked against Discord's documented limits (400 50035, or 50006).

Content, embeds, components, allowed mentions, the flags an endpoint lets a bot set, and the
files of a request (how many, and every ``attachment://NAME`` and ``attachments[].id`` naming
a file Discord has). Each ``check_*`` records what is broken in a :class:`~.problems.Problems`
so one answer lists every broken rule, as Discord's does. The numbers come from
:data:`.limits.LIMITS`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from .component_checks import check_components
from .errors import EMPTY_MESSAGE, ApiError
from .limits import (
    ATTACHMENT_DESCRIPTION_MAX,
    ATTACHMENT_SCHEME,
    ATTACHMENTS_MAX,
    EMBED_AUTHOR_MAX,
    EMBED_DESCRIPTION_MAX,
    EMBED_FIELD_NAME_MAX,
    EMBED_FIELD_VALUE_MAX,
    EMBED_FIELDS_MAX,
    EMBED_FOOTER_MAX,
    EMBED_TITLE_MAX,
    EMBED_TOTAL_MAX,
    EMBED_URL_FIELDS,
    EMBEDS_MAX,
    FLAG_COMPONENTS_V2,
    MESSAGE_CONTENT_MAX,
    FlagRule,
)
from .problems import Path, Problems, as_dict, as_list


def check_message(
    payload: Mapping[str, Any],
    problems: Problems,
    prefix: Path = (),
    *,
    flags: FlagRule | None = None,
    current_flags: int = 0,
) -> None:
    """Content, embeds, components, allowed mentions and (with ``flags``, the endpoint's rule)
    the flags of a message create/edit body; only the fields present are checked."""
    content = payload.get("content")
    if content is not None:
        problems.length((*prefix, "content"), content, 0, MESSAGE_CONTENT_MAX)
    embeds = payload.get("embeds")
    if embeds is not None:
        check_embeds(as_list(embeds), problems, (*prefix, "embeds"))
    raw_flags = payload.get("flags")
    sent_flags = raw_flags if isinstance(raw_flags, int) else 0
    if flags is not None:
        check_flags(sent_flags, flags, problems, (*prefix, "flags"), current=current_flags)
    v2 = bool((sent_flags | current_flags) & FLAG_COMPONENTS_V2)
    components = payload.get("components")
    if components is not None:
        check_components(as_list(components), problems, (*prefix, "components"), v2=v2)
    if v2 and (content or embeds):
        problems.add(
            (*prefix, "content") if content else (*prefix, "embeds"),
            "MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2",
            "The 'content' and 'embeds' fields cannot be used with MessageFlags.IS_COMPONENTS_V2",
        )
    mentions = payload.get("allowed_mentions")
    if isinstance(mentions, Mapping):
        check_allowed_mentions(mentions, problems, (*prefix, "allowed_mentions"))


def check_flags(
    sent: int, rule: FlagRule, problems: Problems, path: Path, *, current: int = 0
) -> None:
    """Only the flags the endpoint lets a bot set; an edit may repeat the message's other
    flags as they are (discord.py sends the message's flags back when it suppresses embeds)."""
    # An edit is refused only for a flag it would add: one the message has already, or one
    # the body leaves out, is no change.
    changed = sent & ~current if rule.edit else sent
    refused = changed & ~rule.allowed
    if refused:
        bits = ", ".join(f"1 << {bit}" for bit in range(refused.bit_length()) if refused >> bit & 1)
        problems.add(path, "MESSAGE_FLAGS_INVALID", f"Flags {bits} cannot be set here.")


def check_allowed_mentions(mentions: Mapping[str, Any], problems: Problems, path: Path) -> None:
    """``parse`` may not name a kind that is also listed by id: Discord's documentation calls
    the two mutually exclusive and answers both at once with a validation error."""
    parse = as_list(mentions.get("parse"))
    for kind in ("users", "roles"):
        if kind in parse and as_list(mentions.get(kind)):
            problems.add(
                (*path, kind),
                "SET_TYPE_ALREADY_CONTAINS_VALUE",
                f"parse:[{kind}] and {kind}: [ids] are mutually exclusive.",
            )


def check_embeds(embeds: list[Any], problems: Problems, path: Path) -> None:
    """At most 10 embeds, each field within its limit and 6000 characters across all of them."""
    problems.count(path, embeds, 0, EMBEDS_MAX)
    total = 0
    for index, raw in enumerate(embeds):
        embed = as_dict(raw)
        here = (*path, index)
        title = embed.get("title")
        description = embed.get("description")
        footer = as_dict(embed.get("footer")).get("text")
        author = as_dict(embed.get("author")).get("name")
        if title is not None:
            problems.length((*here, "title"), title, 0, EMBED_TITLE_MAX)
        if description is not None:
            problems.length((*here, "description"), description, 0, EMBED_DESCRIPTION_MAX)
        if footer is not None:
            problems.length((*here, "footer", "text"), footer, 0, EMBED_FOOTER_MAX)
        if author is not None:
            problems.length((*here, "author", "name"), author, 0, EMBED_AUTHOR_MAX)
        fields = as_list(embed.get("fields"))
        problems.count((*here, "fields"), fields, 0, EMBED_FIELDS_MAX)
        for field_index, raw_field in enumerate(fields):
            field = as_dict(raw_field)
            at = (*here, "fields", field_index)
            for key, high in (("name", EMBED_FIELD_NAME_MAX), ("value", EMBED_FIELD_VALUE_MAX)):
                text = field.get(key)
                if isinstance(text, str) and text and not text.strip():
                    # Discord trims a field's text: one of blanks only is empty.
                    problems.required((*at, key))
                else:
                    problems.length((*at, key), text, 1, high)
            total += len(str(field.get("name") or "")) + len(str(field.get("value") or ""))
        for text in (title, description, footer, author):
            total += len(text) if isinstance(text, str) else 0
    if total > EMBED_TOTAL_MAX:
        problems.add(
            path, "MAX_EMBED_SIZE_EXCEEDED", f"Embed size exceeds maximum size of {EMBED_TOTAL_MAX}"
        )


# -- files ------------------------------------------------------------------------------------


def embed_attachment_urls(embeds: Sequence[Any]) -> list[tuple[Path, str]]:
    """Every ``attachment://NAME`` an embed points at, with its field path and the NAME."""
    found: list[tuple[Path, str]] = []
    for index, raw in enumerate(embeds):
        embed = as_dict(raw)
        for part, key in EMBED_URL_FIELDS:
            url = as_dict(embed.get(part)).get(key)
            if isinstance(url, str) and url.startswith(ATTACHMENT_SCHEME):
                found.append(((index, part, key), url.removeprefix(ATTACHMENT_SCHEME)))
    return found


def check_attachments(
    payload: Mapping[str, Any],
    uploaded: Mapping[int, str],
    kept: Mapping[int, str],
    problems: Problems,
    prefix: Path = (),
) -> None:
    """The files of one request, as Discord reads them.

    ``uploaded`` maps each ``files[n]`` index to its file name; ``kept`` maps the ids of the
    message's current files to theirs. Every ``attachments[].id`` must be one of either (a new
    file's id is its ``n``); at most 10 files stay on the message; every ``attachment://NAME``
    in an embed names a file of the result. Discord itself shows an embed without its image
    when the name matches nothing; the fake refuses it, since a picture that silently vanishes
    is exactly the bug a test should see.
    """
    listed = payload.get("attachments")
    names: list[str]
    if isinstance(listed, list):
        names = []
        mentioned: set[int] = set()
        for index, raw in enumerate(listed):
            entry = as_dict(raw)
            here = (*prefix, "attachments", index)
            description = entry.get("description")
            if description is not None:
                problems.length((*here, "description"), description, 0, ATTACHMENT_DESCRIPTION_MAX)
            try:
                attachment_id = int(entry.get("id"))  # type: ignore[arg-type]
            except (TypeError, ValueError):
                problems.required((*here, "id"))
                continue
            mentioned.add(attachment_id)
            if attachment_id in uploaded:
                names.append(uploaded[attachment_id])
            elif attachment_id in kept:
                names.append(kept[attachment_id])
            else:
                problems.add(
                    (*here, "id"),
                    "ATTACHMENT_NOT_FOUND",
                    f"Unknown attachment {attachment_id}: neither files[{attachment_id}] nor a "
                    "file of the message.",
                )
        # Files uploaded but not listed are appended all the same.
        names += [name for n, name in uploaded.items() if n not in mentioned]
    else:
        names = [*kept.values(), *uploaded.values()]
    if len(names) > ATTACHMENTS_MAX:
        problems.add(
            (*prefix, "attachments"),
            "BASE_TYPE_MAX_LENGTH",
            f"Must be {ATTACHMENTS_MAX} or fewer in length.",
        )
    available = set(names)
    for path, name in embed_attachment_urls(as_list(payload.get("embeds"))):
        if name not in available:
            problems.add(
                (*prefix, "embeds", *path),
                "ATTACHMENT_NOT_FOUND",
                f"No file named {name!r} in this request.",
            )


def require_not_empty(
    body: Mapping[str, Any],
    *,
    uploads: bool,
    content: str = "",
    embeds: Sequence[Any] = (),
    components: Sequence[Any] = (),
    attachments: Sequence[Any] = (),
) -> None:
    """50006 for a body that leaves the message with nothing to show (the keyword arguments:
    what the message has now, for an edit)."""

    def after(key: str, current: Any) -> Any:
        return body.get(key) if key in body else current

    shown = (
        after("content", content)
        or after("embeds", embeds)
        or after("components", components)
        or uploads
        or after("attachments", attachments)
        or body.get("poll")
        or body.get("sticker_ids")
    )
    if not shown:
        raise ApiError(400, EMPTY_MESSAGE, "Cannot send an empty message")
