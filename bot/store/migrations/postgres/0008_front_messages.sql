-- What Discord answered for a table (../0008_front_messages.sql in SQLite's dialect).
CREATE TABLE front_messages (
    channel_id         BIGINT PRIMARY KEY,
    table_created      DOUBLE PRECISION NOT NULL,
    status_message_id  BIGINT,
    thread_id          BIGINT,
    summary            TEXT
);
