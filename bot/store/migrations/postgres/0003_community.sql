-- A server's community (../0003_community.sql in SQLite's dialect): its finished games, ratings,
-- members' community settings and watches (bot/service/community.py). Finished games live in their own tables, never
-- joined to `tables` at read time: a channel's next table deletes the old row, and a
-- deleted channel takes nothing of the archive with it.

-- One row per finished game (not abandoned), written once when its last action is saved.
CREATE TABLE finished_games (
    id           BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    guild_id     BIGINT,                       -- 0: a table outside a server (the console)
    channel_id   BIGINT NOT NULL,
    game         TEXT    NOT NULL,
    created_at   DOUBLE PRECISION    NOT NULL,              -- the table's creation: with the channel, names the table
    finished_at  DOUBLE PRECISION    NOT NULL,
    rated        BOOLEAN NOT NULL DEFAULT TRUE,    -- counted in the ratings (the table's `rated` setting)
    counted      BOOLEAN NOT NULL DEFAULT FALSE,    -- the ratings were updated from it
    reason       TEXT    NOT NULL DEFAULT '',   -- why the game ended, in the game's words
    outcome      TEXT    NOT NULL,              -- JSON: the game's Outcome (ranks, scores, shared places)
    message_id   BIGINT,                       -- the status message showing the result, if known
    UNIQUE (channel_id, created_at)
);
CREATE INDEX finished_by_guild ON finished_games (guild_id, finished_at, id);
CREATE INDEX finished_by_guild_game ON finished_games (guild_id, game, finished_at, id);

-- Who played each seat of a finished game, one row per member (or automatic player) and
-- seat, with how many of the seat's decisions they made.
CREATE TABLE finished_seats (
    game_id      BIGINT NOT NULL REFERENCES finished_games (id) ON DELETE CASCADE,
    guild_id     BIGINT,
    game         TEXT    NOT NULL,
    seat         TEXT    NOT NULL,
    label        TEXT    NOT NULL,              -- the nation or role, in the game's words
    user_id      BIGINT NOT NULL,              -- negative: an automatic player no member held; 0: a former member
    name         TEXT    NOT NULL,
    automatic    BOOLEAN NOT NULL DEFAULT FALSE,    -- an automatic player's own row
    decisions    INTEGER NOT NULL DEFAULT 0,    -- decisions this member (or automatic player) made here
    missed       INTEGER NOT NULL DEFAULT 0,    -- deadlines that passed while this member owed the decision
    seat_decisions INTEGER NOT NULL DEFAULT 0,  -- every decision of the seat (forced ones not counted)
    seat_automatic INTEGER NOT NULL DEFAULT 0,  -- of those, made by an automatic player
    rank         INTEGER NOT NULL,
    score        DOUBLE PRECISION NOT NULL,
    win          DOUBLE PRECISION NOT NULL DEFAULT 0,    -- this member's share of the seat's win (docs/rulings.md)
    answer_seconds DOUBLE PRECISION  NOT NULL DEFAULT 0,    -- summed time from the table's previous move to each decision
    PRIMARY KEY (game_id, seat, user_id)
);
CREATE INDEX finished_seats_by_member ON finished_seats (user_id, guild_id, game);

-- A member's rating per server and game (openskill's Plackett-Luce model).
CREATE TABLE ratings (
    guild_id     BIGINT NOT NULL,
    game         TEXT    NOT NULL,
    user_id      BIGINT NOT NULL,
    name         TEXT    NOT NULL,
    mu           DOUBLE PRECISION NOT NULL,
    sigma        DOUBLE PRECISION NOT NULL,
    ordinal      DOUBLE PRECISION NOT NULL,              -- the conservative estimate: mu - 3 sigma
    games        INTEGER NOT NULL DEFAULT 0,
    wins         DOUBLE PRECISION NOT NULL DEFAULT 0,
    hidden       BOOLEAN NOT NULL DEFAULT FALSE,    -- left off the leaderboards (/community profile hidden:yes)
    PRIMARY KEY (guild_id, game, user_id)
);
CREATE INDEX ratings_board ON ratings (guild_id, game, hidden, ordinal, user_id);
CREATE INDEX ratings_by_member ON ratings (user_id);

-- A member's community settings, shared by every server.
CREATE TABLE community_members (
    user_id      BIGINT PRIMARY KEY,
    hidden       BOOLEAN NOT NULL DEFAULT FALSE,
    updated_at   DOUBLE PRECISION    NOT NULL
);

-- Members told when a table of a game opens on a server.
CREATE TABLE watches (
    guild_id     BIGINT NOT NULL,
    game         TEXT    NOT NULL,
    user_id      BIGINT NOT NULL,
    PRIMARY KEY (guild_id, game, user_id)
);
CREATE INDEX watches_by_member ON watches (user_id);

-- The server's lobby channel, where new tables with open seats are announced.
CREATE TABLE community_servers (
    guild_id     BIGINT PRIMARY KEY,
    lobby_channel BIGINT,
    updated_at   DOUBLE PRECISION    NOT NULL
);

-- The table directory: a server's tables by status.
CREATE INDEX tables_by_guild ON tables (guild_id, status, game);
