-- Sign-ups and abandoned games (bot/service/community.py, bot/service/archive.py).

-- A lobby table's entry in its server's lobby channel, and whether the game's watchers were
-- told of it. Keyed by the table's channel and creation, as the archive names a table: a
-- channel's next table is a new entry.
CREATE TABLE lobby_entries (
    channel_id    INTEGER PRIMARY KEY,           -- the table's channel
    created_at    REAL    NOT NULL,              -- the table's creation
    guild_id      INTEGER,
    lobby_channel INTEGER,                       -- where the entry was posted (NULL: not posted)
    message_id    INTEGER,                       -- the entry's message (NULL: none)
    told          INTEGER NOT NULL DEFAULT 0     -- the game's watchers were told
);

-- A member's seat at a game abandoned after it started, for their profile: never rated,
-- never a win. Apart from `tables`, like the finished games, so the count outlives the
-- channel's next table.
CREATE TABLE abandoned_seats (
    guild_id      INTEGER NOT NULL,              -- 0: a table outside a server (the console)
    channel_id    INTEGER NOT NULL,
    created_at    REAL    NOT NULL,              -- the table's creation: with the channel, names the table
    game          TEXT    NOT NULL,
    user_id       INTEGER NOT NULL,
    abandoned_at  REAL    NOT NULL,
    PRIMARY KEY (channel_id, created_at, user_id)
);
CREATE INDEX abandoned_by_member ON abandoned_seats (user_id, guild_id, game);

-- The games abandoned before this archive existed, from the rows still kept.
INSERT INTO abandoned_seats (guild_id, channel_id, created_at, game, user_id, abandoned_at)
SELECT COALESCE(t.guild_id, 0), t.channel_id, t.created_at, t.game, s.user_id, t.updated_at
FROM seats s JOIN tables t ON t.channel_id = s.channel_id
WHERE t.status = 'abandoned' AND t.seed IS NOT NULL AND s.user_id > 0;
