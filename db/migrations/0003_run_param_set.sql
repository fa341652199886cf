-- reckon schema, version 3: a query reads the runs of the param sets its
-- filter can pass (a table of one model reads a few of many configurations),
-- and which sets some run has, without scanning every run.

CREATE INDEX run_param_set ON run(param_set_id);
