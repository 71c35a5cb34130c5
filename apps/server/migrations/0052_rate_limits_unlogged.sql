-- The counters of the rate limits and login throttles are written twice by every password login
-- (a guess taken before the hash, given back after a success) and by every request of the general
-- limit. They live for one window (minutes), and with REDIS_URL they are held by Redis, not
-- durably. As an UNLOGGED table they write no WAL: a transaction that changes only this table
-- commits without waiting for a WAL flush to disk, and the row locks of a busy key (one office's
-- address) are held for microseconds instead of a disk flush. After a crash of PostgreSQL (not a
-- clean restart) the table starts empty: every window starts again. A standby holds no copy.
-- docs/decisions/010-reads-and-grants.md, "Logins".
ALTER TABLE rate_limits SET UNLOGGED;
