"""The teacher's storage (migrations 0008 and 0010), run on every backend: class presets (a
channel's own before the server's), named presets (found whatever their capitals),
accommodations, class sessions (one running per server, ended ones until summarised,
summarised once, a copy of the named preset they were opened with) and assignments."""

from __future__ import annotations

from storage import Storage
from storage.records import SERVER_WIDE, ClassPreset, NamedPreset

GUILD, OTHER, CHANNEL = 1, 2, 10
T0 = 1_767_225_600_000


async def test_a_channels_preset_wins_over_the_servers(store: Storage) -> None:
    assert await store.preset_for(GUILD, CHANNEL) is None
    await store.set_preset(ClassPreset(GUILD, SERVER_WIDE, {"level": 2}), T0)
    shared = await store.preset_for(GUILD, CHANNEL)
    assert shared is not None and shared.options == {"level": 2}
    await store.set_preset(ClassPreset(GUILD, CHANNEL, {"level": 4}, locked=True), T0 + 1)
    mine = await store.preset_for(GUILD, CHANNEL)
    assert mine is not None and mine.options == {"level": 4} and mine.locked
    other = await store.preset_for(GUILD, CHANNEL + 1)
    assert other is not None and other.options == {"level": 2}
    assert await store.preset_for(OTHER, CHANNEL) is None
    assert await store.clear_preset(GUILD, CHANNEL) and not await store.clear_preset(GUILD, CHANNEL)
    assert [p.channel_id for p in await store.presets(GUILD)] == [SERVER_WIDE]


async def test_accommodations_per_server_and_pupil(store: Storage) -> None:
    await store.set_accommodation(GUILD, 7, 200, T0)
    await store.set_accommodation(GUILD, 8, 0, T0)
    await store.set_accommodation(OTHER, 7, 300, T0)
    assert await store.accommodations(GUILD) == {7: 200, 8: 0}
    assert await store.accommodations(GUILD, [7]) == {7: 200}
    await store.set_accommodation(GUILD, 7, None, T0)
    assert await store.accommodations(GUILD) == {8: 0}


async def test_one_running_session_per_server_summarised_once(store: Storage) -> None:
    session = await store.start_session(GUILD, CHANNEL, "nb", T0, T0 + 60_000)
    assert session is not None
    assert await store.start_session(GUILD, CHANNEL, "nb", T0 + 1, T0 + 90_000) is None
    assert await store.start_session(OTHER, CHANNEL, "sv", T0, T0 + 60_000) is not None
    assert await store.running_session(GUILD, T0 + 59_999) == session
    assert await store.running_session(GUILD, T0 + 60_000) is None
    assert await store.ended_sessions(T0 + 59_999) == []
    assert session.id in [s.id for s in await store.ended_sessions(T0 + 60_000)]
    assert await store.next_session_end() == T0 + 60_000
    assert await store.last_session(GUILD) is None
    assert await store.mark_summarized(session.id, T0 + 61_000)
    assert not await store.mark_summarized(session.id, T0 + 62_000)
    last = await store.last_session(GUILD)
    assert last is not None and last.id == session.id and last.summarized_at == T0 + 61_000
    assert session.id not in [s.id for s in await store.ended_sessions(T0 + 70_000)]


async def test_assignments_by_deadline(store: Storage) -> None:
    late = await store.add_assignment(GUILD, "regnekrig", 4, 10, 70, T0, T0 + 9_000)
    soon = await store.add_assignment(GUILD, "regnekrig", 1, 5, 0, T0, T0 + 5_000)
    assert [a.id for a in await store.assignments(GUILD)] == [soon.id, late.id]
    assert await store.assignments(GUILD, due_after=T0 + 5_000) == [late]
    assert await store.assignments(OTHER) == []


async def test_named_presets_saved_listed_found_by_name_and_deleted(store: Storage) -> None:
    fractions = NamedPreset(GUILD, "Brøk uke 12", {"level": 3, "minutes": 10}, locked=True)
    saved = await store.save_named_preset(fractions, T0)
    assert saved.updated_at == T0 and saved.key == "brøk uke 12"
    await store.save_named_preset(NamedPreset(GUILD, "addisjon", {"level": 1}), T0)
    await store.save_named_preset(NamedPreset(OTHER, "brøk uke 12", {"level": 7}), T0)
    found = await store.named_preset(GUILD, "BRØK  uke 12")  # capitals and spaces aside
    assert found is not None and found.name == "Brøk uke 12"
    assert found.options == {"level": 3, "minutes": 10} and found.locked
    assert [p.name for p in await store.named_presets(GUILD)] == ["addisjon", "Brøk uke 12"]
    # saving under the same name replaces it (one preset per name)
    await store.save_named_preset(NamedPreset(GUILD, "brøk UKE 12", {"level": 4}), T0 + 1)
    again = await store.named_preset(GUILD, "brøk uke 12")
    assert again is not None and again.options == {"level": 4} and not again.locked
    assert again.name == "brøk UKE 12" and len(await store.named_presets(GUILD)) == 2
    assert await store.delete_named_preset(GUILD, "Brøk Uke 12")
    assert not await store.delete_named_preset(GUILD, "brøk uke 12")
    assert await store.named_preset(GUILD, "brøk uke 12") is None
    assert (await store.named_preset(OTHER, "brøk uke 12")) is not None


async def test_a_session_keeps_a_copy_of_its_named_preset(store: Storage) -> None:
    preset = await store.save_named_preset(NamedPreset(GUILD, "Uke 12", {"level": 5}, True), T0)
    session = await store.start_session(GUILD, CHANNEL, "sv", T0, T0 + 60_000, preset)
    assert session is not None and session.preset is not None
    assert session.preset.name == "Uke 12" and session.preset.locked
    await store.delete_named_preset(GUILD, "uke 12")  # the session keeps its copy
    running = await store.running_session(GUILD, T0 + 1)
    assert running == session and await store.session(session.id) == session
    assert running.preset is not None and running.preset.options == {"level": 5}
    plain = await store.start_session(OTHER, CHANNEL, "en", T0, T0 + 60_000)
    assert plain is not None and plain.preset is None
    assert await store.session(plain.id) == plain
    assert await store.session(plain.id + session.id + 1) is None
