"""The progress pages of a class that remembers (`classroom.progress` draws the figures from the
class's stored rounds; here they become pages).

Under the lesson's root (`table.host`). The teacher: ``GET /teacher/progress``
(``by=lesson|week``; ``kind`` and ``lesson`` open a cell of the heat map: the pupils' names
in it), ``GET /teacher/progress.csv`` (all of it),
``GET /teacher/progress/pupil/<id>`` (a one-page progress note to print). A pupil:
``GET /mine`` (the pupil's own figures, never anyone else's and never a rank; the card's page
shows the same, `table.roster_web`).

Every chart is an SVG drawn here (`table.charts`) with a table of the same numbers.
"""

from __future__ import annotations

from fractions import Fraction
from urllib.parse import quote

from aiohttp import web

from classroom.i18n import Lang, t
from classroom.i18n.messages import is_key
from classroom.periods import local_time
from classroom.progress import (
    BY,
    MIN_ROUNDS,
    By,
    ClassProgress,
    Figures,
    Period,
    PupilProgress,
    arrow,
    own_changes,
    progress,
)
from classroom.spreadsheet import spreadsheet, spreadsheet_cell
from classroom.summary import percent
from storage.records.classes import Pupil
from table.charts import Series, heat_map, line_chart
from table.host import host_of
from table.lesson import card_code
from table.page import esc, href
from table.press import whole
from table.roster import shown_card
from table.roster_pages import card_join_parts, class_document, head, link
from table.roster_web import add_routes as add_roster_routes
from table.roster_web import class_info, klass_of, pupil_of, teacher_only
from table.web import html, lang_of


def kind_name(kind: str | None, lang: Lang) -> str:
    if kind is None:
        return t("class.progress.best_moves", lang)
    key = f"mistake.{kind}"
    return t(key, lang) if is_key(key) else kind


def period_name(period: Period, by: By) -> str:
    if by == "week":
        return period.key
    return local_time(period.start).strftime("%Y-%m-%d")


def rate_of(figures: Figures, kind: str | None) -> Fraction | None:
    return figures.best_rate if kind is None else figures.rate(kind)


def count_of(figures: Figures, kind: str | None) -> tuple[int, int]:
    """The figure's count and the rounds it is counted of."""
    if kind is None:
        return figures.best, figures.asked
    return figures.kinds[kind], figures.answered


def rate_cell(figures: Figures | None, kind: str | None, lang: Lang, trend: str = "") -> str:
    if figures is None:
        return '<td class="num">–</td>'
    count, total = count_of(figures, kind)
    rate = rate_of(figures, kind)
    if rate is None:
        text = f'<span class="few">{esc(t("class.progress.too_few", lang, count=total))}</span>'
    else:
        text = esc(t("class.progress.rate", lang, count=count, total=total,
                     percent=percent(rate, lang)))  # fmt: skip
    return f'<td class="num">{text}{trend}</td>'


_ARROWS = {"up": "↑", "down": "↓", "same": "→"}


def arrow_mark(direction: str | None, before: Fraction | None, lang: Lang) -> str:
    """An arrow against the period before: seen as ↑ ↓ →, read out in words."""
    if direction is None or before is None:
        return ""
    words = t(f"class.progress.arrow.{direction}", lang, before=percent(before, lang))
    return (
        f' <span class="arrow" data-arrow="{direction}" aria-hidden="true">'
        f'{_ARROWS[direction]}</span><span class="visually-hidden">{esc(words)}</span>'
    )


def trend_of(pupil: PupilProgress, kind: str | None, by: By) -> tuple[str | None, Fraction | None]:
    """The last period's arrow and the rate it is compared with."""
    rates = [rate_of(f, kind) for _, f in pupil.periods(by)]
    if len(rates) < 2 or rates[-1] is None:
        return None, None
    before = next((r for r in reversed(rates[:-1]) if r is not None), None)
    return arrow(before, rates[-1]), before


async def class_progress(request: web.Request) -> tuple[ClassProgress, list[Pupil]]:
    klass = klass_of(request)
    info = class_info(klass)
    pupils = await klass.store.pupils(info.id)
    tallies, notes = await klass.store.class_tallies(info.id)
    return progress(tallies, notes, [p.id for p in pupils]), pupils


def _by(request: web.Request) -> By:
    chosen = request.query.get("by")
    return "week" if chosen == "week" else "lesson"


# -- the teacher's class page -------------------------------------------------------------------


def heat_section(found: ClassProgress, names: dict[int, str], lang: Lang,
                 opened: tuple[str, str] | None, size: int, root: str = "") -> str:  # fmt: skip
    kinds = found.kinds
    lessons = found.lessons
    title = t("class.progress.heat.title", lang)
    out = (
        '<section class="part" aria-labelledby="heat-h">'
        f'<h2 id="heat-h">{esc(title)}</h2>'
        f"<p>{esc(t('class.progress.heat.intro', lang, count=MIN_ROUNDS))}</p>"
    )
    if not kinds:
        return out + f"<p>{esc(t('class.progress.heat.none', lang))}</p></section>"
    columns = [period_name(p, "lesson") for p in lessons]
    counts = [[found.count(k, p.key) for p in lessons] for k in kinds]
    out += heat_map(
        [kind_name(k, lang) for k in kinds], columns, counts, title=title,
        description=t("class.progress.heat.desc", lang), most=max(1, size),
    )  # fmt: skip
    head_row = "".join(f'<th scope="col">{esc(c)}</th>' for c in columns)
    rows = []
    opener = f"{root}/teacher/progress?lang={lang}&amp;kind="
    for k, row in zip(kinds, counts, strict=True):
        cells = []
        for period, count in zip(lessons, row, strict=True):
            if count:
                label = t("class.progress.heat.open", lang, count=count, kind=kind_name(k, lang),
                          lesson=period_name(period, "lesson"))  # fmt: skip
                target = f"{opener}{esc(quote(k))}&amp;lesson={period.key}"
                cells.append(
                    f'<td class="num heat-cell"><a href="{target}#cell-h" aria-label="'
                    f'{esc(label)}">{count}</a></td>'
                )
            else:
                cells.append('<td class="num">0</td>')
        rows.append(f'<tr><th scope="row">{esc(kind_name(k, lang))}</th>{"".join(cells)}</tr>')
    out += (
        f'<table class="progress"><caption>{esc(t("class.progress.heat.table", lang))}</caption>'
        f'<thead><tr><th scope="col">{esc(t("class.progress.column.kind", lang))}</th>'
        f"{head_row}</tr></thead><tbody>{''.join(rows)}</tbody></table>"
    )
    if opened is not None:
        kind, lesson = opened
        shown = next((p for p in lessons if p.key == lesson), None)
        who = sorted(names.get(p, "") for p in found.heat.get((kind, lesson), ()))
        if shown is not None:
            title = t("class.progress.cell.title", lang, kind=kind_name(kind, lang),
                      lesson=period_name(shown, "lesson"))  # fmt: skip
            listed = "".join(f"<li>{esc(n)}</li>" for n in who if n)
            body = (
                f"<ul>{listed}</ul>"
                if listed
                else f"<p>{esc(t('class.progress.cell.none', lang))}</p>"
            )
            close = t("class.progress.cell.close", lang)
            out += (
                '<section class="part confirm" aria-labelledby="cell-h">'
                f'<h3 id="cell-h" tabindex="-1">{esc(title)}</h3>{body}'
                f"<p>{link(f'{root}/teacher/progress', close, lang)}</p>"
                "</section>"
            )
    return out + "</section>"


def pupils_section(
    found: ClassProgress, pupils: list[Pupil], by: By, lang: Lang, root: str = ""
) -> str:
    kinds = found.kinds
    figures: list[str | None] = [None, *kinds]
    head_cells = [t("class.progress.column.pupil", lang), t("class.progress.column.levels", lang),
                  t(f"class.progress.column.last_{by}", lang)]  # fmt: skip
    head_cells += [kind_name(k, lang) for k in figures]
    head_cells += [t("class.progress.column.next", lang), t("class.progress.column.note", lang)]
    rows = []
    for p in pupils:
        mine = found.pupil(p.id)
        latest = mine.latest(by)
        cells = [
            f'<th scope="row">{esc(p.name)}</th>',
            f"<td>{esc(', '.join(str(lv) for lv in mine.levels) or '–')}</td>",
            f"<td>{esc(period_name(latest[0], by)) if latest else '–'}</td>",
        ]
        for kind in figures:
            direction, before = trend_of(mine, kind, by)
            cells.append(rate_cell(latest[1] if latest else None, kind, lang,
                                   arrow_mark(direction, before, lang)))  # fmt: skip
        level = mine.suggested_level()
        cells.append(f'<td class="num">{level if level is not None else "–"}</td>')
        note = link(f"{root}/teacher/progress/pupil/{p.id}",
                    t("class.progress.note_link", lang, name=p.name), lang)  # fmt: skip
        cells.append(f"<td>{note}</td>")
        rows.append(f"<tr>{''.join(cells)}</tr>")
    head_row = "".join(f'<th scope="col">{esc(c)}</th>' for c in head_cells)
    return (
        '<section class="part" aria-labelledby="pupils-h">'
        f'<h2 id="pupils-h">{esc(t("class.progress.pupils", lang))}</h2>'
        f"<p>{esc(t(f'class.progress.pupils_intro_{by}', lang, count=MIN_ROUNDS))}</p>"
        f'<div class="wide"><table class="progress"><thead><tr>{head_row}</tr></thead>'
        f"<tbody>{''.join(rows)}</tbody></table></div></section>"
    )


async def progress_page(request: web.Request) -> web.Response:
    await teacher_only(request)
    lang = lang_of(request)
    by = _by(request)
    klass = klass_of(request)
    root = host_of(request).root
    info = class_info(klass)
    found, pupils = await class_progress(request)
    kind, lesson = request.query.get("kind"), request.query.get("lesson")
    opened = (kind, lesson) if kind and lesson else None
    title = t("class.progress.title", lang, name=info.name)
    other: By = "week" if by == "lesson" else "lesson"
    nav = (
        f'<nav class="class-links" aria-label="{esc(t("class.roster.links", lang))}"><ul>'
        f"<li>{link(f'{root}/teacher/class', t('class.roster.back', lang), lang)}</li>"
        f'<li><a href="{href(f"{root}/teacher/progress", lang=lang, by=other)}">'
        f"{esc(t(f'class.progress.by_{other}', lang))}</a></li>"
        f'<li><a href="{href(f"{root}/teacher/progress.csv", lang=lang)}">'
        f"{esc(t('class.progress.csv', lang))}</a></li></ul></nav>"
    )
    body = head(title, lang, f"{root}/teacher/progress", {"by": by}) + nav
    if not found.lessons:
        body += f"<p>{esc(t('class.progress.empty', lang))}</p>"
    else:
        names = {p.id: p.name for p in pupils}
        body += heat_section(found, names, lang, opened, len(pupils), root)
        body += pupils_section(found, pupils, by, lang, root)
    return html(class_document(lang, "progress", title, body))


# -- one pupil's note ----------------------------------------------------------------------------


def periods_table(mine: PupilProgress, by: By, lang: Lang) -> str:
    periods = mine.periods(by)
    figures: list[str | None] = [None, *mine.kinds]
    head_cells = [t(f"class.progress.column.{by}", lang), t("class.progress.column.asked", lang),
                  t("class.progress.column.levels", lang)]  # fmt: skip
    head_cells += [kind_name(k, lang) for k in figures]
    rows = []
    last: dict[str | None, Fraction | None] = {}
    for period, f in periods:
        cells = [f'<th scope="row">{esc(period_name(period, by))}</th>',
                 f'<td class="num">{f.asked}</td>',
                 f"<td>{esc(', '.join(str(lv) for lv in sorted(f.levels)))}</td>"]  # fmt: skip
        for kind in figures:
            rate = rate_of(f, kind)
            before = last.get(kind)
            mark = arrow_mark(arrow(before, rate), before, lang)
            cells.append(rate_cell(f, kind, lang, mark))
            if rate is not None:
                last[kind] = rate
        rows.append(f"<tr>{''.join(cells)}</tr>")
    head_row = "".join(f'<th scope="col">{esc(c)}</th>' for c in head_cells)
    caption = t(f"class.progress.note.{by}s", lang)
    return (
        f'<table class="progress"><caption>{esc(caption)}</caption>'
        f"<thead><tr>{head_row}</tr></thead><tbody>{''.join(rows)}</tbody></table>"
    )


async def pupil_note(request: web.Request) -> web.Response:
    """A one-page progress note for one pupil (to print and show a parent)."""
    await teacher_only(request)
    lang = lang_of(request)
    klass = klass_of(request)
    root = host_of(request).root
    info = class_info(klass)
    wanted = whole(request.match_info["pupil"])
    pupil = next((p for p in await klass.store.pupils(info.id) if p.id == wanted), None)
    if pupil is None:
        return html(class_document(lang, "missing", t("class.error.no_pupil", lang),
                                   head(t("class.error.no_pupil", lang), lang,
                                        f"{root}/teacher/class")),
                    404)  # fmt: skip
    tallies, notes = await klass.store.class_tallies(info.id, pupil.id)
    mine = progress(tallies, notes, [pupil.id]).pupil(pupil.id)
    title = t("class.progress.note.title", lang, name=pupil.name, klass=info.name)
    body = head(title, lang, f"{root}/teacher/progress/pupil/{pupil.id}")
    body += (
        f'<p class="no-print">'
        f"{link(f'{root}/teacher/progress', t('class.progress.back', lang), lang)}"
        f" · {esc(t('class.progress.note.print', lang))}</p>"
    )
    if not mine.lessons:
        body += f"<p>{esc(t('class.progress.none', lang))}</p>"
        return html(class_document(lang, "note", title, body))
    level = mine.suggested_level()
    body += (
        f"<p>{esc(t('class.progress.note.levels', lang, levels=', '.join(map(str, mine.levels))))}"
    )
    if level is not None:
        body += f" {esc(t('class.progress.note.next', lang, level=level))}"
    body += "</p>"
    lessons = mine.periods("lesson")
    kinds = list(mine.kinds[:4])
    chart = line_chart(
        [period_name(p, "lesson") for p, _ in lessons],
        [Series(kind_name(k, lang), [rate_of(f, k) for _, f in lessons]) for k in [None, *kinds]],
        title=t("class.progress.note.chart", lang, name=pupil.name),
        description=t("class.progress.note.chart_desc", lang, count=MIN_ROUNDS),
        ident="note-chart",
    )
    body += f'<figure class="part">{chart}</figure>'
    body += periods_table(mine, "lesson", lang) + periods_table(mine, "week", lang)
    return html(class_document(lang, "note", title, f'<div class="note-page">{body}</div>'))


# -- the CSV -------------------------------------------------------------------------------------


async def progress_csv(request: web.Request) -> web.Response:
    """All of it: each pupil's figures per lesson and per week (count, rounds, rate, arrow,
    levels, the suggested next level), and the heat map's counts."""
    await teacher_only(request)
    lang = lang_of(request)
    found, pupils = await class_progress(request)
    rows: list[list[object]] = [[t(f"class.csv.{c}", lang) for c in CSV_COLUMNS]]
    for p in pupils:
        mine = found.pupil(p.id)
        level = mine.suggested_level()
        for by in BY:
            for kind in [None, *mine.kinds]:
                before: Fraction | None = None
                for period, f in mine.periods(by):
                    count, total = count_of(f, kind)
                    rate = rate_of(f, kind)
                    direction = arrow(before, rate)
                    rows.append([
                        spreadsheet_cell(p.name), t(f"class.progress.by_{by}", lang),
                        period_name(period, by), kind_name(kind, lang), count, total,
                        "" if rate is None else round(float(rate) * 100),
                        "" if direction is None else t(f"class.csv.arrow.{direction}", lang),
                        " ".join(str(lv) for lv in sorted(f.levels)),
                        "" if level is None else level,
                    ])  # fmt: skip
                    if rate is not None:
                        before = rate
    for kind in found.kinds:
        for period in found.lessons:
            rows.append([t("class.csv.class", lang), t("class.progress.by_lesson", lang),
                         period_name(period, "lesson"), kind_name(kind, lang),
                         found.count(kind, period.key), len(pupils), "", "", "", ""])  # fmt: skip
    data = spreadsheet(rows, lang).encode("utf-8")
    return web.Response(
        body=data,
        content_type="text/csv",
        charset="utf-8",
        headers={"Content-Disposition": 'attachment; filename="mattekrig-progress.csv"'},
    )


CSV_COLUMNS = ("pupil", "by", "period", "figure", "count", "rounds", "percent", "arrow",
               "levels", "next")  # fmt: skip


# -- the pupil's own -----------------------------------------------------------------------------


def own_body(mine: PupilProgress, name: str, lang: Lang) -> str:
    """The pupil's own lines, in plain words: this time against the time before."""
    title = t("class.mine.title", lang)
    out = (
        f'<section class="part mine" aria-labelledby="mine-h"><h2 id="mine-h">{esc(title)}</h2>'
        f"<p>{esc(t('class.mine.intro', lang, name=name))}</p>"
    )
    changes = own_changes(mine)
    if not changes or changes[0].now[1] == 0:
        return out + f"<p>{esc(t('class.mine.none', lang))}</p></section>"
    lines = []
    for change in changes:
        what = kind_name(change.kind, lang)
        now, now_total = change.now
        if change.before is None:
            lines.append(t("class.mine.first", lang, kind=what, now=now, now_total=now_total))
        else:
            before, before_total = change.before
            lines.append(t("class.mine.line", lang, kind=what, before=before,
                           before_total=before_total, now=now, now_total=now_total))  # fmt: skip
    return out + "<ul>" + "".join(f"<li>{esc(x)}</li>" for x in lines) + "</ul></section>"


async def own_progress(request: web.Request, pupil_id: int, lang: Lang) -> web.Response:
    klass = klass_of(request)
    host = host_of(request)
    info = class_info(klass)
    tallies, notes = await klass.store.class_tallies(info.id, pupil_id)
    mine = progress(tallies, notes, [pupil_id]).pupil(pupil_id)
    roster = host.lesson.roster or {}
    name = next((n for p, n in roster.values() if p == pupil_id), "")
    title = t("class.mine.title", lang)
    body = head(title, lang, host.at("/mine")) + own_body(mine, name, lang)
    body += f"<p>{link(host.at('/table'), t('class.mine.back', lang), lang)}</p>"
    return html(class_document(lang, "mine", title, body))


async def mine(request: web.Request) -> web.Response:
    """The pupil's own progress: only the device seated as that pupil sees it."""
    lang = lang_of(request)
    klass_of(request)  # a lesson kept nowhere has no class
    pupil = pupil_of(request)
    if pupil is None:
        raise web.HTTPSeeOther(host_of(request).at(f"/?lang={lang}"))
    return await own_progress(request, pupil, lang)


async def card_page(request: web.Request) -> web.Response:
    """A card's QR code: the join form with the code filled in; once seated as the card's
    own pupil, the pupil's own progress (never anyone else's)."""
    lang = lang_of(request)
    klass_of(request)  # a lesson kept nowhere has no class
    host = host_of(request)
    lesson = host.lesson
    code = card_code(request.match_info["card"])[:16]
    found = (lesson.roster or {}).get(code)
    if found is not None and pupil_of(request) == found[0]:
        return await own_progress(request, found[0], lang)
    parts = card_join_parts(lang, shown_card(code), root=host.root)
    title = t("lesson.join.title", lang)
    body = head(title, lang, host.at(f"/card/{code}")) + "".join(
        f'<section id="{k}" class="part part-{k}">{v}</section>' for k, v in parts.items()
    )
    return html(class_document(lang, "join", title, body))


def add_routes(app: web.Application, root: str = "") -> None:
    """The class's pages: the roster's (`table.roster_web`) and the progress pages (a lesson
    of no class answers them with a page that is not there)."""
    add_roster_routes(app, root)
    app.router.add_get(f"{root}/card/{{card}}", card_page)
    app.router.add_get(f"{root}/teacher/progress", progress_page)
    app.router.add_get(f"{root}/teacher/progress.csv", progress_csv)
    app.router.add_get(f"{root}/teacher/progress/pupil/{{pupil}}", pupil_note)
    app.router.add_get(f"{root}/mine", mine)


__all__ = ["add_routes", "card_page", "kind_name", "own_body", "own_progress"]
