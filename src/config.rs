//! `reckon.toml`: where the database is, which logs to ingest, what the
//! series dimension is, how prose names things, and per-metric overrides.
//! Found by walking up from the current folder, as cargo finds Cargo.toml.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::Deserialize;

use crate::ingest::generic::GenericOptions;
use crate::metric::Direction;
use crate::query::Dataset;
use crate::{Error, Result};

pub const FILE_NAME: &str = "reckon.toml";

/// The project configuration, with paths resolved against its folder.
#[derive(Debug, Clone)]
pub struct Config {
    /// The folder holding reckon.toml (or the current folder when there is none).
    pub root: PathBuf,
    /// The reckon.toml that was read, if any.
    pub file: Option<PathBuf>,
    pub database: PathBuf,
    /// The param whose values name the things being compared.
    pub series: String,
    pub sources: Vec<SourceSpec>,
    /// The living documents: globs relative to the root (`notebooks/*.md`),
    /// what `check`, `update` and `claims` read when given no document, and
    /// what the pre-commit hook checks.
    pub documents: Vec<DocumentGlob>,
    /// Words prose uses for a series value or a metric, by canonical name.
    pub aliases: BTreeMap<String, Vec<String>>,
    pub metrics: BTreeMap<String, MetricSpec>,
    pub noise: Noise,
    pub generic: GenericOptions,
    /// Phrases prose uses for points or ranges of a param (`[points]`), e.g.
    /// `"single request" = "max_concurrency = 1"`, `"{n} MB" = "cache_size = {n}"`.
    pub points: BTreeMap<String, String>,
    pub lint: LintSpec,
    pub limits: Limits,
    pub claims: ClaimsSpec,
}

/// How claims are judged (`[claims]`).
#[derive(Debug, Clone, Default, Deserialize, PartialEq)]
#[serde(deny_unknown_fields, default)]
pub struct ClaimsSpec {
    /// After a partial re-sweep: `cell` (each cell its newest sweep, as
    /// tables show it) or `comparison` (a point's older runs superseded only
    /// when its whole comparison was re-run).
    #[serde(deserialize_with = "de_supersede")]
    pub supersede: crate::claims::judge::Supersede,
}

fn de_supersede<'de, D: serde::Deserializer<'de>>(
    d: D,
) -> std::result::Result<crate::claims::judge::Supersede, D::Error> {
    use crate::claims::judge::Supersede;
    let s = String::deserialize(d)?;
    match s.as_str() {
        "cell" => Ok(Supersede::Cell),
        "comparison" => Ok(Supersede::Comparison),
        _ => Err(serde::de::Error::custom(format!("claims.supersede `{s}`: expected `cell` or `comparison`"))),
    }
}

/// One entry of `documents` in reckon.toml: a glob relative to the root,
/// and the line of reckon.toml it is written on (for the error when it
/// matches no file).
#[derive(Debug, Clone, PartialEq)]
pub struct DocumentGlob {
    pub glob: String,
    pub line: usize,
}

/// How `check` treats what `reckon lint` finds in prose (`[lint]`).
#[derive(Debug, Clone, Deserialize, PartialEq)]
#[serde(deny_unknown_fields, default)]
pub struct LintSpec {
    /// `off`: check does not lint; `warn`: findings are warnings; `error`:
    /// contradicted or stale statements fail the check.
    #[serde(deserialize_with = "de_lint_level")]
    pub level: LintLevel,
    /// Statements read with less confidence than this (0 to 1) are left out
    /// of check and of lint's default report.
    pub min_confidence: f64,
}

impl Default for LintSpec {
    fn default() -> Self {
        LintSpec { level: LintLevel::Warn, min_confidence: 0.5 }
    }
}

/// See [`LintSpec::level`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LintLevel {
    Off,
    Warn,
    Error,
}

fn de_lint_level<'de, D: serde::Deserializer<'de>>(d: D) -> std::result::Result<LintLevel, D::Error> {
    let s = String::deserialize(d)?;
    match s.as_str() {
        "off" => Ok(LintLevel::Off),
        "warn" => Ok(LintLevel::Warn),
        "error" => Ok(LintLevel::Error),
        _ => Err(serde::de::Error::custom(format!("lint level `{s}`: expected `off`, `warn` or `error`"))),
    }
}

/// The limits that turn a hostile or runaway document or log into a clear
/// error instead of a hang or an exhausted machine (`[limits]`). Each is
/// raised here when a real project needs more; SECURITY.md lists them.
#[derive(Debug, Clone, Deserialize, PartialEq)]
#[serde(deny_unknown_fields, default)]
pub struct Limits {
    /// Seconds one `sql` region's query may run.
    pub sql_seconds: f64,
    /// Instructions one `template` region may run (minijinja fuel).
    pub template_fuel: u64,
    /// The longest line (or single JSON record) a log may hold, in bytes.
    pub line_bytes: usize,
    /// Seconds a command waits for another process writing to the database.
    pub lock_wait_seconds: f64,
    /// Seconds an ingest's transaction stays open at most: what a kill or a
    /// crash can lose (each file in it whole or absent, read again next time).
    pub commit_seconds: f64,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            sql_seconds: 10.0,
            template_fuel: 5_000_000,
            line_bytes: crate::ingest::limit::DEFAULT_LINE_BYTES,
            lock_wait_seconds: 600.0,
            commit_seconds: 2.0,
        }
    }
}

/// A `[[source]]` entry: a path, glob or path template, with labels.
#[derive(Debug, Clone, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct SourceSpec {
    pub path: String,
    #[serde(default)]
    pub format: Option<String>,
    #[serde(default)]
    pub labels: BTreeMap<String, toml::Value>,
}

/// Refuses a `[[source]]` path that leaves the project: reckon.toml comes
/// with the project (a pull request can change it), so its logs are the
/// project's own. A log elsewhere is named on the command line.
fn check_source_path(path: &str, shown: &Path) -> Result<()> {
    let p = Path::new(path);
    let leaves = p.is_absolute() || p.components().any(|c| c == std::path::Component::ParentDir);
    if !leaves {
        return Ok(());
    }
    Err(Error::Config {
        path: shown.to_path_buf(),
        msg: format!(
            "source `{path}`: a source is a path inside the project, relative to this file's folder and without \
             `..`; to ingest logs from elsewhere, copy them into the project or name them on the command line \
             (reckon ingest PATH)"
        ),
    })
}

/// Per-metric overrides (`[metrics.NAME]`).
#[derive(Debug, Clone, Default, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct MetricSpec {
    #[serde(default, deserialize_with = "de_direction")]
    pub direction: Option<Direction>,
    #[serde(default, deserialize_with = "de_unit")]
    pub unit: Option<String>,
    /// Practical margin δ as a fraction (0.02 = 2%).
    #[serde(default)]
    pub margin: Option<f64>,
}

/// Default margins by metric kind (`[noise]`).
#[derive(Debug, Clone, Deserialize, PartialEq)]
#[serde(deny_unknown_fields, default)]
pub struct Noise {
    pub throughput: f64,
    pub latency: f64,
    pub tail_latency: f64,
    pub other: f64,
}

impl Default for Noise {
    fn default() -> Self {
        Noise { throughput: 0.02, latency: 0.05, tail_latency: 0.10, other: 0.05 }
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawConfig {
    database: Option<PathBuf>,
    series: Option<String>,
    #[serde(default, rename = "source")]
    sources: Vec<SourceSpec>,
    #[serde(default)]
    documents: Vec<toml::Spanned<String>>,
    #[serde(default)]
    aliases: BTreeMap<String, Vec<String>>,
    #[serde(default)]
    metrics: BTreeMap<String, MetricSpec>,
    #[serde(default)]
    noise: Noise,
    #[serde(default)]
    generic: GenericOptions,
    #[serde(default)]
    points: BTreeMap<String, String>,
    #[serde(default)]
    lint: LintSpec,
    #[serde(default)]
    limits: Limits,
    #[serde(default)]
    claims: ClaimsSpec,
}

fn de_direction<'de, D: serde::Deserializer<'de>>(d: D) -> std::result::Result<Option<Direction>, D::Error> {
    let s: Option<String> = Option::deserialize(d)?;
    match s {
        None => Ok(None),
        Some(s) => Direction::parse(&s).map(Some).ok_or_else(|| {
            serde::de::Error::custom(format!("direction `{s}`: expected `higher`, `lower` or `neutral`"))
        }),
    }
}

/// A metric's unit must be one a claim may write after a number
/// ([`crate::metric::is_writable_unit`]): a unit reckon knows, `%`, or a
/// rate of a thing per a time (`ops/s`). Anything else (`bogus`, `msec`)
/// is refused at its line, never kept as a unit no claim could state.
fn de_unit<'de, D: serde::Deserializer<'de>>(d: D) -> std::result::Result<Option<String>, D::Error> {
    let s: Option<String> = Option::deserialize(d)?;
    match s {
        Some(u) if !crate::metric::is_writable_unit(&u) => Err(serde::de::Error::custom(format!(
            "unit `{u}` is not one reckon knows: write a unit of time (ns, us, ms, s, min, h), of size (B, KB, MB, \
             GB, KiB, MiB, GiB), a rate (tok/s, req/s, req/min, B/s, MB/s, …), `%`, or a rate of your own as \
             THING/s (`ops/s`), which a claim writes the same way"
        ))),
        s => Ok(s),
    }
}

/// Each `[points]` entry must read as a point or range of a param (what
/// lint reads a phrase as) that is not a repeat marker, with `{n}` in the
/// value only when the phrase captures one.
fn check_points(points: &BTreeMap<String, String>, shown: &Path) -> Result<()> {
    for (phrase, spec) in points {
        let n = phrase.contains("{n}").then_some(1.0);
        let msg = if spec.contains("{n}") && n.is_none() {
            format!(
                "points.\"{phrase}\" = \"{spec}\": `{{n}}` in the value needs `{{n}}` in the phrase, e.g. \"{{n}} MB\""
            )
        } else if let Some(marker) = crate::lint::vocab::Scope::parse(spec, n)
            .map(|s| s.param().to_string())
            .filter(|p| crate::run::is_repeat_marker(p))
        {
            format!(
                "points.\"{phrase}\" = \"{spec}\": `{marker}` tells repeated runs apart, it is not a point; \
                 name a param the runs are configured by"
            )
        } else if crate::lint::vocab::Scope::parse(spec, n).is_none() {
            format!(
                "points.\"{phrase}\" = \"{spec}\": expected a point or range of a param, e.g. \"max_concurrency = 1\", \
                 \"size >= 4096\", \"c in 2..250\", \"the largest max_concurrency\""
            )
        } else {
            continue;
        };
        return Err(Error::Config { path: shown.to_path_buf(), msg });
    }
    Ok(())
}

impl Config {
    /// What the store takes from `[limits]`: how long its writers wait
    /// for each other and hold a transaction open.
    pub fn store_limits(&self) -> crate::store::Limits {
        let seconds = |s: f64| std::time::Duration::from_secs_f64(s.min(1e9));
        crate::store::Limits {
            lock_wait: seconds(self.limits.lock_wait_seconds),
            commit_every: seconds(self.limits.commit_seconds),
        }
    }

    /// What an ingest takes from reckon.toml: the `[generic]` readers'
    /// overrides and the longest line a log may hold. The rest of the
    /// options are the command's.
    pub fn ingest_options(&self) -> crate::sources::Options {
        crate::sources::Options {
            generic: self.generic.clone(),
            line_bytes: crate::ingest::LineBytes::new(self.limits.line_bytes),
            ..crate::sources::Options::default()
        }
    }

    /// What a query's dataset takes from reckon.toml, as plain values:
    /// the aliases and the per-metric direction and unit.
    pub fn overrides(&self) -> crate::query::Overrides {
        crate::query::Overrides {
            aliases: self.aliases.clone(),
            metrics: self.metrics.iter().map(|(name, m)| (name.clone(), (m.direction, m.unit.clone()))).collect(),
        }
    }

    /// The configuration with no reckon.toml: database under `root/db/`.
    pub fn defaults(root: &Path) -> Config {
        Config {
            root: root.to_path_buf(),
            file: None,
            database: root.join("db").join("reckon.sqlite"),
            series: "config".into(),
            sources: Vec::new(),
            documents: Vec::new(),
            aliases: BTreeMap::new(),
            metrics: BTreeMap::new(),
            noise: Noise::default(),
            generic: GenericOptions::default(),
            points: BTreeMap::new(),
            lint: LintSpec::default(),
            limits: Limits::default(),
            claims: ClaimsSpec::default(),
        }
    }

    /// Finds reckon.toml in `start` or the nearest folder above it and reads
    /// it; without one, the defaults rooted at `start`.
    pub fn discover(start: &Path) -> Result<Config> {
        let mut dir = Some(start);
        while let Some(d) = dir {
            let candidate = d.join(FILE_NAME);
            if candidate.is_file() {
                return Config::load(&candidate);
            }
            dir = d.parent();
        }
        Ok(Config::defaults(start))
    }

    /// Reads one reckon.toml.
    pub fn load(file: &Path) -> Result<Config> {
        let text = std::fs::read_to_string(file).map_err(|e| Error::io(file, e))?;
        let root = file.parent().map(Path::to_path_buf).unwrap_or_default();
        Config::parse(&text, &root, Some(file))
    }

    /// Parses the text of a reckon.toml whose folder is `root`.
    pub fn parse(text: &str, root: &Path, file: Option<&Path>) -> Result<Config> {
        let shown = file.map_or_else(|| PathBuf::from(FILE_NAME), Path::to_path_buf);
        let raw: RawConfig = toml::from_str(text).map_err(|e| {
            let msg = e.message().to_string();
            let Some(span) = e.span() else { return Error::Config { path: shown.clone(), msg } };
            let (line, col) = crate::syntax::line_col(text, span.start);
            Error::ConfigAt { path: shown.clone(), line, col: Some(col), msg }
        })?;
        let mut cfg = Config::defaults(root);
        cfg.file = file.map(Path::to_path_buf);
        if let Some(db) = raw.database {
            cfg.database = root.join(db);
        }
        if let Some(series) = raw.series {
            cfg.series = series;
        }
        for (name, spec) in &raw.metrics {
            if let Some(m) = spec.margin {
                if !(0.0..1.0).contains(&m) {
                    return Err(Error::Config {
                        path: shown,
                        msg: format!("metrics.{name}.margin = {m}: expected a fraction between 0 and 1 (0.02 = 2%)"),
                    });
                }
            }
        }
        for d in &raw.documents {
            let (glob, at) = (d.get_ref(), d.span().start);
            if let Err(e) = glob::Pattern::new(glob) {
                return Err(Error::Config { path: shown, msg: format!("documents: `{glob}` is not a glob: {e}") });
            }
            let line = text[..at].matches('\n').count() + 1;
            cfg.documents.push(DocumentGlob { glob: glob.clone(), line });
        }
        for source in &raw.sources {
            check_source_path(&source.path, &shown)?;
        }
        cfg.sources = raw.sources;
        cfg.aliases = raw.aliases;
        cfg.metrics = raw.metrics;
        cfg.noise = raw.noise;
        cfg.generic = raw.generic;
        if !(0.0..=1.0).contains(&raw.lint.min_confidence) {
            return Err(Error::Config {
                path: shown,
                msg: format!("lint.min_confidence = {}: expected a number from 0 to 1", raw.lint.min_confidence),
            });
        }
        check_points(&raw.points, &shown)?;
        cfg.points = raw.points;
        cfg.lint = raw.lint;
        if raw.limits.sql_seconds.is_nan()
            || raw.limits.sql_seconds <= 0.0
            || raw.limits.template_fuel == 0
            || raw.limits.line_bytes == 0
            || raw.limits.lock_wait_seconds.is_nan()
            || raw.limits.lock_wait_seconds <= 0.0
            || raw.limits.commit_seconds.is_nan()
            || raw.limits.commit_seconds <= 0.0
        {
            return Err(Error::Config {
                path: shown,
                msg: "[limits]: every limit must be positive \
                     (sql_seconds, template_fuel, line_bytes, lock_wait_seconds, commit_seconds)"
                    .into(),
            });
        }
        cfg.limits = raw.limits;
        cfg.claims = raw.claims;
        Ok(cfg)
    }

    /// A path as written in the config or on the command line, relative to
    /// the project root when it is not absolute.
    pub fn resolve(&self, path: &str) -> PathBuf {
        let p = Path::new(path);
        if p.is_absolute() {
            p.to_path_buf()
        } else {
            self.root.join(p)
        }
    }

    /// The configured documents, sorted, each once (absolute). A glob that
    /// matches no file is an error at its line of reckon.toml: a typo
    /// (`notebook/*.md`) would otherwise check nothing and pass.
    pub fn document_paths(&self) -> Result<Vec<PathBuf>> {
        let mut out = Vec::new();
        let shown = self.file.clone().unwrap_or_else(|| PathBuf::from(FILE_NAME));
        for DocumentGlob { glob, line } in &self.documents {
            let pattern = self.resolve(glob).to_string_lossy().into_owned();
            let paths = glob::glob(&pattern).map_err(|e| Error::Config {
                path: shown.clone(),
                msg: format!("documents: `{glob}` is not a glob: {e}"),
            })?;
            let before = out.len();
            out.extend(paths.filter_map(std::result::Result::ok).filter(|p| p.is_file()));
            if out.len() == before {
                return Err(Error::ConfigAt {
                    path: shown.clone(),
                    line: *line,
                    col: None,
                    msg: format!(
                        "documents: `{glob}` matches no file (globs are relative to this file's folder), \
                         so nothing would be checked; correct the glob, or write the document it names"
                    ),
                });
            }
        }
        out.sort();
        out.dedup();
        Ok(out)
    }

    /// Whether a path relative to the root is one of the documents (it
    /// need not exist).
    pub fn is_document(&self, rel: &str) -> bool {
        let opts = glob::MatchOptions { require_literal_separator: true, ..Default::default() };
        self.documents.iter().any(|d| glob::Pattern::new(&d.glob).is_ok_and(|p| p.matches_with(rel, opts)))
    }

    /// What lint needs of this configuration, for the metrics of `dataset`:
    /// the series param, aliases, `[points]`, and each metric's unit
    /// (reckon.toml's, else the stored one, else read from its name),
    /// direction and margin.
    pub fn lint_options(&self, dataset: &Dataset) -> crate::lint::Options {
        let metrics = dataset
            .metrics()
            .map(|m| {
                let unit = self
                    .metrics
                    .get(&m.name)
                    .and_then(|s| s.unit.clone())
                    .or_else(|| m.unit.clone())
                    .or_else(|| crate::metric::unit_from_name(&m.name).map(str::to_string));
                let direction = self.direction(&m.name, m.direction);
                let margin = self.margin(&m.name, direction);
                (m.name.clone(), crate::lint::MetricRule { unit, direction, margin })
            })
            .collect();
        crate::lint::Options {
            series: self.series.clone(),
            aliases: self.aliases.clone(),
            points: self.points.clone(),
            metrics,
            judging: self.judging(),
        }
    }

    /// A linter over `dataset` as this project reads its prose.
    pub fn linter<'a, 's>(&'a self, dataset: &'a Dataset<'s>) -> crate::lint::Linter<'a, 's> {
        crate::lint::Linter::new(dataset, &self.lint_options(dataset))
    }

    /// The metric's direction: reckon.toml first, then what the store holds.
    pub fn direction(&self, metric: &str, stored: Direction) -> Direction {
        self.metrics.get(metric).and_then(|m| m.direction).unwrap_or(stored)
    }

    /// The practical margin δ for a metric: reckon.toml's per-metric value,
    /// else the default for its kind.
    pub fn margin(&self, metric: &str, direction: Direction) -> f64 {
        // Without collecting the per-metric map: judges ask once per clause.
        match self.metrics.get(metric).and_then(|m| m.margin) {
            Some(m) => m,
            None => self.kind_margins().of(metric, direction),
        }
    }

    /// The practical margins δ as a plain value for the stages below
    /// reckon.toml: per-metric values and `[noise]`'s default per kind.
    pub fn margins(&self) -> crate::metric::Margins {
        let by_metric = self.metrics.iter().filter_map(|(name, m)| Some((name.clone(), m.margin?))).collect();
        crate::metric::Margins { by_metric, ..self.kind_margins() }
    }

    fn kind_margins(&self) -> crate::metric::Margins {
        crate::metric::Margins {
            by_metric: BTreeMap::new(),
            throughput: self.noise.throughput,
            latency: self.noise.latency,
            tail_latency: self.noise.tail_latency,
            other: self.noise.other,
        }
    }

    /// What the claim judge needs of this file, as plain values.
    pub fn judging(&self) -> crate::claims::judge::Settings {
        crate::claims::judge::Settings {
            series: self.series.clone(),
            margins: self.margins(),
            supersede: self.claims.supersede,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_a_full_config() {
        let text = r#"
database = "data/r.sqlite"
series = "variant"

[[source]]
path = "logs/{date}/{config}.jsonl"
labels = { model = "kimi-k2.5" }

[aliases]
"eagle-topk1-v2" = ["topk=1+v2"]

[metrics.output_throughput]
direction = "higher"
margin = 0.03

[noise]
latency = 0.06
"#;
        let cfg = Config::parse(text, Path::new("/p"), None).unwrap();
        assert_eq!(cfg.database, Path::new("/p/data/r.sqlite"));
        assert_eq!(cfg.series, "variant");
        assert_eq!(cfg.sources[0].path, "logs/{date}/{config}.jsonl");
        assert_eq!(cfg.margin("output_throughput", Direction::Higher), 0.03);
        assert_eq!(cfg.margin("mean_ttft_ms", Direction::Lower), 0.06);
        assert_eq!(cfg.margin("p99_ttft_ms", Direction::Lower), 0.10);
        assert_eq!(cfg.aliases["eagle-topk1-v2"], vec!["topk=1+v2".to_string()]);
    }

    #[test]
    fn documents_are_globs_under_the_root() {
        let dir = tempfile::tempdir().unwrap();
        for f in ["notebooks/a.md", "notebooks/b.md", "notebooks/deep/c.md", "README.md"] {
            std::fs::create_dir_all(dir.path().join(f).parent().unwrap()).unwrap();
            std::fs::write(dir.path().join(f), "x").unwrap();
        }
        let cfg = Config::parse("documents = [\"notebooks/*.md\", \"notebooks/a.md\"]\n", dir.path(), None).unwrap();
        let docs = cfg.document_paths().unwrap();
        assert_eq!(docs, vec![dir.path().join("notebooks/a.md"), dir.path().join("notebooks/b.md")]);
        assert!(cfg.is_document("notebooks/new.md"));
        assert!(!cfg.is_document("notebooks/deep/c.md"), "`*` stays within a folder");
        assert!(!cfg.is_document("README.md"));
        let err = Config::parse("documents = [\"notebooks/[.md\"]\n", dir.path(), None).unwrap_err();
        assert!(err.to_string().contains("not a glob"), "{err}");
        // Each glob must match: the error names the one that does not, at its line.
        let text = "series = \"config\"\ndocuments = [\n  \"notebooks/*.md\",\n  \"notebook/*.md\",\n]\n";
        let cfg = Config::parse(text, dir.path(), None).unwrap();
        assert_eq!(cfg.documents.iter().map(|d| d.line).collect::<Vec<_>>(), [3, 4]);
        let err = cfg.document_paths().unwrap_err().to_string();
        assert!(err.starts_with("reckon.toml:4: documents: `notebook/*.md` matches no file"), "{err}");
    }

    #[test]
    fn points_and_lint() {
        let cfg = Config::parse(
            "[points]\n\"single request\" = \"c = 1\"\n\"{n} MB\" = \"cache = {n}\"\n\
             [lint]\nlevel = \"error\"\nmin_confidence = 0.7\n",
            Path::new("/p"),
            None,
        )
        .unwrap();
        assert_eq!(cfg.points.len(), 2);
        assert_eq!(cfg.lint, LintSpec { level: LintLevel::Error, min_confidence: 0.7 });
        assert_eq!(Config::parse("", Path::new("/p"), None).unwrap().lint.level, LintLevel::Warn);
        let err = Config::parse("[points]\n\"busy\" = \"very busy\"\n", Path::new("/p"), None).unwrap_err().to_string();
        assert!(err.contains("points.\"busy\"") && err.contains("expected a point"), "{err}");
        let err = Config::parse("[points]\n\"busy\" = \"c = {n}\"\n", Path::new("/p"), None).unwrap_err().to_string();
        assert!(err.contains("needs `{n}` in the phrase"), "{err}");
        let err = Config::parse("[points]\n\"third try\" = \"trial = 3\"\n", Path::new("/p"), None).unwrap_err();
        assert!(err.to_string().contains("`trial` tells repeated runs apart"), "{err}");
        let err = Config::parse("[lint]\nmin_confidence = 3\n", Path::new("/p"), None).unwrap_err().to_string();
        assert!(err.contains("min_confidence"), "{err}");
    }

    #[test]
    fn errors_point_at_the_line() {
        let err = Config::parse("series = \"a\"\n[metrics.x]\ndirection = \"sideways\"\n", Path::new("/p"), None)
            .unwrap_err()
            .to_string();
        assert!(err.starts_with("reckon.toml:3:"), "{err}");
        assert!(err.contains("sideways"), "{err}");
        let err = Config::parse("sources = 1\n", Path::new("/p"), None).unwrap_err().to_string();
        assert!(err.contains("unknown field"), "{err}");
        // Columns count characters, and a byte-order mark is not one.
        for text in ["series = 1\n", "\u{feff}series = 1\n", "\u{feff}s\u{e9}ries = 1\n"] {
            let err = Config::parse(text, Path::new("/p"), None).unwrap_err().to_string();
            let col = if text.contains('\u{e9}') { "reckon.toml:1:2:" } else { "reckon.toml:1:10:" };
            assert!(err.starts_with(col), "{text:?}: {err}");
        }
    }
}
