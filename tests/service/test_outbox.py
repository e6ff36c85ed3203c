"""Outbox rules: private events reach only their seat; nothing public depends on a secret."""

from __future__ import annotations

from bot.discord.markup import markup
from bot.service.outbox import Outbox
from bot.service.tables import TableService

from .conftest import ALICE, BOB, CAROL, CHANNEL, seated


def public_text(out: Outbox) -> str:
    """Everything public the step says, as Discord shows it."""
    return "\n".join([markup(p.text) for p in out.public()] + [markup(out.status or "")])


async def test_a_private_event_reaches_only_its_seat(service):
    await seated(service, "alice", "bob", "carol")
    out = await service.command(CHANNEL, BOB, "commit", {"value": "3"})
    private = [p for p in out.posts if p.to == "seat"]
    assert [(p.seat, p.user_id, p.text) for p in private] == [("s2", BOB, "You committed 3.")]
    assert "committed 3" not in public_text(out)
    assert "s2 has committed." in public_text(out)


async def test_public_posts_and_status_do_not_depend_on_secret_commits(tmp_path, clock):
    # The same table twice, with bob committing differently: until the reveal, everything
    # public must be byte-identical.
    from bot.store import open_store

    seen = []
    for value in ("1", "3"):
        store = await open_store(tmp_path / f"{value}.sqlite3")
        service = TableService(store, clock=clock)
        await seated(service, "alice", "bob", "carol")
        out = await service.command(CHANNEL, BOB, "commit", {"value": value})
        out2 = await service.command(CHANNEL, ALICE, "commit", {"value": "2"})
        seen.append(
            (
                public_text(out),
                public_text(out2),
                markup(await service.status(CHANNEL)),
                await service.history.log(CHANNEL),
            )
        )
        await store.close()
    assert seen[0] == seen[1]


async def test_the_log_shows_public_events_only(service):
    await seated(service, "alice", "bob")
    await service.command(CHANNEL, ALICE, "commit", {"value": "3"})
    text = await service.history.log(CHANNEL)
    assert "s1 has committed." in text and "You committed" not in text


async def test_new_prompts_are_dmed_only_to_the_seats_that_newly_owe(service):
    await seated(service, "alice", "bob")
    out = await service.command(CHANNEL, ALICE, "commit", {"value": "1"})
    assert [p for p in out.posts if p.kind == "prompt"] == []  # bob already knew he owes a commit
    out = await service.command(CHANNEL, BOB, "commit", {"value": "2"})
    prompts = [p for p in out.posts if p.kind == "prompt"]
    assert [(p.seat, p.user_id, p.dm, p.to) for p in prompts] == [("s1", ALICE, True, "seat")]
    assert "Press or yield." in markup(prompts[0].text)


async def test_a_diplomacy_phase_opens_a_thread_and_closes_it_when_it_ends(service):
    await seated(service, "alice", "bob")
    await service.command(CHANNEL, ALICE, "commit", {"value": "1"})
    await service.command(CHANNEL, BOB, "commit", {"value": "2"})
    out = await service.command(CHANNEL, ALICE, "press", {})
    assert out.open_thread == "Round 1 diplomacy" and not out.close_thread
    await service.set_thread(CHANNEL, 555)
    assert (await service.table_info(CHANNEL)).thread_id == 555
    out = await service.command(CHANNEL, ALICE, "ready", {})
    assert out.open_thread is None and not out.close_thread  # bob is still talking
    out = await service.command(CHANNEL, BOB, "ready", {})
    assert out.close_thread and out.open_thread is None


async def test_the_status_names_who_owes_what_and_when(service):
    await seated(service, "alice", "bob", "carol")
    await service.command(CHANNEL, CAROL, "commit", {"value": "1"})
    status = markup(await service.status(CHANNEL))
    assert "Waiting for alice and bob: commit" in status  # owing the same: named together
    assert f"<t:{int(service.clock() + 24 * 3600)}:R>" in status


async def test_the_log_pages_from_the_newest(service, monkeypatch):
    monkeypatch.setattr("bot.service.history.LOG_PAGE", 5)
    await seated(service, "alice", "bob")
    for round_ in range(3):  # 4 public events a round, and the game's end: 13 in all
        await service.command(CHANNEL, ALICE, "commit", {"value": "1"})
        await service.command(CHANNEL, BOB, "commit", {"value": "2"})
        await service.command(CHANNEL, ALICE if round_ % 2 == 0 else BOB, "press", {})
        await service.command(CHANNEL, ALICE, "ready", {})
        await service.command(CHANNEL, BOB, "ready", {})
    assert await service.store.count_events(CHANNEL) == 13
    pages = [(await service.history.log(CHANNEL, n)).splitlines() for n in (1, 2, 3, 9)]
    assert pages[0][0].endswith("page 1 of 3 (page 1 is the newest):")
    assert pages[0][-1] == "The game is over." and len(pages[0]) == 6
    assert pages[2][1:3] == ["s1 has committed.", "s2 has committed."] and len(pages[2]) == 4
    assert pages[3] == pages[2]  # past the last page: the last page
    body = [line for page in reversed(pages[:3]) for line in page[1:]]
    assert len(body) == 13 and body[0] == "s1 has committed."  # nothing lost or repeated between pages


async def test_a_public_event_marked_for_the_thread_is_posted_there(service, monkeypatch):
    from engine.core import Event
    from tests.tinygame import Envoys

    original = Envoys.play

    def play(self, state, seat, action, rng):
        events = original(self, state, seat, action, rng)
        if action.kind == "ready":
            events.append(Event(kind="talk", text=f"{seat} is ready to sign.", thread=True))
        return events

    monkeypatch.setattr(Envoys, "play", play)
    await seated(service, "alice", "bob")
    await service.command(CHANNEL, ALICE, "commit", {"value": "1"})
    await service.command(CHANNEL, BOB, "commit", {"value": "2"})
    await service.command(CHANNEL, ALICE, "press", {})
    out = await service.command(CHANNEL, ALICE, "ready", {})
    assert [(p.to, p.text) for p in out.posts] == [("thread", "s1 is ready to sign.")]
