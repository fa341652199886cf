-- reckon schema, version 2: the database is a cache of the logs. A source is
-- the content of one path; what is recorded here decides, without reading the
-- file again, whether the path still holds what was ingested.

ALTER TABLE source ADD COLUMN ctime_ns INTEGER;    -- status-change time: rewriting a file changes it even when mtime is reset
ALTER TABLE source ADD COLUMN inode INTEGER;       -- a file replaced by another (rename over it) has another inode
ALTER TABLE source ADD COLUMN checked_ns INTEGER;  -- wall clock when the file was last read: a file modified as late as this is hashed again (git's racy-timestamp rule)
ALTER TABLE source ADD COLUMN time TEXT;           -- the run time given to runs without their own (RFC 3339 UTC)
ALTER TABLE source ADD COLUMN time_origin TEXT;    -- where that time came from: path | git | mtime
ALTER TABLE source ADD COLUMN git_head TEXT;       -- HEAD when `time` was decided: a new commit can change a file's git time
