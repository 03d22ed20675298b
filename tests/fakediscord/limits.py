"""Discord's size and shape limits, refused the way Discord refuses them: 400, code 50035.

Each ``check_*`` function walks one kind of request body and records every broken limit in a
:class:`Problems`, whose nested error map mirrors Discord's
(``{"embeds": {"0": {"title": {"_errors": [{"code": ..., "message": ...}]}}}}``), so a bot that
would be refused by Discord is refused here too, with the same field path to debug from.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from .errors import invalid_form_body

Path = tuple[str | int, ...]

MESSAGE_CONTENT_MAX = 2000
EMBEDS_MAX = 10
EMBED_TITLE_MAX = 256
EMBED_DESCRIPTION_MAX = 4096
EMBED_FIELDS_MAX = 25
EMBED_FIELD_NAME_MAX = 256
EMBED_FIELD_VALUE_MAX = 1024
EMBED_FOOTER_MAX = 2048
EMBED_AUTHOR_MAX = 256
EMBED_TOTAL_MAX = 6000
ACTION_ROWS_MAX = 5
ROW_BUTTONS_MAX = 5
CUSTOM_ID_MAX = 100
BUTTON_LABEL_MAX = 80
SELECT_OPTIONS_MAX = 25
SELECT_PLACEHOLDER_MAX = 150
SELECT_OPTION_TEXT_MAX = 100
V2_COMPONENTS_MAX = 40
MODAL_TITLE_MAX = 45
MODAL_COMPONENTS_MAX = 5
TEXT_INPUT_LABEL_MAX = 45
TEXT_INPUT_VALUE_MAX = 4000
TEXT_INPUT_PLACEHOLDER_MAX = 100
LABEL_DESCRIPTION_MAX = 100
TEXT_DISPLAY_MAX = 4000
COMMAND_NAME_MAX = 32
COMMAND_DESCRIPTION_MAX = 100
COMMAND_OPTIONS_MAX = 25
COMMAND_CHOICES_MAX = 25
COMMANDS_MAX = 100
AUTOCOMPLETE_CHOICES_MAX = 25
ATTACHMENTS_MAX = 10  # files on one message
# Bytes per file for a bot in a server without boosts (discord.py's DEFAULT_FILE_SIZE_LIMIT_BYTES);
# an interaction tells its own limit as `attachment_size_limit`.
ATTACHMENT_SIZE_LIMIT = 10 * 1024 * 1024
ATTACHMENT_SCHEME = "attachment://"
# The embed fields that may point at a file of the message.
EMBED_URL_FIELDS = (
    ("image", "url"),
    ("thumbnail", "url"),
    ("author", "icon_url"),
    ("footer", "icon_url"),
)

FLAG_EPHEMERAL = 1 << 6
FLAG_LOADING = 1 << 7
FLAG_COMPONENTS_V2 = 1 << 15

BUTTON = 2
SELECT_TYPES = frozenset({3, 5, 6, 7, 8})
TEXT_INPUT = 4
LINK_STYLE = 5
PREMIUM_STYLE = 6

# Locales Discord accepts as keys of name_localizations / description_localizations.
_LOCALES = "id da de en-GB en-US es-ES es-419 fr hr it lt hu nl no pl pt-BR ro fi sv-SE vi tr"
DISCORD_LOCALES = frozenset([*_LOCALES.split(), "cs", "el", "bg", "ru", "uk", "hi", "th"])
DISCORD_LOCALES |= {"zh-CN", "ja", "zh-TW", "ko"}


class Problems:
    """Collects broken limits as Discord's nested ``errors`` map, then raises them all at once."""

    def __init__(self) -> None:
        self.errors: dict[str, Any] = {}

    def add(self, path: Path, code: str, message: str) -> None:
        """Record one broken rule at ``path`` (e.g. ``("embeds", 0, "title")``)."""
        node = self.errors
        for part in path:
            node = node.setdefault(str(part), {})
        node.setdefault("_errors", []).append({"code": code, "message": message})

    def __bool__(self) -> bool:
        return bool(self.errors)

    def raise_if_any(self) -> None:
        """Raise 400 50035 Invalid Form Body when anything was recorded."""
        if self.errors:
            raise invalid_form_body(self.errors)

    def length(self, path: Path, value: Any, low: int, high: int) -> None:
        """Check an optional string's length is in ``low..high`` (missing: error if low > 0)."""
        if value is None:
            if low > 0:
                self.add(path, "BASE_TYPE_REQUIRED", "This field is required")
            return
        if not isinstance(value, str):
            self.add(path, "BASE_TYPE_STRING", "Must be a string.")
        elif len(value) > high and low == 0:
            self.add(path, "BASE_TYPE_MAX_LENGTH", f"Must be {high} or fewer in length.")
        elif not low <= len(value) <= high:
            self.add(path, "BASE_TYPE_BAD_LENGTH", f"Must be between {low} and {high} in length.")

    def count(self, path: Path, items: Sequence[Any], low: int, high: int) -> None:
        """Check a list's length is in ``low..high``."""
        if len(items) > high:
            self.add(path, "BASE_TYPE_MAX_LENGTH", f"Must be {high} or fewer in length.")
        elif len(items) < low:
            self.add(path, "BASE_TYPE_MIN_LENGTH", f"Must be {low} or more in length.")

    def number(self, path: Path, value: Any, low: int, high: int) -> None:
        """Check an optional integer is in ``low..high``."""
        if value is None:
            return
        if not isinstance(value, int) or isinstance(value, bool):
            self.add(path, "NUMBER_TYPE_COERCE", f"Value {value!r} is not int.")
        elif value < low:
            self.add(
                path, "NUMBER_TYPE_MIN", f"int value should be greater than or equal to {low}."
            )
        elif value > high:
            self.add(path, "NUMBER_TYPE_MAX", f"int value should be less than or equal to {high}.")


def _list(value: Any) -> list[Any]:
    return value if isinstance(value, list) else []


def _dict(value: Any) -> Mapping[str, Any]:
    return value if isinstance(value, Mapping) else {}


# --- messages ----------------------------------------------------------------------------------


def check_message(payload: Mapping[str, Any], problems: Problems, prefix: Path = ()) -> None:
    """Content, embeds and components of a message create/edit body (only fields present)."""
    content = payload.get("content")
    if content is not None:
        problems.length((*prefix, "content"), content, 0, MESSAGE_CONTENT_MAX)
    embeds = payload.get("embeds")
    if embeds is not None:
        check_embeds(_list(embeds), problems, (*prefix, "embeds"))
    flags = payload.get("flags") or 0
    v2 = bool(flags & FLAG_COMPONENTS_V2)
    components = payload.get("components")
    if components is not None:
        check_components(_list(components), problems, (*prefix, "components"), v2=v2)
    if v2 and (content or embeds):
        problems.add(
            (*prefix, "content") if content else (*prefix, "embeds"),
            "MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2",
            "The 'content' and 'embeds' fields cannot be used with MessageFlags.IS_COMPONENTS_V2",
        )


def check_embeds(embeds: list[Any], problems: Problems, path: Path) -> None:
    """At most 10 embeds, each field within its limit and 6000 characters across all of them."""
    problems.count(path, embeds, 0, EMBEDS_MAX)
    total = 0
    for index, raw in enumerate(embeds):
        embed = _dict(raw)
        here = (*path, index)
        title = embed.get("title")
        description = embed.get("description")
        footer = _dict(embed.get("footer")).get("text")
        author = _dict(embed.get("author")).get("name")
        if title is not None:
            problems.length((*here, "title"), title, 0, EMBED_TITLE_MAX)
        if description is not None:
            problems.length((*here, "description"), description, 0, EMBED_DESCRIPTION_MAX)
        if footer is not None:
            problems.length((*here, "footer", "text"), footer, 0, EMBED_FOOTER_MAX)
        if author is not None:
            problems.length((*here, "author", "name"), author, 0, EMBED_AUTHOR_MAX)
        fields = _list(embed.get("fields"))
        problems.count((*here, "fields"), fields, 0, EMBED_FIELDS_MAX)
        for field_index, raw_field in enumerate(fields):
            field = _dict(raw_field)
            at = (*here, "fields", field_index)
            problems.length((*at, "name"), field.get("name"), 1, EMBED_FIELD_NAME_MAX)
            problems.length((*at, "value"), field.get("value"), 1, EMBED_FIELD_VALUE_MAX)
            total += len(str(field.get("name") or "")) + len(str(field.get("value") or ""))
        for text in (title, description, footer, author):
            total += len(text) if isinstance(text, str) else 0
    if total > EMBED_TOTAL_MAX:
        problems.add(
            path, "MAX_EMBED_SIZE_EXCEEDED", f"Embed size exceeds maximum size of {EMBED_TOTAL_MAX}"
        )


def check_components(
    components: list[Any], problems: Problems, path: Path, *, v2: bool = False
) -> None:
    """Message components: rows, buttons, selects and unique custom ids of 1–100 characters."""
    seen: set[str] = set()
    if v2:
        total = sum(1 for _ in walk_components(components))
        if total > V2_COMPONENTS_MAX:
            problems.add(
                path,
                "BASE_TYPE_MAX_LENGTH",
                f"Must be {V2_COMPONENTS_MAX} or fewer in length.",
            )
        for index, component in enumerate(components):
            _check_v2_component(_dict(component), problems, (*path, index), seen)
        return
    problems.count(path, components, 0, ACTION_ROWS_MAX)
    for index, row in enumerate(components):
        row_dict = _dict(row)
        if row_dict.get("type") != 1:
            problems.add(
                (*path, index, "type"),
                "UNION_TYPE_CHOICES",
                'Value of field "type" must be one of (1,).',
            )
            continue
        _check_action_row(row_dict, problems, (*path, index), seen)


def _check_v2_component(
    component: Mapping[str, Any], problems: Problems, path: Path, seen: set[str]
) -> None:
    kind = component.get("type")
    if kind == 1:
        _check_action_row(component, problems, path, seen)
        return
    if kind == BUTTON:
        _check_button(component, problems, path, seen)
    elif kind in SELECT_TYPES:
        _check_select(component, problems, path, seen)
    elif kind == 10:
        problems.length((*path, "content"), component.get("content"), 1, TEXT_DISPLAY_MAX)
    for index, child in enumerate(_list(component.get("components"))):
        _check_v2_component(_dict(child), problems, (*path, "components", index), seen)
    accessory = component.get("accessory")
    if isinstance(accessory, Mapping):
        _check_v2_component(accessory, problems, (*path, "accessory"), seen)


def _check_action_row(
    row: Mapping[str, Any], problems: Problems, path: Path, seen: set[str]
) -> None:
    children = _list(row.get("components"))
    problems.count((*path, "components"), children, 1, ROW_BUTTONS_MAX)
    kinds = [_dict(child).get("type") for child in children]
    if any(kind in SELECT_TYPES for kind in kinds) and len(children) > 1:
        problems.add(
            (*path, "components"),
            "COMPONENT_LAYOUT_WIDTH_EXCEEDED",
            "The specified component exceeds the maximum width",
        )
    for index, child in enumerate(children):
        child_dict = _dict(child)
        here = (*path, "components", index)
        if child_dict.get("type") == BUTTON:
            _check_button(child_dict, problems, here, seen)
        elif child_dict.get("type") in SELECT_TYPES:
            _check_select(child_dict, problems, here, seen)
        else:
            problems.add(
                (*here, "type"),
                "UNION_TYPE_CHOICES",
                'Value of field "type" must be one of (2, 3, 5, 6, 7, 8).',
            )


def _check_custom_id(
    component: Mapping[str, Any], problems: Problems, path: Path, seen: set[str]
) -> None:
    custom_id = component.get("custom_id")
    problems.length((*path, "custom_id"), custom_id, 1, CUSTOM_ID_MAX)
    if isinstance(custom_id, str):
        if custom_id in seen:
            problems.add(
                (*path, "custom_id"),
                "COMPONENT_CUSTOM_ID_DUPLICATED",
                "Component custom id cannot be duplicated",
            )
        seen.add(custom_id)


def _check_button(
    button: Mapping[str, Any], problems: Problems, path: Path, seen: set[str]
) -> None:
    label = button.get("label")
    if label is not None:
        problems.length((*path, "label"), label, 0, BUTTON_LABEL_MAX)
    style = button.get("style")
    if style == LINK_STYLE:
        if not button.get("url"):
            problems.add((*path, "url"), "BASE_TYPE_REQUIRED", "This field is required")
        if button.get("custom_id") is not None:
            problems.add(
                (*path, "custom_id"),
                "BUTTON_COMPONENT_CUSTOM_ID_NOT_ALLOWED",
                "A custom id cannot be specified for this button style",
            )
    elif style != PREMIUM_STYLE:
        _check_custom_id(button, problems, path, seen)


def _check_select(
    select: Mapping[str, Any], problems: Problems, path: Path, seen: set[str]
) -> None:
    _check_custom_id(select, problems, path, seen)
    placeholder = select.get("placeholder")
    if placeholder is not None:
        problems.length((*path, "placeholder"), placeholder, 0, SELECT_PLACEHOLDER_MAX)
    problems.number((*path, "min_values"), select.get("min_values"), 0, SELECT_OPTIONS_MAX)
    problems.number((*path, "max_values"), select.get("max_values"), 1, SELECT_OPTIONS_MAX)
    if select.get("type") != 3:
        return
    options = _list(select.get("options"))
    problems.count((*path, "options"), options, 1, SELECT_OPTIONS_MAX)
    values: set[str] = set()
    for index, raw in enumerate(options):
        option = _dict(raw)
        here = (*path, "options", index)
        problems.length((*here, "label"), option.get("label"), 1, SELECT_OPTION_TEXT_MAX)
        problems.length((*here, "value"), option.get("value"), 1, SELECT_OPTION_TEXT_MAX)
        description = option.get("description")
        if description is not None:
            problems.length((*here, "description"), description, 0, SELECT_OPTION_TEXT_MAX)
        value = option.get("value")
        if isinstance(value, str):
            if value in values:
                problems.add(
                    (*here, "value"),
                    "SELECT_COMPONENT_OPTION_VALUE_DUPLICATED",
                    "Select component option values must be unique",
                )
            values.add(value)
    max_values = select.get("max_values")
    if isinstance(max_values, int) and options and max_values > len(options):
        problems.add(
            (*path, "max_values"),
            "NUMBER_TYPE_MAX",
            f"int value should be less than or equal to {len(options)}.",
        )


def walk_components(components: Sequence[Any]) -> list[Mapping[str, Any]]:
    """Every component in a tree (rows, containers, sections, labels and their children)."""
    found: list[Mapping[str, Any]] = []
    stack = [_dict(c) for c in reversed(components)]
    while stack:
        component = stack.pop()
        found.append(component)
        children = [_dict(c) for c in _list(component.get("components"))]
        for key in ("accessory", "component"):
            if isinstance(component.get(key), Mapping):
                children.append(component[key])
        stack.extend(reversed(children))
    return found


# --- attachments -------------------------------------------------------------------------------


def embed_attachment_urls(embeds: Sequence[Any]) -> list[tuple[Path, str]]:
    """Every ``attachment://NAME`` an embed points at, with its field path and the NAME."""
    found: list[tuple[Path, str]] = []
    for index, raw in enumerate(embeds):
        embed = _dict(raw)
        for part, key in EMBED_URL_FIELDS:
            url = _dict(embed.get(part)).get(key)
            if isinstance(url, str) and url.startswith(ATTACHMENT_SCHEME):
                found.append(((index, part, key), url.removeprefix(ATTACHMENT_SCHEME)))
    return found


def check_attachments(
    payload: Mapping[str, Any],
    files: Sequence[str],
    total: int,
    problems: Problems,
    prefix: Path = (),
) -> None:
    """At most 10 files on the message (``total``: those it will have), and every
    ``attachment://NAME`` in an embed naming a file of the same request (``files``: uploaded
    now or kept by this request's ``attachments`` list).

    Discord itself shows an embed without its image when the name matches nothing; the fake
    refuses it, since a picture that silently vanishes is exactly the bug a test should see.
    """
    if total > ATTACHMENTS_MAX:
        problems.add(
            (*prefix, "attachments"),
            "BASE_TYPE_MAX_LENGTH",
            f"Must be {ATTACHMENTS_MAX} or fewer in length.",
        )
    names = set(files)
    for path, name in embed_attachment_urls(_list(payload.get("embeds"))):
        if name not in names:
            problems.add(
                (*prefix, "embeds", *path),
                "ATTACHMENT_NOT_FOUND",
                f"No file named {name!r} in this request.",
            )


# --- modals ------------------------------------------------------------------------------------


def check_modal(data: Mapping[str, Any], problems: Problems, path: Path) -> None:
    """A modal: title 1–45, custom id 1–100, 1–5 top-level components, valid text inputs."""
    problems.length((*path, "title"), data.get("title"), 1, MODAL_TITLE_MAX)
    problems.length((*path, "custom_id"), data.get("custom_id"), 1, CUSTOM_ID_MAX)
    components = _list(data.get("components"))
    problems.count((*path, "components"), components, 1, MODAL_COMPONENTS_MAX)
    seen: set[str] = set()
    for index, raw in enumerate(components):
        component = _dict(raw)
        here = (*path, "components", index)
        kind = component.get("type")
        if kind == 1:
            children = _list(component.get("components"))
            problems.count((*here, "components"), children, 1, 1)
            for child_index, child in enumerate(children):
                child_path = (*here, "components", child_index)
                _check_modal_input(_dict(child), problems, child_path, seen, in_label=False)
        elif kind == 18:
            problems.length((*here, "label"), component.get("label"), 1, TEXT_INPUT_LABEL_MAX)
            description = component.get("description")
            if description is not None:
                problems.length((*here, "description"), description, 0, LABEL_DESCRIPTION_MAX)
            child = _dict(component.get("component"))
            _check_modal_input(child, problems, (*here, "component"), seen, in_label=True)
        elif kind == 10:
            problems.length((*here, "content"), component.get("content"), 1, TEXT_DISPLAY_MAX)
        else:
            problems.add(
                (*here, "type"),
                "UNION_TYPE_CHOICES",
                'Value of field "type" must be one of (1, 10, 18).',
            )


def _check_modal_input(
    component: Mapping[str, Any], problems: Problems, path: Path, seen: set[str], *, in_label: bool
) -> None:
    kind = component.get("type")
    if kind in SELECT_TYPES and in_label:
        _check_select(component, problems, path, seen)
        return
    if kind != TEXT_INPUT:
        if kind not in {19, 21, 22, 23}:  # file upload, radio group, checkbox group, checkbox
            problems.add((*path, "type"), "UNION_TYPE_CHOICES", "Invalid component type.")
        else:
            _check_custom_id(component, problems, path, seen)
        return
    _check_custom_id(component, problems, path, seen)
    if component.get("style") not in (1, 2):
        problems.add((*path, "style"), "UNION_TYPE_CHOICES", "Value must be one of (1, 2).")
    if not in_label or component.get("label") is not None:
        problems.length((*path, "label"), component.get("label"), 1, TEXT_INPUT_LABEL_MAX)
    problems.number((*path, "min_length"), component.get("min_length"), 0, TEXT_INPUT_VALUE_MAX)
    problems.number((*path, "max_length"), component.get("max_length"), 1, TEXT_INPUT_VALUE_MAX)
    value = component.get("value")
    if value is not None:
        problems.length((*path, "value"), value, 0, TEXT_INPUT_VALUE_MAX)
    placeholder = component.get("placeholder")
    if placeholder is not None:
        problems.length((*path, "placeholder"), placeholder, 0, TEXT_INPUT_PLACEHOLDER_MAX)


# --- application commands ----------------------------------------------------------------------


def _valid_command_name(name: Any, *, chat_input: bool) -> bool:
    if not isinstance(name, str) or not 1 <= len(name) <= COMMAND_NAME_MAX:
        return False
    if not chat_input:
        return True
    return name == name.lower() and all(ch.isalnum() or ch in "-_'" for ch in name)


def _check_localisations(value: Any, problems: Problems, path: Path, *, name: bool) -> None:
    for locale, text in _dict(value).items():
        if locale not in DISCORD_LOCALES:
            problems.add((*path, locale), "LOCALE_INVALID", f"Invalid locale {locale!r}.")
        elif name and not _valid_command_name(text, chat_input=True):
            problems.add(
                (*path, locale), "APPLICATION_COMMAND_INVALID_NAME", "Command name is invalid"
            )
        elif not name:
            problems.length((*path, locale), text, 1, COMMAND_DESCRIPTION_MAX)


def check_commands(commands: Sequence[Any], problems: Problems) -> None:
    """A bulk overwrite: at most 100 commands, unique names per type, valid names/options."""
    problems.count((), commands, 0, COMMANDS_MAX)
    seen: set[tuple[Any, Any]] = set()
    for index, raw in enumerate(commands):
        command = _dict(raw)
        key = (command.get("type", 1), command.get("name"))
        if key in seen:
            problems.add(
                (index, "name"),
                "APPLICATION_COMMANDS_DUPLICATE_NAME",
                f"Application command names must be unique ({command.get('name')!r})",
            )
        seen.add(key)
        check_command(command, problems, (index,))


def check_command(
    command: Mapping[str, Any], problems: Problems, path: Path, *, top: bool = True
) -> None:
    """One command (``top``) or option: name, description, localisations, options, choices.

    Context-menu commands (types 2 and 3) may use spaces and capitals and have no description;
    slash commands and every option need a lowercase name of 1–32 and a description of 1–100.
    """
    chat_input = not top or command.get("type", 1) == 1
    if not _valid_command_name(command.get("name"), chat_input=chat_input):
        problems.add((*path, "name"), "APPLICATION_COMMAND_INVALID_NAME", "Command name is invalid")
    _check_localisations(
        command.get("name_localizations"), problems, (*path, "name_localizations"), name=True
    )
    if chat_input:
        problems.length(
            (*path, "description"), command.get("description"), 1, COMMAND_DESCRIPTION_MAX
        )
        _check_localisations(
            command.get("description_localizations"),
            problems,
            (*path, "description_localizations"),
            name=False,
        )
    options = _list(command.get("options"))
    problems.count((*path, "options"), options, 0, COMMAND_OPTIONS_MAX)
    for index, option in enumerate(options):
        check_command(_dict(option), problems, (*path, "options", index), top=False)
    choices = _list(command.get("choices"))
    problems.count((*path, "choices"), choices, 0, COMMAND_CHOICES_MAX)


def check_autocomplete(data: Mapping[str, Any], problems: Problems, path: Path) -> None:
    """Autocomplete results: at most 25 choices."""
    problems.count((*path, "choices"), _list(data.get("choices")), 0, AUTOCOMPLETE_CHOICES_MAX)
