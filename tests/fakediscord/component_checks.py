"""Message components and modals, checked against Discord's documented limits (400 50035).

Rows, buttons, selects and text inputs, unique custom ids of 1–100 characters, and the layout
rules of both component systems (legacy action rows, and IS_COMPONENTS_V2 trees). The numbers
come from :data:`.limits.LIMITS`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from .limits import (
    ACTION_ROWS_MAX,
    BUTTON,
    BUTTON_LABEL_MAX,
    CUSTOM_ID_MAX,
    LABEL_DESCRIPTION_MAX,
    LINK_STYLE,
    MODAL_COMPONENTS_MAX,
    MODAL_TITLE_MAX,
    PREMIUM_STYLE,
    ROW_BUTTONS_MAX,
    SELECT_OPTION_TEXT_MAX,
    SELECT_OPTIONS_MAX,
    SELECT_PLACEHOLDER_MAX,
    SELECT_TYPES,
    TEXT_DISPLAY_MAX,
    TEXT_INPUT,
    TEXT_INPUT_LABEL_MAX,
    TEXT_INPUT_PLACEHOLDER_MAX,
    TEXT_INPUT_VALUE_MAX,
    V2_COMPONENTS_MAX,
)
from .problems import Path, Problems, as_dict, as_list


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
            _check_v2_component(as_dict(component), problems, (*path, index), seen)
        return
    problems.count(path, components, 0, ACTION_ROWS_MAX)
    for index, row in enumerate(components):
        row_dict = as_dict(row)
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
    for index, child in enumerate(as_list(component.get("components"))):
        _check_v2_component(as_dict(child), problems, (*path, "components", index), seen)
    accessory = component.get("accessory")
    if isinstance(accessory, Mapping):
        _check_v2_component(accessory, problems, (*path, "accessory"), seen)


def _check_action_row(
    row: Mapping[str, Any], problems: Problems, path: Path, seen: set[str]
) -> None:
    children = as_list(row.get("components"))
    problems.count((*path, "components"), children, 1, ROW_BUTTONS_MAX)
    kinds = [as_dict(child).get("type") for child in children]
    if any(kind in SELECT_TYPES for kind in kinds) and len(children) > 1:
        problems.add(
            (*path, "components"),
            "COMPONENT_LAYOUT_WIDTH_EXCEEDED",
            "The specified component exceeds the maximum width",
        )
    for index, child in enumerate(children):
        child_dict = as_dict(child)
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
    options = as_list(select.get("options"))
    problems.count((*path, "options"), options, 1, SELECT_OPTIONS_MAX)
    values: set[str] = set()
    for index, raw in enumerate(options):
        option = as_dict(raw)
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
    stack = [as_dict(c) for c in reversed(components)]
    while stack:
        component = stack.pop()
        found.append(component)
        children = [as_dict(c) for c in as_list(component.get("components"))]
        for key in ("accessory", "component"):
            if isinstance(component.get(key), Mapping):
                children.append(component[key])
        stack.extend(reversed(children))
    return found


def check_modal(data: Mapping[str, Any], problems: Problems, path: Path) -> None:
    """A modal: title 1–45, custom id 1–100, 1–5 top-level components, valid text inputs."""
    problems.length((*path, "title"), data.get("title"), 1, MODAL_TITLE_MAX)
    problems.length((*path, "custom_id"), data.get("custom_id"), 1, CUSTOM_ID_MAX)
    components = as_list(data.get("components"))
    problems.count((*path, "components"), components, 1, MODAL_COMPONENTS_MAX)
    seen: set[str] = set()
    for index, raw in enumerate(components):
        component = as_dict(raw)
        here = (*path, "components", index)
        kind = component.get("type")
        if kind == 1:
            children = as_list(component.get("components"))
            problems.count((*here, "components"), children, 1, 1)
            for child_index, child in enumerate(children):
                child_path = (*here, "components", child_index)
                _check_modal_input(as_dict(child), problems, child_path, seen, in_label=False)
        elif kind == 18:
            problems.length((*here, "label"), component.get("label"), 1, TEXT_INPUT_LABEL_MAX)
            description = component.get("description")
            if description is not None:
                problems.length((*here, "description"), description, 0, LABEL_DESCRIPTION_MAX)
            child = as_dict(component.get("component"))
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
