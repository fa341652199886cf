-- reckon schema, version 8: a param set is found by a 64-bit hash of its
-- text (`hash`, under a plain index), no longer by a unique index on the
-- text itself. Every lookup compares the text of the rows of that hash, so
-- two sets whose hashes collide stay two rows. The unique index held a copy
-- of every set's text — as large as the table, and each insert compared long
-- keys sharing long prefixes (a Google Benchmark file's `context` copied
-- into each of its 12,000 sets: 3.7 MB of index for 9.4 MB of database).
--
-- SQLite cannot drop a UNIQUE constraint, so the table is rebuilt, keeping
-- every id. The hash is computed by reckon (`store::params::params_hash`,
-- blake3 of the text), which fills it right after this script, in the same
-- transaction: until then it is 0.

DROP VIEW run_param;

CREATE TABLE param_set_by_hash (
    id      INTEGER PRIMARY KEY,
    params  TEXT NOT NULL,              -- JSON object, keys sorted
    hash    INTEGER NOT NULL DEFAULT 0  -- the first 8 bytes of blake3(params), little-endian, signed
);
INSERT INTO param_set_by_hash (id, params) SELECT id, params FROM param_set;
DROP TABLE param_set;
ALTER TABLE param_set_by_hash RENAME TO param_set;
CREATE INDEX param_set_hash ON param_set(hash);

CREATE VIEW run_param AS
    SELECT run.id AS run_id, j.key AS key, j.value AS value
    FROM run JOIN param_set ON param_set.id = run.param_set_id, json_each(param_set.params) AS j;
