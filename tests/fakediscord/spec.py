"""Every request body checked against its operation's schema in Discord's published API
description, and refused as Discord refuses it: 400 50035 with the ``errors`` tree.

The schemas are not in this repository. The npm package ``discord-api-spec`` (MIT; generated
from Discord's OpenAPI description of API v10) is installed from ``spec/package-lock.json``
(exact versions, integrity hashes), and ``spec/build.mjs`` turns its Zod schemas into JSON
Schema at install time (``spec/build/schemas.json``). ``spec/operations.json`` says which
schema each route's body must match. The verdicts are ``fastjsonschema``'s generated code, the
explanations (the ``errors`` tree) ``jsonschema``'s.

Where Discord accepts more than its published schema says, the schema is widened here, and
only here, with the reason: a snowflake may be sent as a JSON number (Discord documents an
attachment's id as "snowflake or number", and discord.py sends numbers).

The documented limits the schema does not state (content 2,000 characters, unique custom ids,
the flags an endpoint allows …) are :mod:`.limits`' table and the ``*_checks`` modules.
"""

from __future__ import annotations

import functools
import json
import subprocess
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import fastjsonschema
from jsonschema import Draft202012Validator
from jsonschema.exceptions import ValidationError

from .problems import Problems, as_dict

SPEC_DIR = Path(__file__).parent / "spec"
BUILT = SPEC_DIR / "build" / "schemas.json"
INSTALL = "npm ci --prefix tests/fakediscord/spec"

# Discord's error codes for what a schema keyword refuses (its "errors" tree uses these).
_CODES = {
    "maxLength": "BASE_TYPE_MAX_LENGTH",
    "minLength": "BASE_TYPE_MIN_LENGTH",
    "maxItems": "BASE_TYPE_MAX_LENGTH",
    "minItems": "BASE_TYPE_MIN_LENGTH",
    "required": "BASE_TYPE_REQUIRED",
    "enum": "BASE_TYPE_CHOICES",
    "const": "BASE_TYPE_CHOICES",
    "minimum": "NUMBER_TYPE_MIN",
    "maximum": "NUMBER_TYPE_MAX",
    "pattern": "STRING_TYPE_REGEX",
    "type": "BASE_TYPE_INVALID",
}


# Discord's wording where it is known ({0}: jsonschema's message, {1}: the schema's number).
_MESSAGES = {
    "maxLength": "Must be {1} or fewer in length.",
    "maxItems": "Must be {1} or fewer in length.",
    "minLength": "Must be {1} or more in length.",
    "minItems": "Must be {1} or more in length.",
}


class SpecMissing(RuntimeError):
    """The schemas are not installed (and npm's local cache could not install them)."""


def _install() -> None:
    """Install the locked package from npm's local cache (no network: tests have none) and
    build the schemas; a machine that never installed it must run :data:`INSTALL` once."""
    try:
        subprocess.run(
            ["npm", "ci", "--offline", "--no-audit", "--no-fund", "--loglevel=error"],
            cwd=SPEC_DIR,
            check=True,
            capture_output=True,
            timeout=120,
        )
    except (OSError, subprocess.SubprocessError) as error:
        raise SpecMissing(
            f"Discord's request schemas are not installed: run `{INSTALL}` (Node.js and npm)"
        ) from error


@functools.cache
def _schemas() -> tuple[str, dict[str, Any]]:
    if not BUILT.exists():
        _install()
    built = json.loads(BUILT.read_text(encoding="utf-8"))
    return str(built["package"]), dict(built["schemas"])


@functools.cache
def _operations() -> dict[str, Any]:
    loaded = json.loads((SPEC_DIR / "operations.json").read_text(encoding="utf-8"))
    return dict(loaded["operations"])


def package() -> str:
    """Which package and version the schemas came from, e.g. ``discord-api-spec@10.0.266135``."""
    return _schemas()[0]


@functools.cache
def prepare() -> str:
    """Install (if need be) and compile every schema the routes use, once per process: about
    a second and a half, spent before a test starts its bot rather than inside the first
    interaction that sends a kind of body, where it would eat into Discord's 3 seconds."""
    for operation in _operations().values():
        if isinstance(operation, list):
            names = operation
        elif "array_of" in operation:
            names = [operation["array_of"]]
        else:
            names = list(operation["by_type"].values())
        for name in names:
            validator(str(name))
    return package()


def _widened(schema: dict[str, Any]) -> dict[str, Any]:
    defs = schema.get("$defs", {})
    snowflake = defs.get("SnowflakeType")
    if snowflake is not None:
        defs["SnowflakeType"] = {"anyOf": [snowflake, {"type": "integer", "minimum": 0}]}
    return schema


class Check:
    """One schema's check: fastjsonschema's generated code says whether a body is valid
    (about a twentieth of jsonschema's time: every body of every test is checked, on the
    loop the bot under test runs on), and jsonschema, the reference implementation, says
    what is wrong when it is not."""

    def __init__(self, schema: dict[str, Any]) -> None:
        self.schema = schema
        self.explain = Draft202012Validator(schema)
        # The same rules in draft 7 terms for the generator: the schema uses none of 2020-12's
        # own keywords, and its $defs are reached by JSON pointer. Formats (uri, date-time)
        # are annotations in 2020-12, as they stay here.
        draft7 = {key: value for key, value in schema.items() if key != "$schema"}
        self._valid = fastjsonschema.compile(draft7, use_formats=False)

    def is_valid(self, body: Any) -> bool:
        try:
            self._valid(body)
        except fastjsonschema.JsonSchemaException:
            # The reference decides: a body it finds nothing wrong with is accepted.
            return self.explain.is_valid(body)
        return True

    def iter_errors(self, body: Any) -> Any:
        return self.explain.iter_errors(body)


@functools.cache
def validator(name: str) -> Check:
    """The compiled check of one schema of the package (by its name without "Schema")."""
    schema = _widened(json.loads(json.dumps(_schemas()[1][name])))
    return Check(_quicker(schema))


_SIMPLE_TYPES = frozenset({"string", "number", "integer", "boolean", "array", "object"})


def _quicker(schema: dict[str, Any]) -> dict[str, Any]:
    """The same schema, checked with less work (every body of every test is checked):
    ``anyOf: [S, {type: null}]``, which is how the generated schema writes every nullable
    field, becomes S with ``null`` added to its type when S is one plain type. S's other
    keywords apply to that type only, so nothing more or less is accepted."""

    def walk(node: Any) -> Any:
        if isinstance(node, list):
            return [walk(item) for item in node]
        if not isinstance(node, dict):
            return node
        node = {key: walk(value) for key, value in node.items()}
        choice = node.get("anyOf")
        if isinstance(choice, list) and len(node) == 1 and len(choice) == 2:
            rest = [branch for branch in choice if branch != {"type": "null"}]
            plain = rest[0] if len(rest) == 1 else None
            if isinstance(plain, dict) and plain.get("type") in _SIMPLE_TYPES:
                return {**plain, "type": [plain["type"], "null"]}
        return node

    return dict(walk(schema))


def _schema_for(operation: Any, body: Any) -> list[str] | None:
    """The schema names one body may match, ``None`` when it must be a list of one schema."""
    if isinstance(operation, list):
        return [str(name) for name in operation]
    if "by_type" in operation:
        kind = body.get("type") if isinstance(body, Mapping) else None
        name = operation["by_type"].get(str(kind))
        return [str(name)] if name is not None else sorted(set(operation["by_type"].values()))
    return None


def check_body(method: str, route: str, body: Any, problems: Problems) -> None:
    """Record what the body of ``method route`` breaks in Discord's schema (nothing for a
    route without a body schema)."""
    operation = _operations().get(f"{method} {route}")
    if operation is None:
        return
    names = _schema_for(operation, body)
    if names is None:
        item = validator(str(operation["array_of"]))
        if not isinstance(body, list):
            problems.add((), "BASE_TYPE_ARRAY", "Must be an array.")
            return
        for index, entry in enumerate(body):
            _record(item, entry, problems, (index,))
        return
    if body is None:
        body = {}
    checks = [validator(name) for name in names]
    if any(check.is_valid(body) for check in checks):
        return
    # None of them matches: report the one whose errors are fewest, as the closest.
    best = min(checks, key=lambda check: sum(1 for _ in check.iter_errors(body)))
    _record(best, body, problems, ())


def _record(check: Check, body: Any, problems: Problems, prefix: tuple[int, ...]) -> None:
    if check.is_valid(body):
        return
    for error in check.iter_errors(body):
        for leaf in _explain(error):
            _add(leaf, problems, prefix, as_dict(check.schema))


def _explain(error: ValidationError) -> list[ValidationError]:
    """The errors that say what is wrong, as Discord names them, for one error of the schema.

    A choice (``anyOf``: every nullable field, every union of component types) fails as a
    whole; the branch meant is the one whose JSON type, and ``type`` field, the value has.
    Its own errors are the answer; when no branch fits, the choice itself is.
    """
    if not error.context:
        return [error]
    branches: dict[Any, list[ValidationError]] = {}
    for sub in error.context:
        branches.setdefault(sub.relative_schema_path[0], []).append(sub)
    fitting = [
        errors for errors in branches.values() if not any(_wrong_kind(sub) for sub in errors)
    ]
    if not fitting:
        return [error]
    closest = min(fitting, key=len)
    return [leaf for sub in closest for leaf in _explain(sub)]


def _wrong_kind(error: ValidationError) -> bool:
    """The branch is for another kind of value: another JSON type, or another ``type`` field."""
    here = not error.relative_path
    if here and error.validator == "type":
        return True
    discriminator = list(error.relative_path) == ["type"]
    return discriminator and error.validator in ("const", "enum")


def _add(
    error: ValidationError,
    problems: Problems,
    prefix: tuple[int, ...],
    root: Mapping[str, Any],
) -> None:
    path: tuple[str | int, ...] = (*prefix, *error.absolute_path)
    keyword = str(error.validator)
    required = limit = error.validator_value
    if keyword == "required" and isinstance(error.instance, Mapping):
        assert isinstance(required, list)
        for name in required:
            if name not in error.instance:
                problems.add((*path, name), _CODES["required"], "This field is required")
        return
    if keyword in ("anyOf", "oneOf"):
        kinds = _kinds(error, root)
        problems.add(path, "UNION_TYPE_CHOICES", f'Value of field "type" must be one of {kinds}.')
        return
    code = _CODES.get(keyword, "BASE_TYPE_INVALID")
    problems.add(path, code, _MESSAGES.get(keyword, "{}").format(_short(error.message), limit))


def _kinds(error: ValidationError, root: Mapping[str, Any]) -> tuple[Any, ...]:
    """The ``type`` values the branches of a choice take (``(1,)``: only an action row)."""
    found: list[Any] = []
    branches = error.validator_value if isinstance(error.validator_value, list) else []
    for branch in branches:
        target: Any = branch
        ref = branch.get("$ref") if isinstance(branch, Mapping) else None
        if isinstance(ref, str) and ref.startswith("#/$defs/"):
            target = root.get("$defs", {}).get(ref.removeprefix("#/$defs/"), {})
        kind = target.get("properties", {}).get("type", {}) if isinstance(target, Mapping) else {}
        found.extend([kind["const"]] if "const" in kind else kind.get("enum", []))
    return tuple(found)


def _short(message: str) -> str:
    """jsonschema quotes the whole value in its messages: a 4,000-character one is no help."""
    return message if len(message) <= 200 else message[:197] + "..."
