-- Running long games: the status message, pause bookkeeping, automatic seats,
-- who played each seat when, notification preferences. (The heartbeat is a file beside the database; see sqlite.py.)

-- The table's one public status message (Discord message id), kept across restarts.
ALTER TABLE tables ADD COLUMN status_message_id INTEGER;
-- JSON: small per-table bookkeeping (pause votes, the time a pause froze the clock,
-- deferred reminders, the current round label, substitute requests).
ALTER TABLE tables ADD COLUMN meta TEXT NOT NULL DEFAULT '{}';

-- An automatic seat is played by the game's bot_action. user_id is negative when no
-- member holds it (a seat added to fill the table).
ALTER TABLE seats ADD COLUMN automatic INTEGER NOT NULL DEFAULT 0;
CREATE INDEX seats_by_user ON seats (user_id);

-- Who played each seat from which action on (append-only).
CREATE TABLE seat_history (
    id          INTEGER PRIMARY KEY,
    channel_id  INTEGER NOT NULL REFERENCES tables (channel_id) ON DELETE CASCADE,
    seat        TEXT    NOT NULL,
    user_id     INTEGER NOT NULL,
    name        TEXT    NOT NULL,
    automatic   INTEGER NOT NULL DEFAULT 0,
    from_step   INTEGER NOT NULL,               -- the first action index they played
    at          REAL    NOT NULL,
    reason      TEXT    NOT NULL DEFAULT ''
);
CREATE INDEX seat_history_by_table ON seat_history (channel_id, id);

-- Per-member notification preferences, shared by every table they sit at.
CREATE TABLE notify_prefs (
    user_id      INTEGER PRIMARY KEY,
    mode         TEXT    NOT NULL DEFAULT 'dm' CHECK (mode IN ('dm', 'mention')),
    timezone     TEXT    NOT NULL DEFAULT 'UTC',
    quiet_hours  TEXT,                          -- "22-07" in their timezone, or NULL
    updated_at   REAL    NOT NULL
);
