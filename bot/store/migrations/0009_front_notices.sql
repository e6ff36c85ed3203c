-- The turn notice each member's DMs hold live for a table (bot/store/front_rows.py): one
-- per member per table, so that after a restart the bot still edits it to say "Decided"
-- once its decision is taken, or replaces it with the next one, instead of leaving it
-- asking and sending a second. Rows of the front end's own, as front_messages: written
-- without a save of the table.
CREATE TABLE front_notices (
    channel_id  INTEGER NOT NULL,   -- the table's channel
    user_id     INTEGER NOT NULL,   -- the member whose DMs hold it
    dm_id       INTEGER NOT NULL,   -- their DM channel
    message_id  INTEGER NOT NULL,   -- the notice's message there (its last, where it was split)
    seat        TEXT,               -- the seat whose decision it asks for
    text        TEXT    NOT NULL,   -- what it says: the decision it asks for, in words
    decided     INTEGER NOT NULL DEFAULT 0,  -- 1 once edited to say its decision was taken
    PRIMARY KEY (channel_id, user_id)
);
