"""Every text a player can read in a whole game, read by the message lint (tests/render/lint.py).

Each title is played to its end at every player count it allows (one seed each) through the
table service, the basic automatic player deciding for the seat that owes. On the way the
test keeps what a member could read: the public posts and status, every private line and
turn notice, the status card and the round summary, `/game me` and the player aid
(`/game help aid:True`) of every seat now and then, the buttons and menu lines (`choices`,
`choice_details`) of the seat that owes at every decision, the pictures' alt text (public
and private), and at the end the final standings, the log and the replay page's text. Each
finding is listed with where it was seen.
"""

from __future__ import annotations

import re
from html.parser import HTMLParser

import pytest

from bot.discord.markup import markup
from bot.render.pictures import crisis, draw_private_vector, has_pictures, origins, schonbrunn
from bot.render.rich import Rich, Text
from bot.service.tables import TableService, turn_choices
from bot.store import open_store
from engine import games
from tests.service.conftest import Clock

from .lint import problems

pytestmark = pytest.mark.whole_game

CHANNEL = 1
SEED = 7
NAMES = ["Anna", "Boris", "Clara", "Dmitri", "Emil", "Fritz", "Gustav"]
EVERY = 25  # decisions between two looks at `/game me`, the aid, the card and the pictures
# the board picture's alt text, without drawing it
DESCRIBE = {"crisis1914": crisis.describe, "origins": origins.describe, "schonbrunn": schonbrunn.describe}


def _cases() -> list[tuple[str, int]]:
    return [
        (gid, n)
        for gid in games.ids()
        for n in range(games.get(gid).min_players, games.get(gid).max_players + 1)
    ]


class Reading:
    """What members read, each text once with the first place it was seen and whether the
    whole table reads it (where a country is named in full)."""

    def __init__(self) -> None:
        self.seen: dict[tuple[str, bool], str] = {}

    def add(self, where: str, text: Text | None, *, public: bool) -> None:
        """`text` as Discord shows it (a time as its timestamp, a member as a mention)."""
        if text:
            self.seen.setdefault((markup(text), public), where)

    def outbox(self, where: str, out: object) -> None:
        for post in getattr(out, "posts", []):
            self.add(f"{where}, {post.kind} to {post.to}", post.text, public=post.to != "seat")
            self.add(f"{where}, {post.kind} (DMs closed)", post.public, public=True)
        self.add(f"{where}, reply", getattr(out, "reply", None), public=False)
        status = getattr(out, "status", None)
        self.add(f"{where}, status", status if isinstance(status, str | Rich) else None, public=True)

    def findings(self) -> list[str]:
        out = []
        for (text, public), where in self.seen.items():
            for problem in problems(text, public=public):
                out.append(f"[{where}] {problem} in: {text[:200]!r}")
        return out


class _Text(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.parts: list[str] = []
        self._skip = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self._skip += tag in ("script", "style")
        self.parts += [v for k, v in attrs if k in ("alt", "title", "aria-label") and v]

    def handle_endtag(self, tag: str) -> None:
        self._skip -= tag in ("script", "style")

    def handle_data(self, data: str) -> None:
        if not self._skip and data.strip():
            self.parts.append(data.strip())


async def _look(service: TableService, read: Reading, users: dict[int, str], when: str) -> None:
    """What members look at now and then: `/game me`, the aid, the status card, the round
    summary and the pictures' alt text."""
    t = await service.access.load(CHANNEL)
    g = t.game
    for uid, name in users.items():
        read.add(f"{when}, /game me of {name}", await service.me(CHANNEL, uid), public=False)
        read.add(f"{when}, aid of {name}", await service.aid(CHANNEL, uid), public=False)
        seat = t.seat_of(uid)
        if seat is not None and seat.seat is not None and has_pictures(g.id) and t.state is not None:
            private = draw_private_vector(g.id, g.view(t.state, seat.seat))
            read.add(f"{when}, private picture of {name}", private and private.description, public=False)
    read.add(f"{when}, /game status", await service.status(CHANNEL), public=True)
    read.add(f"{when}, status card", (await service.posts.status_card(CHANNEL)).text(), public=True)
    summary = await service.posts.round_summary(CHANNEL)
    for part in summary.parts if summary else []:
        read.add(f"{when}, round summary", part.text(), public=True)
    if g.id in DESCRIBE and t.state is not None:
        read.add(f"{when}, board picture", DESCRIBE[g.id](g.view(t.state, None)), public=True)


async def _choices(service: TableService, read: Reading, users: dict[int, str], where: str) -> None:
    """The buttons and menu lines of the seat about to decide."""
    t = await service.access.load(CHANNEL)
    if not t.prompts:
        return
    holder = t.holder(t.prompts[0].seat)
    if holder is None or holder.user_id not in users:
        return
    step, choices = await service.choices(CHANNEL, holder.user_id)
    for _, label, _ in choices:
        read.add(f"{where}, a button of {users[holder.user_id]}", label, public=False)
    for text in (await service.choice_details(CHANNEL, holder.user_id, step)).values():
        read.add(f"{where}, a menu line of {users[holder.user_id]}", text, public=False)
    for choice in turn_choices(t.game, t.state, t.prompts[0].seat, t.prompts[0].phase):  # a long menu's groups
        read.add(f"{where}, a menu group of {users[holder.user_id]}", choice.group, public=False)
        read.add(f"{where}, a menu option of {users[holder.user_id]}", choice.full, public=False)


async def _read_a_whole_game(tmp_path, game_id: str, players: int) -> Reading:
    store = await open_store(tmp_path / "texts.sqlite3")
    service = TableService(store, clock=Clock())
    service.draw_pictures = False  # the alt text is read without drawing (DESCRIBE, draw_private_vector)
    service.reviews.enabled = False  # a review's search takes longer than the whole game here
    read = Reading()
    users = {i + 1: NAMES[i] for i in range(players)}
    try:
        read.outbox("/game new", await service.lobby.create(CHANNEL, None, game_id, 1, NAMES[0], None))
        for uid in list(users)[1:]:
            read.outbox("/game join", await service.lobby.join(CHANNEL, uid, users[uid]))
        read.outbox("/game start", await service.lobby.start(CHANNEL, 1, SEED))
        moves = 0
        while True:
            where = f"decision {moves + 1}"
            if moves % EVERY == 0:
                await _look(service, read, users, where)
            await _choices(service, read, users, where)
            out = await service.auto(CHANNEL)
            if out is None:
                break
            read.outbox(where, out)
            moves += 1
        await _look(service, read, users, "the end")
        page, pages = 1, 1
        while page <= pages:
            text = await service.history.log(CHANNEL, page)
            read.add(f"/game log page {page}", text, public=True)
            pages = int(re.search(r"page \d+ of (\d+)", text)[1])  # type: ignore[index]
            page += 1
        html = _Text()
        html.feed((await service.history.export_html(CHANNEL, 1)).decode())
        for line in html.parts:
            read.add("the replay page", line, public=True)
        assert any("standings" in text.lower() for text, _ in read.seen), "the game did not end"
        return read
    finally:
        await store.close()


@pytest.mark.parametrize(("game_id", "players"), _cases())
async def test_every_text_of_a_whole_game_reads_as_a_person_wrote_it(tmp_path, game_id, players):
    read = await _read_a_whole_game(tmp_path, game_id, players)
    places = " ".join(read.seen.values())
    for kind in ("a button of", "/game me of", "aid of", "status card", "board picture", "private picture", "replay page"):
        assert kind in places, f"nothing read from the {kind!r} texts"  # the scan itself reads each kind
    found = read.findings()
    assert not found, f"{len(found)} findings:\n" + "\n".join(found)
