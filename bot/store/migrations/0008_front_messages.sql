-- What Discord answered for a table (bot/store/front_rows.py): its status message, its
-- phase thread, and where the round summary the status message holds starts. Rows of the
-- front end's own, written without a save of the table (no new version to race the next
-- action). Values an older bot kept in the table row and its meta are read when a table
-- has no row here yet (bot/service/front_rows.py).
CREATE TABLE front_messages (
    channel_id         INTEGER PRIMARY KEY,
    table_created      REAL    NOT NULL,   -- the table's created_at: a row of an earlier table of the channel is not the next one's
    status_message_id  INTEGER,            -- the message edited in place with the status
    thread_id          INTEGER,            -- the phase thread open now, or NULL
    summary            TEXT                -- JSON: where the summary the status message holds starts, and that message
);
