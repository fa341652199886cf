//! The one place where a name as a researcher writes it — in a claim, a
//! region argument, `reckon query --metric/--rows/--cols` or a `--where`
//! filter — becomes the name the data use: the name itself when the data
//! hold it, else the canonical name reckon.toml's `[aliases]` give it
//! (`tok/s` → `output_throughput`, `topk=1+v2` → `eagle-topk1-v2`).
//! [`crate::query::Dataset`] applies it for every metric, param and param
//! value it is asked about, so no caller resolves names on its own.

use std::collections::BTreeMap;

/// The words prose uses for metrics, params and param values, by canonical
/// name (reckon.toml's `[aliases]`).
#[derive(Debug, Clone, Default)]
pub struct Aliases {
    /// (word, canonical name), in reckon.toml's order.
    words: Vec<(String, String)>,
}

/// What a written name stands for in one role (a metric, a param, a value
/// of some param).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Resolution {
    /// The name the data use.
    Found(String),
    /// An alias of several names the data hold in this role.
    Ambiguous(Vec<String>),
    /// An alias of names the data do not hold (in this role or at all).
    AliasOf(Vec<String>),
    /// Neither a name the data hold nor an alias.
    Unknown,
}

impl Aliases {
    pub fn new(map: &BTreeMap<String, Vec<String>>) -> Aliases {
        let words = map.iter().flat_map(|(canonical, words)| words.iter().map(|w| (w.clone(), canonical.clone())));
        Aliases { words: words.collect() }
    }

    pub fn is_empty(&self) -> bool {
        self.words.is_empty()
    }

    /// The canonical names `word` is an alias of (letter case ignored, as
    /// prose capitalises freely), each once.
    pub(crate) fn canonicals(&self, word: &str) -> Vec<&str> {
        let mut out: Vec<&str> = Vec::new();
        for (w, c) in &self.words {
            if w.eq_ignore_ascii_case(word) && !out.contains(&c.as_str()) {
                out.push(c);
            }
        }
        out
    }

    /// The alias words of the canonical names `known` accepts, for "did you
    /// mean" suggestions.
    pub fn words_for<'a>(&'a self, known: impl Fn(&str) -> bool + 'a) -> impl Iterator<Item = &'a str> + 'a {
        self.words.iter().filter(move |(_, c)| known(c)).map(|(w, _)| w.as_str())
    }

    /// What `word` names in a role whose names `known` accepts: itself when
    /// known, else the one known canonical name it is an alias of.
    pub fn resolve(&self, word: &str, known: impl Fn(&str) -> bool) -> Resolution {
        if known(word) {
            return Resolution::Found(word.to_string());
        }
        let all = self.canonicals(word);
        let held: Vec<String> = all.iter().filter(|c| known(c)).map(std::string::ToString::to_string).collect();
        match held.len() {
            1 => Resolution::Found(held.into_iter().next().unwrap_or_default()),
            0 if all.is_empty() => Resolution::Unknown,
            0 => Resolution::AliasOf(all.iter().map(std::string::ToString::to_string).collect()),
            _ => Resolution::Ambiguous(held),
        }
    }
}

/// The message for an alias that stands for several names; `what` says
/// what they are, in the plural (`metrics`, ``values of `config` ``).
pub fn ambiguous(word: &str, what: &str, candidates: &[String]) -> String {
    let list: Vec<String> = candidates.iter().map(|c| format!("`{c}`")).collect();
    format!(
        "`{word}` is ambiguous: reckon.toml's [aliases] give it to several {what} ({}); write the one you mean",
        list.join(", ")
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn aliases() -> Aliases {
        let mut map = BTreeMap::new();
        map.insert("eagle-topk1-v2".to_string(), vec!["topk=1+v2".to_string(), "EAGLE".to_string()]);
        map.insert("eagle-topk4-v1".to_string(), vec!["topk=4+v1".to_string(), "eagle".to_string()]);
        map.insert("output_throughput".to_string(), vec!["tok/s".to_string()]);
        Aliases::new(&map)
    }

    #[test]
    fn names_resolve_to_what_the_data_hold() {
        let a = aliases();
        let series = |n: &str| ["baseline", "eagle-topk1-v2", "eagle-topk4-v1"].contains(&n);
        assert_eq!(a.resolve("baseline", series), Resolution::Found("baseline".into()));
        assert_eq!(a.resolve("TOPK=1+v2", series), Resolution::Found("eagle-topk1-v2".into()));
        assert_eq!(
            a.resolve("Eagle", series),
            Resolution::Ambiguous(vec!["eagle-topk1-v2".into(), "eagle-topk4-v1".into()])
        );
        // Only one of the two is held: no ambiguity in the data.
        assert_eq!(a.resolve("eagle", |n| n == "eagle-topk4-v1"), Resolution::Found("eagle-topk4-v1".into()));
        assert_eq!(a.resolve("tok/s", series), Resolution::AliasOf(vec!["output_throughput".into()]));
        assert_eq!(a.resolve("nothing", series), Resolution::Unknown);
        let words: Vec<&str> = a.words_for(|c| c == "output_throughput").collect();
        assert_eq!(words, ["tok/s"]);
    }
}
