//! Review: the diff a researcher reads before accepting regenerated documents.

pub mod cache;
pub mod check;
pub mod claim;
pub mod diff;
pub mod document;
mod evaluate;
pub mod interactive;
pub mod sentence;
pub mod supersede;

use std::path::Path;

use crate::config::Config;
use crate::query::Dataset;
use crate::render;
use crate::store::Store;

/// What reviewing a document needs: the data, reckon.toml and where the
/// document lives. Review is where reckon.toml meets the stages below it:
/// it hands renderers and judges the plain values they read.
pub struct Context<'a, 's> {
    pub dataset: &'a Dataset<'s>,
    pub store: &'s Store,
    pub cfg: &'a Config,
    /// The folder of the document being reviewed (plots are written there).
    pub doc_dir: &'a Path,
    /// What regions and claims evaluated to before, when the command may
    /// take it (`check`): a hit is not evaluated again.
    pub cache: Option<&'a cache::Cache<'s>>,
}

/// The settings regions read, from reckon.toml.
pub fn render_settings(cfg: &Config) -> render::Settings {
    render::Settings {
        series: cfg.series.clone(),
        templates: cfg.root.join("templates"),
        aliases: cfg.aliases.clone(),
        margins: cfg.margins(),
        sql_seconds: cfg.limits.sql_seconds,
        template_fuel: cfg.limits.template_fuel,
        supersede: cfg.claims.supersede,
    }
}
