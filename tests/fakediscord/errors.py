"""Discord's JSON error bodies, raised by the fake's handlers and turned into HTTP responses."""

from __future__ import annotations

from typing import Any

# Discord's JSON error codes used by the fake (https://discord.com/developers/docs/topics/opcodes-and-status-codes).
UNKNOWN_CHANNEL = 10003
UNKNOWN_MESSAGE = 10008
UNKNOWN_WEBHOOK = 10015
UNKNOWN_INTERACTION = 10062
UNAUTHORIZED = 40001
REQUEST_ENTITY_TOO_LARGE = 40005
ALREADY_ACKNOWLEDGED = 40060
CANNOT_EDIT_OTHERS_MESSAGE = 50005
MISSING_ACCESS = 50001
EMPTY_MESSAGE = 50006
MISSING_PERMISSIONS = 50013
INVALID_WEBHOOK_TOKEN = 50027
INVALID_FORM_BODY = 50035


class ApiError(Exception):
    """An error answer: HTTP ``status`` plus Discord's ``{"code", "message", "errors"}`` body."""

    def __init__(
        self,
        status: int,
        code: int,
        message: str,
        errors: dict[str, Any] | None = None,
    ) -> None:
        super().__init__(f"{status} {code}: {message}")
        self.status = status
        self.code = code
        self.message = message
        self.errors = errors
        self.headers: dict[str, str] = {}  # e.g. the rate-limit headers of the refused request

    def body(self) -> dict[str, Any]:
        """The JSON body Discord would send."""
        body: dict[str, Any] = {"message": self.message, "code": self.code}
        if self.errors:
            body["errors"] = self.errors
        return body


def not_found(code: int, what: str) -> ApiError:
    """404 with one of the ``Unknown …`` codes."""
    return ApiError(404, code, f"Unknown {what}")


def invalid_form_body(errors: dict[str, Any]) -> ApiError:
    """400 50035, the answer to every limit broken in a request body."""
    return ApiError(400, INVALID_FORM_BODY, "Invalid Form Body", errors)


def too_large() -> ApiError:
    """413 40005: a file over the upload limit (Discord answers this before reading the body)."""
    return ApiError(413, REQUEST_ENTITY_TOO_LARGE, "Request entity too large")
