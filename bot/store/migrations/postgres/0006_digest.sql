-- The daily digest (../0006_digest.sql in SQLite's dialect).
ALTER TABLE notify_prefs ADD COLUMN digest TEXT;                    -- "08:00" in their timezone, or NULL: off
ALTER TABLE notify_prefs ADD COLUMN digest_due DOUBLE PRECISION;    -- when the next digest is due (NULL: none)
ALTER TABLE notify_prefs ADD COLUMN digest_sent DOUBLE PRECISION;   -- when the last digest went (NULL: never)
CREATE INDEX notify_prefs_by_digest ON notify_prefs (digest_due) WHERE digest_due IS NOT NULL;
