-- The first schema, in PostgreSQL's dialect: the same tables and columns as
-- ../0001_initial.sql (SQLite). Later migrations add to it; they never rewrite this file.

CREATE TABLE tables (
    channel_id  BIGINT PRIMARY KEY,
    guild_id    BIGINT,
    game        TEXT    NOT NULL,
    options     TEXT    NOT NULL DEFAULT '{}',   -- JSON, the game's Options
    settings    TEXT    NOT NULL DEFAULT '{}',   -- JSON, deadlines and reminders
    status      TEXT    NOT NULL CHECK (status IN ('lobby', 'running', 'paused', 'finished', 'abandoned')),
    state       TEXT,                            -- JSON of the game State; NULL in the lobby
    version     INTEGER NOT NULL DEFAULT 0,      -- bumped by every save; a stale writer fails
    host_id     BIGINT  NOT NULL,
    seed        BIGINT,
    thread_id   BIGINT,
    created_at  DOUBLE PRECISION NOT NULL,
    updated_at  DOUBLE PRECISION NOT NULL
);

-- One row per player at a table. `seat` is the engine seat id, given at start.
CREATE TABLE seats (
    channel_id  BIGINT  NOT NULL REFERENCES tables (channel_id) ON DELETE CASCADE,
    user_id     BIGINT  NOT NULL,
    name        TEXT    NOT NULL,
    position    INTEGER NOT NULL,
    preference  TEXT,
    seat        TEXT,
    joined_at   DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (channel_id, user_id)
);
CREATE UNIQUE INDEX seats_by_seat ON seats (channel_id, seat) WHERE seat IS NOT NULL;

-- The append-only action log: replaying it from the seed reproduces the game.
CREATE TABLE actions (
    channel_id  BIGINT  NOT NULL REFERENCES tables (channel_id) ON DELETE CASCADE,
    idx         INTEGER NOT NULL,
    seat        TEXT    NOT NULL,
    user_id     BIGINT,                          -- NULL when a deadline acted for the seat
    action      TEXT    NOT NULL,                -- JSON
    at          DOUBLE PRECISION NOT NULL,
    undoable    BOOLEAN NOT NULL DEFAULT FALSE,
    PRIMARY KEY (channel_id, idx)
);

-- Everything the game told anyone, for /game log. audience NULL = public.
CREATE TABLE events (
    id          BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    channel_id  BIGINT  NOT NULL REFERENCES tables (channel_id) ON DELETE CASCADE,
    action_idx  INTEGER,
    audience    TEXT,
    kind        TEXT    NOT NULL,
    text        TEXT    NOT NULL,
    at          DOUBLE PRECISION NOT NULL
);
CREATE INDEX events_by_table ON events (channel_id, audience, id);

-- One row per open phase. next_at = the earliest of due_at and the pending reminders,
-- so the scheduler finds due work with one indexed query.
CREATE TABLE deadlines (
    channel_id      BIGINT  NOT NULL REFERENCES tables (channel_id) ON DELETE CASCADE,
    phase           TEXT    NOT NULL,
    started_at      DOUBLE PRECISION NOT NULL,
    due_at          DOUBLE PRECISION NOT NULL,
    next_at         DOUBLE PRECISION NOT NULL,
    reminders       TEXT    NOT NULL DEFAULT '[]',  -- JSON: pending reminder times
    reminders_sent  TEXT    NOT NULL DEFAULT '[]',  -- JSON: reminder times already sent
    extended        BOOLEAN NOT NULL DEFAULT FALSE,
    thread          TEXT,                           -- the phase's thread name, if it has one
    PRIMARY KEY (channel_id, phase)
);
CREATE INDEX deadlines_by_next ON deadlines (next_at);

CREATE TABLE deliveries (
    user_id     BIGINT PRIMARY KEY,
    dm_closed   BOOLEAN NOT NULL DEFAULT FALSE,
    updated_at  DOUBLE PRECISION NOT NULL
);
