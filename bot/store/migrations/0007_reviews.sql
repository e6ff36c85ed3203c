-- The review of a finished game (/diplomacy review, bot/service/reviews.py): per seat, the
-- decisions where the strong automatic player would have chosen otherwise. Keyed by the
-- table's channel and creation, as the archive names a finished game, so a review outlives
-- the channel's next table.
CREATE TABLE game_reviews (
    channel_id    INTEGER NOT NULL,
    created_at    REAL    NOT NULL,              -- the table's creation: with the channel, names the game
    seat          TEXT    NOT NULL,
    status        TEXT    NOT NULL,              -- 'pending' (being computed), 'done' or 'failed'
    turnings      TEXT    NOT NULL DEFAULT '[]', -- JSON: the turning points, largest first
    work          INTEGER NOT NULL DEFAULT 0,    -- the search's iterations the review takes (an estimate while pending)
    updated_at    REAL    NOT NULL,
    PRIMARY KEY (channel_id, created_at, seat)
);
CREATE INDEX game_reviews_pending ON game_reviews (status) WHERE status = 'pending';
