-- The daily digest (bot/service/digest.py): the time a member chose, when their next digest
-- is due and when the last one went. Beside their other notification preferences, so
-- /community forget, which deletes that row, erases these too.
ALTER TABLE notify_prefs ADD COLUMN digest TEXT;          -- "08:00" in their timezone, or NULL: off
ALTER TABLE notify_prefs ADD COLUMN digest_due REAL;      -- when the next digest is due (NULL: none)
ALTER TABLE notify_prefs ADD COLUMN digest_sent REAL;     -- when the last digest went (NULL: never)
CREATE INDEX notify_prefs_by_digest ON notify_prefs (digest_due) WHERE digest_due IS NOT NULL;
