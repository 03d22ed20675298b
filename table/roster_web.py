"""The routes of a class that remembers, added to a class lesson when it is a lesson of a class
(`mattekrig class --class 7B`).

Under the lesson's root (`table.host`). The teacher (as on /teacher): ``GET /teacher/class``
the roster,
``POST /teacher/class/add`` (names, one a line), ``POST /teacher/class/card`` (a new card for
a pupil: the old one stops working at once), ``POST /teacher/class/forget`` (asked, then
done), ``GET /teacher/class/cards`` (the cards to print), ``GET /teacher/class/export.csv``
(everything kept of the class), ``POST /teacher/class/delete`` (asked, then done: the class,
its results and its lessons). A pupil's card page and the progress pages: `table.progress_pages`.

Every change of the roster is read into the lesson under its lock, so the lesson's cards are
the roster's at once.
"""

from __future__ import annotations

import time

from aiohttp import web
from aiohttp.http_exceptions import HttpProcessingError

from classroom.i18n import Lang, t
from classroom.spreadsheet import spreadsheet, spreadsheet_cell
from storage.classes import FORGOTTEN
from storage.records.classes import ClassInfo, Pupil
from table.host import host_of
from table.lesson import Lesson
from table.names import check_name
from table.page import button, hidden
from table.press import Refused, whole
from table.roster import (
    Class,
    add_pupils,
    load_roster,
    open_class,
    replace_card,
    shown_card,
)
from table.roster_pages import (
    cards_body,
    class_document,
    head,
    link,
    name_body,
    roster_body,
)
from table.web import DEVICE_COOKIE, html, lang_of, read_form

EXPORT_COLUMNS = ("pupil", "card", "lesson", "when", "level", "answered", "best", "kind")
MAX_NAMES_FIELD = 8_000  # a class list typed or pasted: 60 names and then some


def class_info(klass: Class) -> ClassInfo:
    """The lesson's class; a refusal in words while the lesson is of no class."""
    if klass.info is None:
        raise Refused("class.error.none", 404)
    return klass.info


CLASS = web.AppKey("class", Class)  # a laptop's app's class (the tests read it)


def klass_of(request: web.Request) -> Class:
    """The lesson's class and where it is kept; a lesson kept nowhere has no class pages."""
    klass = host_of(request).klass
    if klass is None:
        raise Refused("table.error.not_found", 404)
    return klass


async def teacher_only(request: web.Request) -> None:
    await host_of(request).teacher_only(request)


def now_ms() -> int:
    return round(time.time() * 1000)


def join_base(request: web.Request) -> str:
    return host_of(request).card_base(request)


async def roster_page(
    request: web.Request,
    lang: Lang,
    status: int = 200,
    *,
    note: str | None = None,
    error: str | None = None,
    typed: str = "",
    forgetting: Pupil | None = None,
) -> web.Response:
    host = host_of(request)
    klass = klass_of(request)
    info = class_info(klass)
    pupils = await klass.store.pupils(info.id)
    lesson = host.lesson
    body = roster_body(info, pupils, lang, note=note, error=error, typed=typed,
                       own=(lesson.own_levels, lesson.levels),
                       forgetting=forgetting, root=host.root)  # fmt: skip
    return html(class_document(lang, "roster", t("class.roster.title", lang,
                                                 name=info.name), body), status)  # fmt: skip


async def roster(request: web.Request) -> web.Response:
    await teacher_only(request)
    lang = lang_of(request)
    if klass_of(request).info is None:
        return await name_page(request, lang)
    return await roster_page(request, lang)


async def name_page(request: web.Request, lang: Lang, status: int = 200,
                    error: str | None = None) -> web.Response:  # fmt: skip
    """A lesson of no class yet: the teacher names its class (a new one, or one kept)."""
    klass = klass_of(request)
    root = host_of(request).root
    known = [c.name for c in await klass.store.classes(klass.owner)]
    title = t("class.open.title", lang)
    body = head(title, lang, f"{root}/teacher/class") + name_body(known, lang, error, root)
    return html(class_document(lang, "class-name", title, body), status)


async def open_class_here(request: web.Request) -> web.Response:
    """This lesson becomes a lesson of the class named (made if new): only before anyone
    joined, since a free nickname is no pupil of the roster."""
    await teacher_only(request)
    form = await read_form(request)
    lang = lang_of(request, form)
    klass = klass_of(request)
    host = host_of(request)
    lesson = host.lesson
    if klass.info is not None:
        raise web.HTTPSeeOther(host.at(f"/teacher/class?lang={lang}"))
    try:
        name = check_name(form.get("name", ""), ())
    except Refused as refused:
        return await name_page(request, lang, 400, t(refused.key, lang, **refused.values))
    async with lesson.lock:
        if lesson.seats or lesson.removed or klass.attach is None:
            return await name_page(request, lang, 409, t("class.error.has_pupils", lang))
        info = await open_class(klass.store, name, now_ms(), klass.owner)
        await klass.attach(info)
        klass.info = info
    raise web.HTTPSeeOther(host.at(f"/teacher/class?lang={lang}"))


async def _pupil(request: web.Request, form: dict[str, str]) -> Pupil:
    """The pupil of this class a form names; a refusal when it names none."""
    klass = klass_of(request)
    info = class_info(klass)
    wanted = whole(form.get("pupil"))
    for p in await klass.store.pupils(info.id):
        if p.id == wanted:
            return p
    raise Refused("class.error.no_pupil", 404)


async def add(request: web.Request) -> web.Response:
    await teacher_only(request)
    try:
        data = await request.post()
    except (ValueError, UnicodeDecodeError, HttpProcessingError):
        data = None
    raw = data.get("names") if data is not None else None
    lang = lang_of(request, {"lang": str(data.get("lang", ""))} if data is not None else None)
    if not isinstance(raw, str) or len(raw) > MAX_NAMES_FIELD:
        return await roster_page(request, lang, 400, error=t("class.error.names", lang))
    klass = klass_of(request)
    info = class_info(klass)
    lesson = host_of(request).lesson
    names = [line for line in raw.replace(",", "\n").splitlines() if line.strip()]
    try:
        added = await add_pupils(klass.store, info.id, names, now_ms())
    except Refused as refused:
        text = t(refused.key, lang, **refused.values)
        return await roster_page(request, lang, 400, error=text, typed=raw)
    finally:
        async with lesson.lock:
            await load_roster(klass.store, lesson)
    note = t("class.roster.added", lang, count=len(added))
    return await roster_page(request, lang, note=note)


async def new_card(request: web.Request) -> web.Response:
    await teacher_only(request)
    form = await read_form(request)
    lang = lang_of(request, form)
    pupil = await _pupil(request, form)
    klass = klass_of(request)
    lesson = host_of(request).lesson
    async with lesson.lock:
        fresh = await replace_card(klass.store, pupil.id)
        await load_roster(klass.store, lesson)
    note = t("class.roster.replaced", lang, name=pupil.name, code=shown_card(fresh.card))
    return await roster_page(request, lang, note=note)


def forget_in_lesson(lesson: Lesson, pupil_id: int) -> None:
    """The live lesson lets the forgotten pupil go: the seat removed (its game given up, as
    the teacher's removal does), the name gone from the seat and the games, the seat no
    longer the pupil's; what the lesson stores next holds no name of the pupil."""
    seats = [s for s, p in lesson.pupils.items() if p == pupil_id]
    names = set()
    for seat_id in seats:
        seat = lesson.seats.get(seat_id) or lesson.removed.get(seat_id)
        if seat is None:
            continue
        names.add(seat.name)
        if seat_id in lesson.seats:
            lesson.remove(seat_id)
        seat.name = FORGOTTEN
        del lesson.pupils[seat_id]
    for game in lesson.games:
        game.names = tuple(
            " & ".join(FORGOTTEN if part in names else part for part in n.split(" & "))
            for n in game.names
        )
    lesson.version += 1


async def forget(request: web.Request) -> web.Response:
    await teacher_only(request)
    form = await read_form(request)
    lang = lang_of(request, form)
    pupil = await _pupil(request, form)
    if form.get("confirm") != "yes":
        return await roster_page(request, lang, forgetting=pupil)
    klass = klass_of(request)
    lesson = host_of(request).lesson
    async with lesson.lock:
        forget_in_lesson(lesson, pupil.id)
        await lesson.save()
        await klass.store.forget_pupil(pupil.id, now_ms())
        await load_roster(klass.store, lesson)
    return await roster_page(request, lang, note=t("class.roster.forgotten", lang))


async def delete_class(request: web.Request) -> web.Response:
    """The class, its roster, its results and its lessons (this one too: it ends) go."""
    await teacher_only(request)
    form = await read_form(request)
    lang = lang_of(request, form)
    klass = klass_of(request)
    info = class_info(klass)
    host = host_of(request)
    root = host.root
    if form.get("confirm") != "yes":
        title = t("class.privacy.delete_confirm", lang, name=info.name)
        body = (
            head(title, lang, f"{root}/teacher/class")
            + f'<form method="post" action="{root}/teacher/class/delete">'
            + hidden("lang", lang)
            + hidden("confirm", "yes")
            + button(t("class.privacy.delete_yes", lang), cls="danger")
            + "</form>"
            + f"<p>{link(f'{root}/teacher/class', t('class.roster.keep', lang), lang)}</p>"
        )
        return html(class_document(lang, "confirm", title, body))
    lesson = host.lesson
    keeper = host.keeper
    async with lesson.lock:
        lesson.end()
        if keeper is not None:
            await keeper.delete()  # nothing of this lesson is stored again
        await klass.store.delete_class(info.id, now_ms())
        lesson.class_id = None
        lesson.roster = {}  # no card opens a seat any more
        lesson.pupils = {}
    title = t("class.privacy.deleted", lang, name=info.name)
    return html(class_document(lang, "deleted", title, head(title, lang, f"{root}/teacher")))


async def own_levels(request: web.Request) -> web.Response:
    """Each table of the class's pupils at their own suggested level, or all at the class's
    (the game chosen on the teacher's page): the next pairing plays it."""
    await teacher_only(request)
    form = await read_form(request)
    lang = lang_of(request, form)
    klass = klass_of(request)
    class_info(klass)
    lesson = host_of(request).lesson
    async with lesson.lock:
        lesson.own_levels = form.get("own") == "on"
        await load_roster(klass.store, lesson)  # the levels suggested as of now
        lesson.version += 1
        await lesson.save()
    key = "class.levels.on_note" if lesson.own_levels else "class.levels.off_note"
    return await roster_page(request, lang, note=t(key, lang))


async def cards(request: web.Request) -> web.Response:
    await teacher_only(request)
    lang = lang_of(request)
    klass = klass_of(request)
    info = class_info(klass)
    pupils = await klass.store.pupils(info.id)
    body = cards_body(info, pupils, join_base(request), lang, host_of(request).root)
    title = t("class.cards.title", lang, name=info.name)
    return html(class_document(lang, "cards", title, body))


async def export_csv(request: web.Request) -> web.Response:
    """Everything kept of the class: the roster (names and cards) and every round."""
    await teacher_only(request)
    lang = lang_of(request)
    klass = klass_of(request)
    info = class_info(klass)
    pupils = {p.id: p for p in await klass.store.pupils(info.id)}
    rounds, notes = await klass.store.class_rounds(info.id)

    def name(pupil: int) -> str:
        return spreadsheet_cell(pupils[pupil].name) if pupil in pupils else ""

    rows: list[list[object]] = [[t(f"class.export.{c}", lang) for c in EXPORT_COLUMNS]]
    rows += [[spreadsheet_cell(p.name), shown_card(p.card), "", "", "", "", "", ""]
             for p in pupils.values()]  # fmt: skip
    rows += [[name(r.pupil_id), "", r.lesson_id, r.at, r.level, int(r.answered), int(r.best),
              r.kind or ""] for r in rounds]  # fmt: skip
    rows += [[name(n.pupil_id), "", n.lesson_id, n.at, "", n.n, "", n.kind] for n in notes]
    return web.Response(
        body=spreadsheet(rows, lang).encode("utf-8"),
        content_type="text/csv",
        charset="utf-8",
        headers={"Content-Disposition": 'attachment; filename="mattekrig-class.csv"'},
    )


def pupil_of(request: web.Request) -> int | None:
    """The class's pupil this device is seated as in the lesson, if any."""
    lesson = host_of(request).lesson
    seat = lesson.seat_of(lesson.device(request.cookies.get(DEVICE_COOKIE)))
    return None if seat is None else lesson.pupils.get(seat.id)


def add_routes(app: web.Application, root: str = "") -> None:
    app.router.add_get(f"{root}/teacher/class", roster)
    app.router.add_post(f"{root}/teacher/class/open", open_class_here)
    app.router.add_post(f"{root}/teacher/class/add", add)
    app.router.add_post(f"{root}/teacher/class/levels", own_levels)
    app.router.add_post(f"{root}/teacher/class/card", new_card)
    app.router.add_post(f"{root}/teacher/class/forget", forget)
    app.router.add_post(f"{root}/teacher/class/delete", delete_class)
    app.router.add_get(f"{root}/teacher/class/cards", cards)
    app.router.add_get(f"{root}/teacher/class/export.csv", export_csv)


__all__ = [
    "CLASS",
    "Class",
    "add_routes",
    "class_info",
    "forget_in_lesson",
    "klass_of",
    "teacher_only",
]
