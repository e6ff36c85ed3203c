-- What the bot still has to say (bot/service/deliveries.py, docs/reliability.md): the
-- posts an action asked for, written in the same transaction as the action's save and
-- deleted once delivered; and the turn notices waiting out their grace before their DM.

-- One row per save that asked for posts (or per later addition to the same answer).
-- The id is the time it was made in nanoseconds, made unique by its process: a channel's
-- rows are delivered in id order, so the channel's messages keep the order of its actions.
CREATE TABLE outbox (
    id           INTEGER PRIMARY KEY,
    channel_id   INTEGER NOT NULL,
    created_at   REAL    NOT NULL,              -- unix time, for the metrics' oldest age
    body         TEXT    NOT NULL,              -- JSON: the posts, thread changes, what to show again
    attempts     INTEGER NOT NULL DEFAULT 0,    -- deliveries tried and failed
    next_try_at  REAL    NOT NULL DEFAULT 0,    -- not before: the backoff, or the lease of the process delivering it
    answered     INTEGER                        -- the member whose answer showed their private lines already
);
-- No index but the key: a row lives from its save to its delivery, so the table holds
-- only what is being said or waits, and its queries read it whole.

-- A turn notice whose row was delivered to the channel and that waits for its DM.
CREATE TABLE turn_notices (
    channel_id   INTEGER NOT NULL,
    user_id      INTEGER NOT NULL,
    due_at       REAL    NOT NULL,
    body         TEXT    NOT NULL,              -- JSON: the DM's texts, the mention, the fallback
    PRIMARY KEY (channel_id, user_id)
);
