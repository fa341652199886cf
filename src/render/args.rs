//! A region's arguments as the renderers see them, and the error a renderer
//! returns: which argument is wrong (so the caller can point at it in the
//! document) and why.

use std::cell::RefCell;
use std::collections::BTreeSet;

/// A problem with a region, tied to one of its arguments when there is one.
#[derive(Debug, Clone, PartialEq)]
pub struct RegionError {
    pub arg: Option<String>,
    pub msg: String,
}

impl RegionError {
    pub fn new(arg: Option<&str>, msg: impl Into<String>) -> Self {
        RegionError { arg: arg.map(str::to_string), msg: msg.into() }
    }
}

impl std::fmt::Display for RegionError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.msg)
    }
}

/// `key=value` arguments of a directive, in order.
#[derive(Debug, Clone, Default)]
pub struct Args {
    pairs: Vec<(String, String)>,
    used: RefCell<BTreeSet<String>>,
}

impl Args {
    pub fn new(pairs: Vec<(String, String)>) -> Args {
        Args { pairs, used: RefCell::default() }
    }

    pub fn pairs(&self) -> &[(String, String)] {
        &self.pairs
    }

    pub fn get(&self, key: &str) -> Option<&str> {
        self.pairs.iter().find(|(k, _)| k == key).map(|(_, v)| v.as_str())
    }

    pub fn required(&self, key: &str) -> Result<&str, RegionError> {
        self.get(key).ok_or_else(|| RegionError::new(None, format!("missing argument `{key}=`")))
    }

    /// A comma-separated list (`rows=a,b`), empty when absent.
    pub fn list(&self, key: &str) -> Vec<String> {
        self.get(key)
            .map(|v| v.split(',').map(|s| s.trim().to_string()).filter(|s| !s.is_empty()).collect())
            .unwrap_or_default()
    }

    pub fn usize(&self, key: &str) -> Result<Option<usize>, RegionError> {
        self.get(key)
            .map(|v| {
                v.parse::<usize>().map_err(|_| {
                    RegionError::new(
                        Some(key),
                        format!("{key}=`{}`: expected a whole number", crate::syntax::excerpt(v)),
                    )
                })
            })
            .transpose()
    }

    pub fn flag(&self, key: &str) -> Result<bool, RegionError> {
        match self.get(key) {
            None | Some("false" | "no") => Ok(false),
            Some("true" | "yes" | "") => Ok(true),
            Some(v) => Err(RegionError::new(
                Some(key),
                format!("{key}=`{}`: expected true or false", crate::syntax::excerpt(v)),
            )),
        }
    }

    /// Refuses an argument outside `known`, naming the closest known one.
    pub fn allow(&self, known: &[&str]) -> Result<(), RegionError> {
        for (k, _) in &self.pairs {
            if !known.contains(&k.as_str()) {
                let hint = crate::query::did_you_mean(k, known.iter().copied())
                    .map(|s| format!(" (did you mean `{s}`?)"))
                    .unwrap_or_default();
                return Err(RegionError::new(
                    Some(k),
                    format!(
                        "unknown argument `{}`{hint}; this region takes: {}",
                        crate::syntax::excerpt(k),
                        known.join(", ")
                    ),
                ));
            }
        }
        self.used.borrow_mut().extend(known.iter().map(std::string::ToString::to_string));
        Ok(())
    }
}
