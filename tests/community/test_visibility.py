"""What a member sees of the server's games: exactly what they could see by opening the
channels themselves (bot/service/audience.py; docs/reliability.md, "Who sees the server's
games").

The property: on generated servers (channels open to everyone or to some roles only, one
deleted, members holding roles, finished games in those channels, some rated, some
members hidden from the leaderboards, abandoned games), every community read by every
member answers exactly what it answers on a server where the games that member cannot
open were never played. That covers every row, name, link, count, rating and attached
record at once; the second server is the same archive written again without them, so its
answers come from the store's own queries while the first server's come from the games
the reader may see, and the two paths are compared as well.
"""

from __future__ import annotations

import ast
import asyncio
import functools
import inspect
import itertools
import re
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.discord.markup import markup
from bot.render.rich import Rich
from bot.service import ratings
from bot.service.audience import Reader
from bot.service.community import Community
from bot.service.errors import TableError
from bot.service.tables import TableService
from bot.store import open_store
from bot.store.community_rows import AbandonedSeat, FinishedGame, FinishedSeat
from tests.community.conftest import GUILD, finish
from tests.service.conftest import ALICE, BOB, CAROL

GAMES = ("envoys", "origins")
DELETED = 99  # a channel that no longer exists: nobody may open it


@dataclass
class Played:
    channel: int
    game: str
    players: list[int]  # member ids by rank order drawn
    ranks: list[int]
    rated: bool
    decisions: list[int]


@dataclass
class Server:
    """A generated server: which roles each member holds, which roles may open each
    channel (None: everyone), the games played there."""

    members: dict[int, frozenset[int]]
    channels: dict[int, frozenset[int] | None]
    games: list[Played]
    abandoned: list[tuple[int, str, int]]  # channel, game, member
    hidden: set[int] = field(default_factory=set)

    def may_open(self, member: int, channel: int) -> bool:
        if channel not in self.channels:
            return False
        roles = self.channels[channel]
        return roles is None or bool(roles & self.members[member])


@st.composite
def servers(draw) -> Server:
    members = {uid: frozenset(draw(st.sets(st.integers(1, 3), max_size=2))) for uid in range(1, draw(st.integers(2, 4)) + 1)}
    channels: dict[int, frozenset[int] | None] = {
        10 + n: draw(st.one_of(st.none(), st.frozensets(st.integers(1, 3), max_size=2)))
        for n in range(draw(st.integers(1, 3)))
    }
    where = st.sampled_from([*channels, DELETED])
    games = []
    for _ in range(draw(st.integers(1, 6))):
        players = draw(st.lists(st.sampled_from(sorted(members)), min_size=2, max_size=3, unique=True))
        games.append(
            Played(
                draw(where),
                draw(st.sampled_from(GAMES)),
                players,
                [draw(st.integers(1, len(players))) for _ in players],
                draw(st.booleans()),
                [draw(st.integers(0, 9)) for _ in players],
            )
        )
    abandoned = draw(st.lists(st.tuples(where, st.sampled_from(GAMES), st.sampled_from(sorted(members))), max_size=2))
    hidden = draw(st.sets(st.sampled_from(sorted(members)), max_size=1))
    return Server(members, channels, games, abandoned, hidden)


def _name(uid: int) -> str:
    return f"member{uid}"


async def _archive(store, guild: int, server: Server, keep, at: float) -> dict[int, int]:
    """Write the server's games that `keep` passes (and its abandoned seats) into `guild`,
    as the archive does; returns the number each game got, by its index in server.games."""
    numbers = {}
    for n, p in enumerate(server.games):
        if not keep(p.channel):
            continue
        # the same table archived again under another server: another creation time
        game = FinishedGame(guild, p.channel, p.game, at + n, 1_800_000_000.0 + 3600 * n, {}, "ended", p.rated)
        seats = [
            FinishedSeat(
                f"s{i + 1}", f"Nation {i + 1}", uid, _name(uid), rank, float(10 - rank), p.decisions[i], 0,
                p.decisions[i], 0, 1.0 if rank == 1 else 0.0, 60.0 * p.decisions[i],
            )
            for i, (uid, rank) in enumerate(zip(p.players, p.ranks, strict=True))
        ]
        game.outcome = {"standings": [{"seat": s.seat, "rank": s.rank, "score": s.score} for s in seats]}
        before = await store.community.get_ratings(guild, p.game, [s.user_id for s in seats])
        rated = ratings.rate_game(game, seats, before)
        game.counted = bool(rated)
        numbers[n] = await store.community.record_finished(game, seats, rated)
    await store.community.record_abandoned(
        [AbandonedSeat(guild, c, at + 100 + i, g, uid, at + 200) for i, (c, g, uid) in enumerate(server.abandoned) if keep(c)]
    )
    return numbers


async def _answers(c: Community, reader: Reader, guild: int, server: Server, numbers: list[int]) -> list[object]:
    """Every community read of the server's games by `reader`, refusals included, in order."""

    async def ask(work):
        try:
            return await work
        except TableError as exc:
            return f"refused: {exc}"

    out: list[object] = []
    for game, member in itertools.product((None, *GAMES), (None, *server.members)):
        for page in (1, 2):
            out.append(await ask(c.history(reader, guild, game=game, user_id=member, page=page)))
    for number in numbers:
        out.append(await ask(c.finished(reader, guild, number)))
    for game in GAMES:
        out.append(await ask(c.leaderboard(reader, guild, game)))
    for uid in server.members:
        out.append(await ask(c.profile(reader, guild, uid, _name(uid))))
    return out


def _plain(answer: object, guild: int, labels: dict[int, str]) -> str:
    """An answer with what differs between the two servers by construction written alike:
    the server's id in links, and each game's number (as the game it is). A text is read as
    Discord shows it."""
    if isinstance(answer, tuple):  # a game by number: its text and its record
        answer = (markup(answer[0]), answer[1])
    elif isinstance(answer, str | Rich):
        answer = markup(answer)
    text = repr(answer).replace(f"/channels/{guild}/", "/channels/SERVER/")
    text = re.sub(r"(?<![<\d])#(\d+)", lambda m: "#" + labels.get(int(m[1]), m[1]), text)
    text = re.sub(r"id:(\d+)", lambda m: "id:" + labels.get(int(m[1]), m[1]), text)  # the example number
    return re.sub(r"'number': (\d+)", lambda m: "'number': " + labels.get(int(m[1]), m[1]), text)


async def _check(server: Server) -> None:
    store = await open_store(":memory:")
    try:
        c = TableService(store, draw_pictures=False).community
        full = await _archive(store, 1, server, lambda channel: True, 0.0)
        alone = {
            uid: await _archive(store, 100 + uid, server, lambda ch, uid=uid: server.may_open(uid, ch), 1e6 * uid)
            for uid in server.members
        }
        for uid in server.hidden:
            await c.set_hidden(uid, True)
        missing = max(full.values()) + 10**6  # a number no game has
        for uid in server.members:
            reader = Reader(uid, functools.partial(server.may_open, uid))
            seen = await _answers(c, reader, 1, server, [*full.values(), missing])
            # the same questions on the server where the games this member cannot open were
            # never played: there, a game they cannot open is asked by a number it lacks
            there = {k: alone[uid].get(k, missing + 1 + k) for k in full}
            truth = await _answers(c, reader, 100 + uid, server, [*there.values(), missing])
            here_labels = {n: f"game{k}" for k, n in full.items()}
            there_labels = {n: f"game{k}" for k, n in there.items()}
            for mine, expected in zip(seen, truth, strict=True):
                assert _plain(mine, 1, here_labels) == _plain(expected, 100 + uid, there_labels)
    finally:
        await store.close()


VISIBILITY = settings(
    max_examples=200,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)


@pytest.mark.slow
@VISIBILITY
@given(server=servers())
def test_no_community_read_shows_a_member_anything_of_a_channel_they_cannot_open(registry, server):
    asyncio.run(_check(server))


# -- one place: nothing else reads the server's games ---------------------------------------

SERVICE = Path(__file__).resolve().parents[2] / "bot"
# the store's reads of the server's games, each answered through audience.Seen alone
SEEN_READS = {
    "finished_games", "finished_game", "finished_seats", "finished_channels", "leaderboard", "member_ratings",
    "member_record", "member_abandoned", "directory", "finished_in_order",
}
# where a read of them is the bot's own, for no member: rebuilding every rating
BOTS_OWN = {("service/ratings.py", "finished_in_order"), ("tools/ratings.py", "finished_in_order")}


def _community_reads(path: Path) -> set[str]:
    """The methods called on a `….community` attribute (the store's community part) in a file."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Attribute) and node.value.attr == "community":
            found.add(node.attr)
    return found


def test_every_read_of_the_servers_games_goes_through_the_one_rule():
    """No module but bot/service/audience.py asks the store for finished games, ratings,
    members' records or the directory, so a command added later cannot read them past the
    rule; and every read of Community takes the reader, with no default."""
    stray = {
        (str(path.relative_to(SERVICE)), name)
        for path in SERVICE.rglob("*.py")
        if path.name != "audience.py"
        for name in _community_reads(path) & SEEN_READS
    }
    assert stray <= BOTS_OWN, sorted(stray - BOTS_OWN)
    for method in ("history", "finished", "leaderboard", "profile", "directory"):
        parameters = list(inspect.signature(getattr(Community, method)).parameters.values())
        assert parameters[1].name == "reader" and parameters[1].default is inspect.Parameter.empty, method


def test_the_one_rule_check_finds_a_stray_read(tmp_path):
    """The check above can fail: a read past the rule is found."""
    stray = tmp_path / "stray.py"
    stray.write_text("async def f(self):\n    return await self.store.community.finished_games(1)\n")
    assert _community_reads(stray) & SEEN_READS == {"finished_games"}


# -- the same rule on both databases, with real games --------------------------------------

PRIVATE = 301


async def test_a_game_in_a_channel_a_member_cannot_open_is_nowhere_in_what_they_read(service, store):
    """Alice and Bob finish a game in a private channel and one in the open channel; Carol,
    who cannot open the private one, sees only the open game in the history, by number, by
    member, on the leaderboard and in profiles; Bob sees both."""
    await finish(service, 300, {ALICE: "alice", BOB: "bob"}, seed=7)
    await finish(service, PRIVATE, {ALICE: "alice", BOB: "bob"}, seed=8)
    c = service.community
    carol = Reader(CAROL, lambda channel: channel != PRIVATE)
    bob = Reader(BOB, lambda channel: True)
    games = await store.community.finished_games(GUILD, limit=10)
    private = next(g.id for g in games if g.channel_id == PRIVATE)
    open_game = next(g.id for g in games if g.channel_id != PRIVATE)

    for who, sees_private in ((carol, False), (bob, True)):
        listed = markup(await c.history(who, GUILD)) + markup(await c.history(who, GUILD, user_id=BOB))
        assert (f"**#{private} " in listed) is sees_private and f"**#{open_game} " in listed
        assert (f"/{PRIVATE}" in listed) is sees_private
        board = markup(await c.leaderboard(who, GUILD, "envoys"))
        profile = markup(await c.profile(who, GUILD, BOB, "bob"))
        if sees_private:
            assert " · 2 games" in board and "2 finished" in profile
        else:
            assert " · 1 game" in board and " · 2 games" not in board and "1 finished" in profile

    with pytest.raises(TableError, match=f"no finished game #{private}"):
        await c.finished(carol, GUILD, private)
    text, record = await c.finished(bob, GUILD, private)
    assert f"/{PRIVATE}" in markup(text) and record["number"] == private
