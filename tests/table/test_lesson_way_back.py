"""A page whose seat is gone always offers the way back in: the join form, with the code
filled in when the lesson gave this device its seat, never a dead end (issue: after a
restart, pressing a button said "type the code" on a page with no code field)."""

from __future__ import annotations

import json

from tests.table.lessons import join, teacher
from tests.table.support import Table


async def test_a_removed_seat_is_given_the_join_form_with_the_code(lesson: Table) -> None:
    boss = await teacher(lesson)
    ada, seat = await join(lesson, "Ada")
    status, _ = await boss.post("/teacher/remove", seat=seat.id, confirm="yes", lang="en")
    assert status == 200 and seat.id not in lesson.lesson.seats
    code = lesson.lesson.code
    # A plain form (no script): the press is refused on the join page, its code filled in.
    status, page = await ada.post("/table/act", window="0", choice="flip", lang="en")
    assert status == 403 and 'name="code"' in page and f'value="{code}"' in page
    # The script: told where to go.
    async with ada.session.post(
        "/table/act", data={"window": "0", "choice": "flip"}, headers={"Accept": "application/json"}
    ) as response:
        assert response.status == 403
        assert (await response.json())["to"] == "/?lang=en"
    # The live page: sent the join page (and not left to reconnect for ever).
    ws = await ada.session.ws_connect("/live?lang=en&page=live")
    message = json.loads(await ws.receive_str())
    await ws.close()
    assert message["state"] == "join" and f'value="{code}"' in message["html"]
    _, page = await ada.get("/?lang=en")
    assert f'value="{code}"' in page
    await ada.close()
    await boss.close()


async def test_a_stranger_is_given_the_join_form_without_the_code(lesson: Table) -> None:
    """The code is the class's: a device this lesson never gave a seat is not told it."""
    from tests.table.lessons import Device

    stranger = Device.new(lesson)
    ws = await stranger.session.ws_connect("/live?lang=en&page=live")
    message = json.loads(await ws.receive_str())
    await ws.close()
    assert message["state"] == "join" and 'name="code"' in message["html"]
    assert lesson.lesson.code not in message["html"]
    ws = await stranger.session.ws_connect("/live?lang=en")  # the join page's check
    assert json.loads(await ws.receive_str()) == {"check": "ok"}
    await ws.close()
    await stranger.close()
