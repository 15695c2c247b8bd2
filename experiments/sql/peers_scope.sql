-- peers_scope.sql -- whether the database has the modern peers' table (schema
-- version 3); report.sh opens it read-only and cannot migrate
-- an older one.  Output: 1 or 0.
SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'peer_measurements';
