-- The review of a finished game (../0007_reviews.sql in SQLite's dialect).
CREATE TABLE game_reviews (
    channel_id    BIGINT NOT NULL,
    created_at    DOUBLE PRECISION NOT NULL,     -- the table's creation: with the channel, names the game
    seat          TEXT    NOT NULL,
    status        TEXT    NOT NULL,              -- 'pending' (being computed), 'done' or 'failed'
    turnings      TEXT    NOT NULL DEFAULT '[]', -- JSON: the turning points, largest first
    work          BIGINT  NOT NULL DEFAULT 0,    -- the search's iterations the review takes (an estimate while pending)
    updated_at    DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (channel_id, created_at, seat)
);
CREATE INDEX game_reviews_pending ON game_reviews (status) WHERE status = 'pending';
