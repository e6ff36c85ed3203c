-- The first schema. Later migrations add columns and tables (pause with frozen time,
-- seat history for substitutes, automatic seats, notification preferences, heartbeat);
-- they never rewrite this file.

CREATE TABLE tables (
    channel_id  INTEGER PRIMARY KEY,
    guild_id    INTEGER,
    game        TEXT    NOT NULL,
    options     TEXT    NOT NULL DEFAULT '{}',   -- JSON, the game's Options
    settings    TEXT    NOT NULL DEFAULT '{}',   -- JSON, deadlines and reminders
    status      TEXT    NOT NULL CHECK (status IN ('lobby', 'running', 'paused', 'finished', 'abandoned')),
    state       TEXT,                            -- JSON of the game State; NULL in the lobby
    version     INTEGER NOT NULL DEFAULT 0,      -- bumped by every save; a stale writer fails
    host_id     INTEGER NOT NULL,
    seed        INTEGER,
    thread_id   INTEGER,
    created_at  REAL    NOT NULL,
    updated_at  REAL    NOT NULL
);

-- One row per player at a table. `seat` is the engine seat id, given at start.
CREATE TABLE seats (
    channel_id  INTEGER NOT NULL REFERENCES tables (channel_id) ON DELETE CASCADE,
    user_id     INTEGER NOT NULL,
    name        TEXT    NOT NULL,
    position    INTEGER NOT NULL,
    preference  TEXT,
    seat        TEXT,
    joined_at   REAL    NOT NULL,
    PRIMARY KEY (channel_id, user_id)
);
CREATE UNIQUE INDEX seats_by_seat ON seats (channel_id, seat) WHERE seat IS NOT NULL;

-- The append-only action log: replaying it from the seed reproduces the game.
CREATE TABLE actions (
    channel_id  INTEGER NOT NULL REFERENCES tables (channel_id) ON DELETE CASCADE,
    idx         INTEGER NOT NULL,
    seat        TEXT    NOT NULL,
    user_id     INTEGER,                         -- NULL when a deadline acted for the seat
    action      TEXT    NOT NULL,                -- JSON
    at          REAL    NOT NULL,
    undoable    INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (channel_id, idx)
);

-- Everything the game told anyone, for /game log. audience NULL = public.
CREATE TABLE events (
    id          INTEGER PRIMARY KEY,  -- rowid order; no AUTOINCREMENT bookkeeping per insert
    channel_id  INTEGER NOT NULL REFERENCES tables (channel_id) ON DELETE CASCADE,
    action_idx  INTEGER,
    audience    TEXT,
    kind        TEXT    NOT NULL,
    text        TEXT    NOT NULL,
    at          REAL    NOT NULL
);
CREATE INDEX events_by_table ON events (channel_id, audience, id);

-- One row per open phase. next_at = the earliest of due_at and the pending reminders,
-- so the scheduler finds due work with one indexed query.
CREATE TABLE deadlines (
    channel_id      INTEGER NOT NULL REFERENCES tables (channel_id) ON DELETE CASCADE,
    phase           TEXT    NOT NULL,
    started_at      REAL    NOT NULL,
    due_at          REAL    NOT NULL,
    next_at         REAL    NOT NULL,
    reminders       TEXT    NOT NULL DEFAULT '[]',  -- JSON: pending reminder times
    reminders_sent  TEXT    NOT NULL DEFAULT '[]',  -- JSON: reminder times already sent
    extended        INTEGER NOT NULL DEFAULT 0,
    thread          TEXT,                           -- the phase's thread name, if it has one
    PRIMARY KEY (channel_id, phase)
);
CREATE INDEX deadlines_by_next ON deadlines (next_at);

CREATE TABLE deliveries (
    user_id     INTEGER PRIMARY KEY,
    dm_closed   INTEGER NOT NULL DEFAULT 0,
    updated_at  REAL    NOT NULL
);
