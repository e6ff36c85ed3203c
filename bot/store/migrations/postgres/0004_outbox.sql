-- What the bot still has to say (../0004_outbox.sql in SQLite's dialect): the posts an
-- action asked for, written in the same transaction as the action's save and deleted once
-- delivered; and the turn notices waiting out their grace before their DM.

-- The id is the time it was made in nanoseconds, made unique by its process: a channel's
-- rows are delivered in id order, so the channel's messages keep the order of its actions.
CREATE TABLE outbox (
    id           BIGINT PRIMARY KEY,
    channel_id   BIGINT NOT NULL,
    created_at   DOUBLE PRECISION NOT NULL,
    body         TEXT    NOT NULL,
    attempts     INTEGER NOT NULL DEFAULT 0,
    next_try_at  DOUBLE PRECISION NOT NULL DEFAULT 0,
    answered     BIGINT
);
-- No index but the key: a row lives from its save to its delivery, so the table holds
-- only what is being said or waits, and its queries read it whole.

CREATE TABLE turn_notices (
    channel_id   BIGINT NOT NULL,
    user_id      BIGINT NOT NULL,
    due_at       DOUBLE PRECISION NOT NULL,
    body         TEXT    NOT NULL,
    PRIMARY KEY (channel_id, user_id)
);
