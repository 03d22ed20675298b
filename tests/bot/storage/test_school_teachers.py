"""A school server's teachers and their sign-ins (storage/school_teachers.py), on every
backend. The issue: "the teacher's key never travels in a URL", "for a school without an
identity provider, the operator issues a teacher a one-time sign-in link", and "a pupil with
a Feide account can never become a teacher" (an account signs in only once a link bound it)."""

from __future__ import annotations

import sqlite3

import pytest

from storage import NotFoundError, Storage
from storage.errors import SchoolConflictError
from storage.school_teachers import token_digest

from .conftest import Backend, need_durable, need_file

T0 = 1_700_000_000_000
DAY = 86_400_000
FEIDE = "https://auth.dataporten.no"


async def _teacher_with_link(store: Storage, name: str = "Kari Lærer", link: str = "L1") -> str:
    teacher = await store.add_school_teacher(f"id-{name}", name, T0)
    await store.add_sign_in_link(teacher.id, link, T0, T0 + 7 * DAY)
    return teacher.id


async def test_a_teacher_is_added_once_by_name(store: Storage) -> None:
    """`teachers add NAME`: a name belongs to one present teacher; `teachers list` shows each
    with whether an account is bound and when they last signed in."""
    kari = await store.add_school_teacher("t1", "Kari", T0)
    assert (kari.id, kari.name, kari.bound, kari.signed_in_at) == ("t1", "Kari", False, None)
    with pytest.raises(SchoolConflictError) as taken:
        await store.add_school_teacher("t2", "Kari", T0)
    assert taken.value.what == "name"
    await store.add_school_teacher("t3", "Anders", T0)
    assert [t.name for t in await store.school_teachers()] == ["Anders", "Kari"]
    assert await store.school_teacher_named("Kari") == kari
    assert await store.school_teacher("t1") == kari
    assert await store.school_teacher("nobody") is None


async def test_a_link_signs_in_once_and_opens_a_session(store: Storage) -> None:
    """ "a one-time sign-in link": looking at it spends nothing, spending it opens a session,
    and the same link opens nothing a second time."""
    teacher_id = await _teacher_with_link(store)
    assert (await store.sign_in_link("L1", T0 + 1)) is not None
    assert (await store.sign_in_link("L1", T0 + 2)) is not None  # a preview spends nothing
    signed = await store.spend_sign_in_link("L1", "S1", T0 + 3, T0 + DAY)
    assert signed is not None and signed.id == teacher_id and signed.signed_in_at == T0 + 3
    assert await store.session_teacher("S1", T0 + 4) == signed
    assert await store.spend_sign_in_link("L1", "S2", T0 + 5, T0 + DAY) is None
    assert await store.sign_in_link("L1", T0 + 5) is None
    assert await store.session_teacher("S2", T0 + 6) is None
    assert await store.session_teacher("S1", T0 + DAY) is None  # expired
    assert await store.end_school_session("S1") is True
    assert await store.end_school_session("S1") is False
    assert await store.session_teacher("S1", T0 + 7) is None


async def test_an_expired_or_unknown_link_signs_in_nobody(store: Storage) -> None:
    """A link is valid 7 days; after that, or a token that was never issued, opens nothing."""
    await _teacher_with_link(store)
    assert await store.spend_sign_in_link("L1", "S1", T0 + 7 * DAY, T0 + 8 * DAY) is None
    assert await store.spend_sign_in_link("nope", "S1", T0, T0 + DAY) is None
    assert await store.session_teacher("S1", T0 + 1) is None
    with pytest.raises(NotFoundError):
        await store.add_sign_in_link("nobody", "L2", T0, T0 + DAY)


async def test_an_account_signs_in_only_once_a_link_bound_it(store: Storage) -> None:
    """ "With OIDC configured, an unknown subject is refused: a teacher's first OIDC sign-in
    goes through their link (the link binds the subject), so a pupil with a Feide account can
    never become a teacher.\""""
    teacher_id = await _teacher_with_link(store)
    assert await store.sign_in_account(FEIDE, "pupil-sub", "S0", T0, T0 + DAY) is None
    assert await store.session_teacher("S0", T0) is None
    bound = await store.spend_sign_in_link("L1", "S1", T0, T0 + DAY, (FEIDE, "kari-sub"))
    assert bound is not None and bound.bound
    again = await store.sign_in_account(FEIDE, "kari-sub", "S2", T0 + 5, T0 + DAY)
    assert again is not None and again.id == teacher_id and again.signed_in_at == T0 + 5
    # the same subject at another provider is another account
    other = "https://other.example"
    assert await store.sign_in_account(other, "kari-sub", "S3", T0, T0 + 1) is None


async def test_an_account_belongs_to_one_teacher(store: Storage) -> None:
    """A link cannot bind an account another teacher holds; the refused link stays unspent."""
    await _teacher_with_link(store, "Kari", "L1")
    await _teacher_with_link(store, "Lars", "L2")
    assert await store.spend_sign_in_link("L1", "S1", T0, T0 + DAY, (FEIDE, "sub")) is not None
    with pytest.raises(SchoolConflictError) as taken:
        await store.spend_sign_in_link("L2", "S2", T0, T0 + DAY, (FEIDE, "sub"))
    assert taken.value.what == "account"
    assert await store.session_teacher("S2", T0) is None
    assert await store.sign_in_link("L2", T0) is not None


async def test_removing_a_teacher_ends_their_sessions_and_links(store: Storage) -> None:
    """ "`teachers remove NAME` ends their sessions and links": at once, and their account
    and name sign in no more (a new teacher may get the name)."""
    teacher_id = await _teacher_with_link(store, "Kari", "L1")
    await store.spend_sign_in_link("L1", "S1", T0, T0 + DAY, (FEIDE, "sub"))
    await store.add_sign_in_link(teacher_id, "L2", T0, T0 + DAY)
    assert await store.remove_school_teacher(teacher_id, T0 + 1) is True
    assert await store.session_teacher("S1", T0 + 2) is None
    assert await store.spend_sign_in_link("L2", "S2", T0 + 2, T0 + DAY) is None
    assert await store.sign_in_account(FEIDE, "sub", "S3", T0 + 2, T0 + DAY) is None
    assert await store.school_teacher(teacher_id) is None
    assert await store.school_teachers() == []
    assert await store.remove_school_teacher(teacher_id, T0 + 3) is False
    new = await store.add_school_teacher("t-new", "Kari", T0 + 4)
    assert new.id != teacher_id


async def test_expired_links_and_sessions_are_purged(store: Storage) -> None:
    """Expired links and sessions (and spent links) are deleted, the rest kept."""
    teacher_id = await _teacher_with_link(store, "Kari", "L1")
    await store.add_sign_in_link(teacher_id, "L2", T0, T0 + 10 * DAY)
    await store.spend_sign_in_link("L1", "S1", T0, T0 + DAY)
    await store.sign_in_account(FEIDE, "none", "S-none", T0, T0 + DAY)
    await store.spend_sign_in_link("L2", "S2", T0, T0 + 3 * DAY)
    await store.add_sign_in_link(teacher_id, "L3", T0, T0 + 10 * DAY)
    # L1, L2 spent; S1 expires at 1 day, S2 at 3 days; L3 runs 10 days
    assert await store.purge_sign_ins(T0 + 2 * DAY) == 3
    assert await store.session_teacher("S2", T0 + 2 * DAY) is not None
    assert await store.sign_in_link("L3", T0 + 2 * DAY) is not None
    assert await store.purge_sign_ins(T0 + 2 * DAY) == 0


async def test_a_removed_teacher_goes_once_nothing_is_kept_under_their_id(store: Storage) -> None:
    """Their lessons and classes stay until their retention; then the teacher's row goes."""
    kept = await store.add_school_teacher("t-kept", "Kari", T0)
    gone = await store.add_school_teacher("t-gone", "Lars", T0)
    klass = await store.create_class("7B", T0, owner=kept.id)
    await store.remove_school_teacher(kept.id, T0)
    await store.remove_school_teacher(gone.id, T0)
    assert await store.purge_sign_ins(T0 + 1) == 1
    assert await store.delete_class(klass.id, T0 + 1)
    assert await store.purge_sign_ins(T0 + 2) == 1
    assert await store.purge_sign_ins(T0 + 3) == 0


async def test_every_class_kept_is_listed_with_its_teacher_removed_or_not(store: Storage) -> None:
    """Whoever runs the server answers a request about any teacher's class: every class, each
    with its teacher's name (a removed teacher's, with when, while the class is kept; none for
    a class of `mattekrig class`) and its roster's size, by name and then teacher."""
    kari = await store.add_school_teacher("t-kari", "Kari", T0)
    lars = await store.add_school_teacher("t-lars", "Lars", T0)
    mine = await store.create_class("7B", T0)
    of_lars = await store.create_class("7B", T0, owner=lars.id)
    of_kari = await store.create_class("7B", T0, owner=kari.id)
    other = await store.create_class("6A", T0, owner=kari.id)
    await store.add_pupil(of_kari.id, "Ada", "CARD0001", T0)
    await store.add_pupil(of_kari.id, "Bo", "CARD0002", T0)
    await store.remove_school_teacher(kari.id, T0 + 5)
    new_kari = await store.add_school_teacher("t-kari-2", "Kari", T0 + 6)
    of_new_kari = await store.create_class("7B", T0 + 6, owner=new_kari.id)
    kept = await store.kept_classes()
    assert [(k.info.id, k.teacher, k.teacher_removed_at, k.pupils) for k in kept] == [
        (other.id, "Kari", T0 + 5, 0),
        (mine.id, None, None, 0),
        (of_new_kari.id, "Kari", None, 0),
        (of_kari.id, "Kari", T0 + 5, 2),
        (of_lars.id, "Lars", None, 0),
    ]
    assert kept[3].info == of_kari


async def test_two_presses_of_one_link_sign_in_once(backend: Backend) -> None:
    """A double click, or two tabs on two processes: a one-time link opens one session."""
    need_durable(backend)
    first, second = await backend.open(), await backend.open()
    try:
        await _teacher_with_link(first)
        one = await first.spend_sign_in_link("L1", "S1", T0, T0 + DAY)
        two = await second.spend_sign_in_link("L1", "S2", T0, T0 + DAY)
        assert (one is None) != (two is None)
    finally:
        await first.close()
        await second.close()


async def test_tokens_are_stored_only_as_digests(backend: Backend, store: Storage) -> None:
    """ "Tokens stored only as sha256 digests": the file holds neither the link's token nor
    the session's, only their SHA-256."""
    path = need_file(backend)
    link, session = "link-token-" + "x" * 30, "session-token-" + "y" * 30
    teacher = await store.add_school_teacher("t1", "Kari", T0)
    await store.add_sign_in_link(teacher.id, link, T0, T0 + DAY)
    await store.add_sign_in_link(teacher.id, "other-" + link, T0, T0 + DAY)
    await store.spend_sign_in_link(link, session, T0, T0 + DAY)
    await store.close()
    data = path.read_bytes() + b"".join(
        p.read_bytes() for p in path.parent.iterdir() if p.name != path.name
    )
    assert link.encode() not in data and session.encode() not in data
    conn = sqlite3.connect(path)
    try:
        stored = {r[0] for r in conn.execute("SELECT token_hash FROM school_sessions")}
    finally:
        conn.close()
    assert stored == {token_digest(session)}
