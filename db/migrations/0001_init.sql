-- reckon schema, version 1. Migrations are only ever added, never edited.

-- One `reckon ingest` (or `update`) invocation that added something.
CREATE TABLE batch (
    id          INTEGER PRIMARY KEY,
    started_at  TEXT NOT NULL,          -- RFC 3339 UTC, wall clock of the ingest
    command     TEXT NOT NULL,          -- the command line that ran
    git_commit  TEXT                    -- HEAD of the working tree, if any
);

-- A log file, identified by the hash of its bytes: the same bytes twice add nothing.
CREATE TABLE source (
    id        INTEGER PRIMARY KEY,
    path      TEXT NOT NULL,
    hash      TEXT NOT NULL UNIQUE,     -- blake3 of the content, hex
    size      INTEGER NOT NULL,
    mtime_ns  INTEGER,                  -- modification time when ingested: an unchanged file is not hashed again
    format    TEXT NOT NULL,
    batch_id  INTEGER NOT NULL REFERENCES batch(id),
    labels    TEXT NOT NULL DEFAULT '{}' -- labels given on the command line or captured from the path, JSON
);

-- The distinct param sets: repeats and sweeps share one row, so a run costs
-- a few bytes of params instead of a copy of its whole configuration.
CREATE TABLE param_set (
    id      INTEGER PRIMARY KEY,
    params  TEXT NOT NULL UNIQUE        -- JSON object, keys sorted
);

-- One measurement record.
CREATE TABLE run (
    id           INTEGER PRIMARY KEY,
    source_id    INTEGER NOT NULL REFERENCES source(id) ON DELETE CASCADE,
    line         INTEGER NOT NULL,      -- 1-based line where the record starts
    time         TEXT NOT NULL,         -- RFC 3339 UTC
    time_origin  TEXT NOT NULL,         -- log | path | git | mtime
    sweep        TEXT NOT NULL,         -- the UTC date of `time`: runs of one sweep aggregate together
    param_set_id INTEGER NOT NULL REFERENCES param_set(id)
);

-- Metric names with their unit and built-in direction.
CREATE TABLE metric (
    id         INTEGER PRIMARY KEY,
    name       TEXT NOT NULL UNIQUE,
    unit       TEXT,
    direction  TEXT NOT NULL            -- higher | lower | neutral
);

-- The measured numbers. NULL is a value the log wrote as NaN.
CREATE TABLE measurement (
    metric_id  INTEGER NOT NULL REFERENCES metric(id),
    run_id     INTEGER NOT NULL REFERENCES run(id) ON DELETE CASCADE,
    value      REAL,
    PRIMARY KEY (metric_id, run_id)
) WITHOUT ROWID;

CREATE INDEX run_source ON run(source_id);
CREATE INDEX source_path ON source(path);

-- Convenience views for `reckon:sql` regions and ad-hoc queries.
CREATE VIEW run_param AS
    SELECT run.id AS run_id, j.key AS key, j.value AS value
    FROM run JOIN param_set ON param_set.id = run.param_set_id, json_each(param_set.params) AS j;

CREATE VIEW run_metric AS
    SELECT measurement.run_id AS run_id, metric.name AS metric, measurement.value AS value,
           metric.unit AS unit, metric.direction AS direction
    FROM measurement JOIN metric ON metric.id = measurement.metric_id;
