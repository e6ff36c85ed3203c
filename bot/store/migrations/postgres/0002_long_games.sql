-- Running long games (../0002_long_games.sql in SQLite's dialect): the status message,
-- pause bookkeeping, automatic seats, who played each seat when, notification
-- preferences; and the heartbeat, which SQLite keeps in a file beside the database.

ALTER TABLE tables ADD COLUMN status_message_id BIGINT;
ALTER TABLE tables ADD COLUMN meta TEXT NOT NULL DEFAULT '{}';

ALTER TABLE seats ADD COLUMN automatic BOOLEAN NOT NULL DEFAULT FALSE;
CREATE INDEX seats_by_user ON seats (user_id);

CREATE TABLE seat_history (
    id          BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    channel_id  BIGINT  NOT NULL REFERENCES tables (channel_id) ON DELETE CASCADE,
    seat        TEXT    NOT NULL,
    user_id     BIGINT  NOT NULL,
    name        TEXT    NOT NULL,
    automatic   BOOLEAN NOT NULL DEFAULT FALSE,
    from_step   INTEGER NOT NULL,
    at          DOUBLE PRECISION NOT NULL,
    reason      TEXT    NOT NULL DEFAULT ''
);
CREATE INDEX seat_history_by_table ON seat_history (channel_id, id);

CREATE TABLE notify_prefs (
    user_id      BIGINT PRIMARY KEY,
    mode         TEXT    NOT NULL DEFAULT 'dm' CHECK (mode IN ('dm', 'mention')),
    timezone     TEXT    NOT NULL DEFAULT 'UTC',
    quiet_hours  TEXT,
    updated_at   DOUBLE PRECISION NOT NULL
);

-- The last moment each process was up, by the shards it serves ('' for all of them).
CREATE TABLE heartbeat (
    owner  TEXT PRIMARY KEY,
    at     DOUBLE PRECISION NOT NULL
);
