-- reckon schema, version 7: the data generation is moved by the rows a
-- log's data hang from — `source`, `metric`, a run's own row — and no
-- longer by `source_metric` and `param_set` as well. Every change of those
-- two comes with a change of a source row (or a metric's unit) in the same
-- transaction, which already moves the generation:
--   * a source's `source_metric` rows are inserted as the source is
--     (the writer's `begin_source`) and deleted as it goes (`forget_sources`);
--     their conversion factors change only when their metric's unit does,
--     which `metric_changed` follows;
--   * a param set is inserted only for a run a new source brings, and
--     deleted only when no run uses it any more (`delete_orphans`, after a
--     source went) — a param set with no run is read by nothing.
-- Their triggers fired about six times per small log (one per metric and
-- per new param set), an ingest of 30,000 small logs 10% slower than before
-- the generation.

DROP TRIGGER source_metric_added;
DROP TRIGGER source_metric_gone;
DROP TRIGGER source_metric_changed;
DROP TRIGGER param_set_added;
DROP TRIGGER param_set_gone;
DROP TRIGGER param_set_changed;
