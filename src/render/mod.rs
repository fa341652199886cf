//! Rendering generated regions: tables, inline values, plots, SQL results, templates.

pub mod plot;
