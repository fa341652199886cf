-- reckon schema, version 5: a metric's unit does not depend on the order its
-- logs were ingested in. Before, the first log to give a metric fixed the unit
-- it was stored in and later logs' values were converted into it (criterion's
-- `mean` in ns then hyperfine's in s stored `mean` in ns; the other order in
-- s). Now each source keeps its values of a metric as its log gave them, in
-- the unit its log gave (`source_metric.unit`); the metric's unit
-- (`metric.unit`) is the finest of its sources' units, and `times` / `over`
-- turn a source's values into it — value * times / over, one of the two 1 —
-- so each value is converted once, from what its log wrote, whatever the order.

CREATE TABLE source_metric (
    metric_id  INTEGER NOT NULL REFERENCES metric(id),
    source_id  INTEGER NOT NULL REFERENCES source(id),
    unit       TEXT,                     -- the unit this source's values of the metric are stored in
    times      REAL NOT NULL DEFAULT 1,  -- a stored value in the metric's unit is value * times / over
    over       REAL NOT NULL DEFAULT 1,
    PRIMARY KEY (metric_id, source_id)
) WITHOUT ROWID;

CREATE INDEX source_metric_source ON source_metric(source_id);

-- What an earlier reckon stored is in the metric's unit already...
INSERT INTO source_metric (metric_id, source_id, unit)
    SELECT DISTINCT m.metric_id, run.source_id, metric.unit
    FROM measurement m JOIN run ON run.id = m.run_id JOIN metric ON metric.id = m.metric_id;

-- ...but in whichever unit the first log gave, with the later logs' values
-- converted into it: every source is read again by the next ingest that
-- covers it (no stored hash or time matches a file), so the database comes
-- to hold what one built afresh from the logs would.
UPDATE source SET hash = '', mtime_ns = NULL, ctime_ns = NULL, inode = NULL, checked_ns = NULL;

-- The values of `reckon:sql` regions and ad-hoc queries, in the metric's unit.
DROP VIEW run_metric;
CREATE VIEW run_metric AS
    SELECT measurement.run_id AS run_id, metric.name AS metric,
           measurement.value * source_metric.times / source_metric.over AS value,
           metric.unit AS unit, metric.direction AS direction
    FROM measurement
    JOIN metric ON metric.id = measurement.metric_id
    JOIN run ON run.id = measurement.run_id
    JOIN source_metric ON source_metric.metric_id = measurement.metric_id
                      AND source_metric.source_id = run.source_id;
