"""Discord's documented limits that its OpenAPI description does not encode, in one table.

Each :class:`Limit` names the rule, its number and the line of Discord's developer
documentation that states it, so a disagreement with Discord is settled by reading one line.
The constants below are read from the table (never written twice); the checks that apply
them live in :mod:`.message_checks`, :mod:`.component_checks` and :mod:`.command_checks`.
Where the published OpenAPI schema states a limit too (embed title, 10 embeds …), the schema
check (:mod:`.spec`) and this table agree; where it is looser (content: the schema says
4,000 characters, the documentation 2,000 for a bot), the table is what Discord enforces.
"""

from __future__ import annotations

from dataclasses import dataclass

DOCS = "https://discord.com/developers/docs"


@dataclass(frozen=True)
class Limit:
    """One documented limit: ``value`` and the documentation line (``source``) stating it."""

    name: str
    value: int
    source: str


LIMITS: tuple[Limit, ...] = (
    # -- messages -------------------------------------------------------------------------------
    Limit(
        "message content characters",
        2000,
        f"{DOCS}/resources/message#create-message: content, 'Message contents (up to 2000 "
        "characters)'",
    ),
    Limit(
        "embeds on a message",
        10,
        f"{DOCS}/resources/message#create-message: embeds, 'Up to 10 rich embeds (up to 6000 "
        "characters)'",
    ),
    Limit(
        "characters across a message's embeds",
        6000,
        f"{DOCS}/resources/message#embed-object-embed-limits: 'the combined sum of characters "
        "in all title, description, field.name, field.value, footer.text, and author.name "
        "fields across all embeds ... must not exceed 6000 characters'",
    ),
    Limit("embed title", 256, f"{DOCS}/resources/message#embed-object-embed-limits: title"),
    Limit(
        "embed description",
        4096,
        f"{DOCS}/resources/message#embed-object-embed-limits: description",
    ),
    Limit("embed fields", 25, f"{DOCS}/resources/message#embed-object-embed-limits: fields"),
    Limit(
        "embed field name", 256, f"{DOCS}/resources/message#embed-object-embed-limits: field.name"
    ),
    Limit(
        "embed field value",
        1024,
        f"{DOCS}/resources/message#embed-object-embed-limits: field.value",
    ),
    Limit(
        "embed footer text",
        2048,
        f"{DOCS}/resources/message#embed-object-embed-limits: footer.text",
    ),
    Limit(
        "embed author name",
        256,
        f"{DOCS}/resources/message#embed-object-embed-limits: author.name",
    ),
    # -- files ----------------------------------------------------------------------------------
    Limit(
        "files on a message",
        10,
        f"{DOCS}/resources/message#create-message: attachments (the published OpenAPI schema: "
        "at most 10 on a message)",
    ),
    Limit(
        "bytes per file, a bot in a server without boosts",
        10 * 1024 * 1024,
        f"{DOCS}/reference#uploading-files: 'The file upload size limit applies to each file in a "
        "request. The default limit is 10 MiB'; an interaction states its own as "
        "attachment_size_limit",
    ),
    Limit(
        "bytes in one message request",
        25 * 1024 * 1024,
        f"{DOCS}/resources/message#create-message-limitations: 'The maximum request size when "
        "sending a message is 25 MiB'",
    ),
    Limit(
        "attachment description",
        1024,
        f"{DOCS}/resources/message#attachment-object-attachment-structure: description, 'max "
        "1024 characters'",
    ),
    # -- components -----------------------------------------------------------------------------
    Limit(
        "action rows on a message",
        5,
        f"{DOCS}/components/reference#legacy-message-component-behavior: 'Legacy messages allow "
        "up to 5 action rows as top-level components'",
    ),
    Limit(
        "buttons in one action row",
        5,
        f"{DOCS}/components/reference#action-row: 'An Action Row can contain up to 5 Buttons' "
        "or a single select",
    ),
    Limit(
        "components in a message with IS_COMPONENTS_V2",
        40,
        f"{DOCS}/components/reference#component-object: 'Messages allow up to 40 total components'",
    ),
    Limit(
        "custom_id characters",
        100,
        f"{DOCS}/components/reference#button-button-structure: custom_id, 'Developer-defined "
        "identifier for the button; 1-100 characters', unique in the message",
    ),
    Limit(
        "button label",
        80,
        f"{DOCS}/components/reference#button-button-structure: label, 'max 80 characters'",
    ),
    Limit(
        "select options",
        25,
        f"{DOCS}/components/reference#string-select-string-select-structure: options, max 25",
    ),
    Limit(
        "select placeholder",
        150,
        f"{DOCS}/components/reference#string-select-string-select-structure: placeholder",
    ),
    Limit(
        "select option label, value and description",
        100,
        f"{DOCS}/components/reference#string-select-select-option-structure: label, value, "
        "description",
    ),
    Limit(
        "text display content",
        4000,
        f"{DOCS}/components/reference#text-display-text-display-structure: content",
    ),
    # -- modals ---------------------------------------------------------------------------------
    Limit(
        "modal title",
        45,
        f"{DOCS}/interactions/receiving-and-responding#interaction-response-object-modal: title, "
        "'max 45 characters'",
    ),
    Limit(
        "components in a modal",
        5,
        f"{DOCS}/interactions/receiving-and-responding#interaction-response-object-modal: "
        "'Between 1 and 5 (inclusive) components'",
    ),
    Limit(
        "text input or label component's label",
        45,
        f"{DOCS}/components/reference#label-label-structure: label, 'max 45 characters'",
    ),
    Limit(
        "label description",
        100,
        f"{DOCS}/components/reference#label-label-structure: description",
    ),
    Limit(
        "text input value",
        4000,
        f"{DOCS}/components/reference#text-input-text-input-structure: min_length, max_length, "
        "value",
    ),
    Limit(
        "text input placeholder",
        100,
        f"{DOCS}/components/reference#text-input-text-input-structure: placeholder",
    ),
    # -- application commands -------------------------------------------------------------------
    Limit(
        "command and option name characters",
        32,
        f"{DOCS}/interactions/application-commands#application-command-object-application-command-"
        "naming: '^[-_'\\p{L}\\p{N}\\p{sc=Deva}\\p{sc=Thai}]{1,32}$', lower case where it exists",
    ),
    Limit(
        "command and option description characters",
        100,
        f"{DOCS}/interactions/application-commands#application-command-object: description, "
        "'1-100 characters'",
    ),
    Limit(
        "options of a command or subcommand",
        25,
        f"{DOCS}/interactions/application-commands#application-command-object: options, 'max of "
        "25'",
    ),
    Limit(
        "choices of an option",
        25,
        f"{DOCS}/interactions/application-commands#application-command-object-application-command-"
        "option-structure: choices, 'max 25'",
    ),
    Limit(
        "choice name and string value characters",
        100,
        f"{DOCS}/interactions/application-commands#application-command-object-application-command-"
        "option-choice-structure: name, '1-100 character'; a string value up to 100",
    ),
    Limit(
        "characters of one slash command",
        8000,
        f"{DOCS}/interactions/application-commands#registering-a-command: 'a maximum of 8000 "
        "characters for combined name, description, and value properties' (the longest "
        "localisation of each field counted)",
    ),
    Limit(
        "commands of one type in one scope",
        100,
        f"{DOCS}/interactions/application-commands#registering-a-command: 100 global and 100 "
        "per guild slash commands",
    ),
    Limit(
        "autocomplete choices",
        25,
        f"{DOCS}/interactions/receiving-and-responding#interaction-response-object-autocomplete: "
        "choices, 'max of 25'",
    ),
    # -- interactions ---------------------------------------------------------------------------
    Limit(
        "seconds to send the first answer",
        3,
        f"{DOCS}/interactions/receiving-and-responding#responding-to-an-interaction: 'you must "
        "send an initial response within 3 seconds'",
    ),
    Limit(
        "seconds an interaction token lives",
        15 * 60,
        f"{DOCS}/interactions/receiving-and-responding#followup-messages: 'Interaction tokens "
        "are valid for 15 minutes'",
    ),
    # -- rate limits ----------------------------------------------------------------------------
    Limit(
        "requests per second, all routes of a bot (global)",
        50,
        f"{DOCS}/topics/rate-limits#global-rate-limit: 'All bots can make up to 50 requests per "
        "second to our API'; interaction endpoints are not bound to it",
    ),
    Limit(
        "messages sent per channel in 5 s",
        5,
        f"{DOCS}/topics/rate-limits#header-format: per-route buckets, shown to bots as "
        "X-RateLimit-Limit 5 / Reset-After 5 on a channel's message routes",
    ),
    Limit(
        "message edits per channel in 5 s",
        5,
        f"{DOCS}/topics/rate-limits#header-format: per-route buckets, shown to bots as "
        "X-RateLimit-Limit 5 / Reset-After 5 on a channel's message routes",
    ),
    Limit(
        "interaction webhook requests per route and token in a window",
        5,
        f"{DOCS}/topics/rate-limits: per-route buckets count each top-level resource apart, "
        "'webhooks (webhook_id or webhook_id + webhook_token)'; Discord documents no number for "
        "an interaction's webhook: 5 per 2 s per interaction is what bots observe in the "
        "headers (https://github.com/discord/discord-api-docs/issues/2701, where Discord "
        "answers that they are 'identical to webhook rate limits')",
    ),
    Limit(
        "seconds of an interaction webhook bucket's window",
        2,
        "https://github.com/discord/discord-api-docs/issues/2701: '5/2s per interaction' "
        "(observed X-RateLimit-Limit 5 / Reset-After 2 on the followup routes)",
    ),
)

_BY_NAME = {limit.name: limit for limit in LIMITS}


def limit(name: str) -> int:
    """The value of the limit called ``name`` in :data:`LIMITS` (KeyError for a typo)."""
    return _BY_NAME[name].value


MESSAGE_CONTENT_MAX = limit("message content characters")
EMBEDS_MAX = limit("embeds on a message")
EMBED_TOTAL_MAX = limit("characters across a message's embeds")
EMBED_TITLE_MAX = limit("embed title")
EMBED_DESCRIPTION_MAX = limit("embed description")
EMBED_FIELDS_MAX = limit("embed fields")
EMBED_FIELD_NAME_MAX = limit("embed field name")
EMBED_FIELD_VALUE_MAX = limit("embed field value")
EMBED_FOOTER_MAX = limit("embed footer text")
EMBED_AUTHOR_MAX = limit("embed author name")
ATTACHMENTS_MAX = limit("files on a message")
# discord.py's DEFAULT_FILE_SIZE_LIMIT_BYTES agrees.
ATTACHMENT_SIZE_LIMIT = limit("bytes per file, a bot in a server without boosts")
REQUEST_SIZE_MAX = limit("bytes in one message request")
ATTACHMENT_DESCRIPTION_MAX = limit("attachment description")
ACTION_ROWS_MAX = limit("action rows on a message")
ROW_BUTTONS_MAX = limit("buttons in one action row")
V2_COMPONENTS_MAX = limit("components in a message with IS_COMPONENTS_V2")
CUSTOM_ID_MAX = limit("custom_id characters")
BUTTON_LABEL_MAX = limit("button label")
SELECT_OPTIONS_MAX = limit("select options")
SELECT_PLACEHOLDER_MAX = limit("select placeholder")
SELECT_OPTION_TEXT_MAX = limit("select option label, value and description")
TEXT_DISPLAY_MAX = limit("text display content")
MODAL_TITLE_MAX = limit("modal title")
MODAL_COMPONENTS_MAX = limit("components in a modal")
TEXT_INPUT_LABEL_MAX = limit("text input or label component's label")
LABEL_DESCRIPTION_MAX = limit("label description")
TEXT_INPUT_VALUE_MAX = limit("text input value")
TEXT_INPUT_PLACEHOLDER_MAX = limit("text input placeholder")
COMMAND_NAME_MAX = limit("command and option name characters")
COMMAND_DESCRIPTION_MAX = limit("command and option description characters")
COMMAND_OPTIONS_MAX = limit("options of a command or subcommand")
COMMAND_CHOICES_MAX = limit("choices of an option")
CHOICE_TEXT_MAX = limit("choice name and string value characters")
COMMAND_CHARACTERS_MAX = limit("characters of one slash command")
COMMANDS_MAX = limit("commands of one type in one scope")
AUTOCOMPLETE_CHOICES_MAX = limit("autocomplete choices")
ANSWER_WINDOW = float(limit("seconds to send the first answer"))
TOKEN_LIFETIME = float(limit("seconds an interaction token lives"))
GLOBAL_REQUESTS_PER_SECOND = limit("requests per second, all routes of a bot (global)")
CHANNEL_SENDS_PER_5S = limit("messages sent per channel in 5 s")
CHANNEL_EDITS_PER_5S = limit("message edits per channel in 5 s")
INTERACTION_WEBHOOK_REQUESTS = limit("interaction webhook requests per route and token in a window")
INTERACTION_WEBHOOK_WINDOW = float(limit("seconds of an interaction webhook bucket's window"))

ATTACHMENT_SCHEME = "attachment://"
# The embed fields that may point at a file of the message.
EMBED_URL_FIELDS = (
    ("image", "url"),
    ("thumbnail", "url"),
    ("author", "icon_url"),
    ("footer", "icon_url"),
)

# -- message flags ----------------------------------------------------------------------------

FLAG_SUPPRESS_EMBEDS = 1 << 2
FLAG_EPHEMERAL = 1 << 6
FLAG_LOADING = 1 << 7
FLAG_SUPPRESS_NOTIFICATIONS = 1 << 12
FLAG_VOICE_MESSAGE = 1 << 13
FLAG_COMPONENTS_V2 = 1 << 15


@dataclass(frozen=True)
class FlagRule:
    """The message flags one endpoint lets a bot set, and where Discord says so. ``edit``:
    the body may repeat the message's other flags unchanged, only these may change."""

    allowed: int
    source: str
    edit: bool = False


FLAGS_CREATE = FlagRule(
    FLAG_SUPPRESS_EMBEDS | FLAG_SUPPRESS_NOTIFICATIONS | FLAG_VOICE_MESSAGE | FLAG_COMPONENTS_V2,
    f"{DOCS}/resources/message#create-message: flags, 'only SUPPRESS_EMBEDS, "
    "SUPPRESS_NOTIFICATIONS, IS_VOICE_MESSAGE, and IS_COMPONENTS_V2 can be set'",
)
FLAGS_EDIT = FlagRule(
    FLAG_SUPPRESS_EMBEDS | FLAG_COMPONENTS_V2,
    f"{DOCS}/resources/message#edit-message: flags, 'SUPPRESS_EMBEDS and IS_COMPONENTS_V2 only'",
    edit=True,
)
FLAGS_RESPONSE = FlagRule(
    FLAG_SUPPRESS_EMBEDS
    | FLAG_EPHEMERAL
    | FLAG_COMPONENTS_V2
    | FLAG_VOICE_MESSAGE
    | FLAG_SUPPRESS_NOTIFICATIONS,
    f"{DOCS}/interactions/receiving-and-responding#interaction-response-object-messages: flags, "
    "'only SUPPRESS_EMBEDS, EPHEMERAL, IS_COMPONENTS_V2, IS_VOICE_MESSAGE, and "
    "SUPPRESS_NOTIFICATIONS can be set'",
)
FLAGS_DEFERRED = FlagRule(
    FLAG_EPHEMERAL,
    f"{DOCS}/interactions/receiving-and-responding#interaction-response-object-messages: 'with "
    "DEFERRED_CHANNEL_MESSAGE_WITH_SOURCE the only valid message flag you may use is EPHEMERAL'",
)
FLAGS_FOLLOWUP = FlagRule(
    FLAG_SUPPRESS_EMBEDS | FLAG_SUPPRESS_NOTIFICATIONS | FLAG_COMPONENTS_V2 | FLAG_EPHEMERAL,
    f"{DOCS}/resources/webhook#execute-webhook: flags, 'only SUPPRESS_EMBEDS, "
    "SUPPRESS_NOTIFICATIONS and IS_COMPONENTS_V2 can be set'; EPHEMERAL too for an interaction's "
    "followup (interactions/receiving-and-responding#create-followup-message)",
)
FLAGS_WEBHOOK_EDIT = FlagRule(
    FLAG_SUPPRESS_EMBEDS | FLAG_COMPONENTS_V2,
    f"{DOCS}/resources/webhook#edit-webhook-message: flags, 'SUPPRESS_EMBEDS and "
    "IS_COMPONENTS_V2 only'",
    edit=True,
)

# -- interactions -----------------------------------------------------------------------------

PING = 1
APPLICATION_COMMAND = 2
MESSAGE_COMPONENT = 3
AUTOCOMPLETE = 4
MODAL_SUBMIT = 5

# Callback types each interaction type may be answered with (interactions/receiving-and-
# responding#interaction-response-object-interaction-callback-type in the documentation:
# 6 and 7 'only valid for component-based interactions', 9 'not available for MODAL_SUBMIT and
# PING interactions'). A modal submitted from a component's modal may update that message.
CALLBACK_TYPES: dict[int, frozenset[int]] = {
    PING: frozenset({1}),
    APPLICATION_COMMAND: frozenset({4, 5, 9}),
    MESSAGE_COMPONENT: frozenset({4, 5, 6, 7, 9}),
    AUTOCOMPLETE: frozenset({8}),
    MODAL_SUBMIT: frozenset({4, 5, 6, 7}),
}
CALLBACK_TYPES_MODAL_WITHOUT_MESSAGE = frozenset({4, 5})

# -- components -------------------------------------------------------------------------------

ACTION_ROW = 1
BUTTON = 2
STRING_SELECT = 3
TEXT_INPUT = 4
SELECT_TYPES = frozenset({3, 5, 6, 7, 8})
TEXT_DISPLAY = 10
LABEL = 18
LINK_STYLE = 5
PREMIUM_STYLE = 6

# -- locales ----------------------------------------------------------------------------------

# The keys Discord accepts in name_localizations / description_localizations
# ({DOCS}/reference#locales). Norwegian is "no": "nb" and "nn" are refused.
DISCORD_LOCALES = frozenset(
    [
        "id",
        "da",
        "de",
        "en-GB",
        "en-US",
        "es-ES",
        "es-419",
        "fr",
        "hr",
        "it",
        "lt",
        "hu",
        "nl",
        "no",
        "pl",
        "pt-BR",
        "ro",
        "fi",
        "sv-SE",
        "vi",
        "tr",
        "cs",
        "el",
        "bg",
        "ru",
        "uk",
        "hi",
        "th",
        "zh-CN",
        "ja",
        "zh-TW",
        "ko",
    ]
)
