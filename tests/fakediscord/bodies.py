"""Request bodies as Discord reads them: JSON, or multipart with ``payload_json`` + ``files[n]``."""

from __future__ import annotations

import json
import mimetypes
import re
from dataclasses import dataclass
from typing import Any

from aiohttp import BodyPartReader, web

_FILE_FIELD = re.compile(r"^files\[(\d+)\]$")


@dataclass(frozen=True)
class Upload:
    """One uploaded file: its ``files[index]`` slot, name, type and bytes."""

    index: int
    filename: str
    content_type: str | None
    data: bytes


# What the server's middleware learns about a request, for the handlers to use.
ROUTE = web.RequestKey("route", str)
BODY = web.RequestKey("body", object)
UPLOADS = web.RequestKey("uploads", list)
INTERACTION = web.RequestKey("interaction", object)


async def read_body(request: web.Request) -> tuple[Any, list[Upload]]:
    """The JSON body (or ``payload_json``) and any uploaded files; ``None`` when there is none."""
    if not request.can_read_body:
        return None, []
    if request.content_type.startswith("multipart/"):
        return await _read_multipart(request)
    raw = await request.read()
    if not raw:
        return None, []
    return json.loads(raw), []


async def _read_multipart(request: web.Request) -> tuple[Any, list[Upload]]:
    reader = await request.multipart()
    body: Any = None
    uploads: list[Upload] = []
    while True:
        part = await reader.next()
        if part is None:
            break
        if not isinstance(part, BodyPartReader):
            continue
        name = part.name or ""
        data = await part.read()
        if name == "payload_json":
            body = json.loads(data)
            continue
        match = _FILE_FIELD.match(name)
        if match is not None:
            filename = part.filename or name
            # Discord sniffs the real type; discord.py always says application/octet-stream.
            guessed = mimetypes.guess_type(filename)[0]
            uploads.append(
                Upload(
                    index=int(match.group(1)),
                    filename=filename,
                    content_type=guessed or part.headers.get("Content-Type"),
                    data=bytes(data),
                )
            )
    return body, uploads
