-- reckon schema, version 4: a source is what one path holds, with the labels
-- it was read with, not its bytes. The same bytes at two paths (a baseline
-- re-run that printed the same numbers into the new sweep's folder) are two
-- sources, each with the labels and run time of its own path; when the bytes
-- were one source, the second path read was "already ingested" and which
-- sweep kept them depended on the order of ingest. `hash` loses UNIQUE: the
-- table is made again (SQLite cannot drop a constraint), ids kept, so the
-- runs still name their sources.

CREATE TABLE source_by_path (
    id          INTEGER PRIMARY KEY,
    path        TEXT NOT NULL,
    hash        TEXT NOT NULL,              -- blake3 of the content, hex: a path whose hash is unchanged is not read again
    size        INTEGER NOT NULL,
    mtime_ns    INTEGER,
    format      TEXT NOT NULL,
    batch_id    INTEGER NOT NULL REFERENCES batch(id),
    labels      TEXT NOT NULL DEFAULT '{}',
    ctime_ns    INTEGER,
    inode       INTEGER,
    checked_ns  INTEGER,
    time        TEXT,
    time_origin TEXT,
    git_head    TEXT
);

INSERT INTO source_by_path (id, path, hash, size, mtime_ns, format, batch_id, labels, ctime_ns, inode, checked_ns,
                            time, time_origin, git_head)
    SELECT id, path, hash, size, mtime_ns, format, batch_id, labels, ctime_ns, inode, checked_ns, time, time_origin,
           git_head
    FROM source;

DROP TABLE source;
ALTER TABLE source_by_path RENAME TO source;
CREATE INDEX source_path ON source(path);
