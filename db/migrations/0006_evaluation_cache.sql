-- reckon schema, version 6: a check of an unchanged project evaluates only
-- what changed. `data_generation` holds one number that moves whenever the
-- data a region or claim reads move; `evaluation_cache` keeps what each
-- region and claim last evaluated to, keyed by a digest of its arguments,
-- the settings, the document, reckon's version and the generation. Both are
-- a cache: deleting them (or the database) changes no answer.
--
-- The generation is moved by triggers, so no write path can forget it. Every
-- run and measurement belongs to a source and is written or deleted with its
-- source's row (`sources::delete_path`, the writer's `begin_source`), so the
-- per-source rows below cover them without a trigger per run or value. A
-- re-check that only refreshes a source's stat (size, mtime, ctime, inode,
-- checked_ns, git_head) changes no data and does not move it.

CREATE TABLE data_generation (
    id     INTEGER PRIMARY KEY CHECK (id = 1),
    value  INTEGER NOT NULL
);
INSERT INTO data_generation (id, value) VALUES (1, 0);

CREATE TABLE evaluation_cache (
    key         BLOB PRIMARY KEY,        -- blake3 of what decides the outcome, the generation included
    generation  INTEGER NOT NULL,        -- the generation it was evaluated at: rows of older ones are pruned
    outcome     BLOB NOT NULL            -- the outcome, encoded by review::cache
) WITHOUT ROWID;

CREATE TRIGGER source_added AFTER INSERT ON source
    BEGIN UPDATE data_generation SET value = value + 1; END;
CREATE TRIGGER source_gone AFTER DELETE ON source
    BEGIN UPDATE data_generation SET value = value + 1; END;
CREATE TRIGGER source_changed AFTER UPDATE ON source
    WHEN OLD.id IS NOT NEW.id OR OLD.path IS NOT NEW.path OR OLD.hash IS NOT NEW.hash
      OR OLD.format IS NOT NEW.format OR OLD.batch_id IS NOT NEW.batch_id OR OLD.labels IS NOT NEW.labels
      OR OLD.time IS NOT NEW.time OR OLD.time_origin IS NOT NEW.time_origin
    BEGIN UPDATE data_generation SET value = value + 1; END;

-- A run's time follows its source's (`refresh_source`); said here too, so a
-- run's time cannot move alone.
CREATE TRIGGER run_changed AFTER UPDATE ON run
    WHEN OLD.id IS NOT NEW.id OR OLD.source_id IS NOT NEW.source_id OR OLD.line IS NOT NEW.line
      OR OLD.time IS NOT NEW.time OR OLD.time_origin IS NOT NEW.time_origin OR OLD.sweep IS NOT NEW.sweep
      OR OLD.param_set_id IS NOT NEW.param_set_id
    BEGIN UPDATE data_generation SET value = value + 1; END;

-- Units settle as sources come and go (`store::units`).
CREATE TRIGGER metric_added AFTER INSERT ON metric
    BEGIN UPDATE data_generation SET value = value + 1; END;
CREATE TRIGGER metric_gone AFTER DELETE ON metric
    BEGIN UPDATE data_generation SET value = value + 1; END;
CREATE TRIGGER metric_changed AFTER UPDATE ON metric
    WHEN OLD.id IS NOT NEW.id OR OLD.name IS NOT NEW.name OR OLD.unit IS NOT NEW.unit
      OR OLD.direction IS NOT NEW.direction
    BEGIN UPDATE data_generation SET value = value + 1; END;
CREATE TRIGGER source_metric_added AFTER INSERT ON source_metric
    BEGIN UPDATE data_generation SET value = value + 1; END;
CREATE TRIGGER source_metric_gone AFTER DELETE ON source_metric
    BEGIN UPDATE data_generation SET value = value + 1; END;
CREATE TRIGGER source_metric_changed AFTER UPDATE ON source_metric
    WHEN OLD.metric_id IS NOT NEW.metric_id OR OLD.source_id IS NOT NEW.source_id OR OLD.unit IS NOT NEW.unit
      OR OLD.times IS NOT NEW.times OR OLD.over IS NOT NEW.over
    BEGIN UPDATE data_generation SET value = value + 1; END;

CREATE TRIGGER param_set_added AFTER INSERT ON param_set
    BEGIN UPDATE data_generation SET value = value + 1; END;
CREATE TRIGGER param_set_gone AFTER DELETE ON param_set
    BEGIN UPDATE data_generation SET value = value + 1; END;
CREATE TRIGGER param_set_changed AFTER UPDATE ON param_set
    WHEN OLD.id IS NOT NEW.id OR OLD.params IS NOT NEW.params
    BEGIN UPDATE data_generation SET value = value + 1; END;
