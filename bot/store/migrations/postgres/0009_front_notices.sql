-- The turn notice each member's DMs hold live for a table (../0009_front_notices.sql in SQLite's dialect).
CREATE TABLE front_notices (
    channel_id  BIGINT  NOT NULL,
    user_id     BIGINT  NOT NULL,
    dm_id       BIGINT  NOT NULL,
    message_id  BIGINT  NOT NULL,
    seat        TEXT,
    text        TEXT    NOT NULL,
    decided     BOOLEAN NOT NULL DEFAULT FALSE,
    PRIMARY KEY (channel_id, user_id)
);
