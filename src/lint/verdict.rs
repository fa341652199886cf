//! Judging what prose was read as: one claim-engine judgement per distinct
//! statement (and date), now or as of a history date, and the telling of a
//! stale number from a wrong one. [`Linter::verdict`] is the one place lint
//! asks the claim engine for a verdict.

use super::read::Reading;
use super::{Finding, Linter, Status};
use crate::claims::judge::Judge;
use crate::claims::{lang, Verdict};

/// A verdict with its evidence, or why the statement could not be judged.
pub(super) type VerdictOrWhy = std::result::Result<(Verdict, String), String>;

impl Linter<'_, '_> {
    /// Judges a reading now (or as of a history date), and tells a stale
    /// number from a wrong one.
    pub(super) fn judge(&self, f: &mut Finding, r: &Reading, as_of: Option<&str>) {
        let (verdict, summary) = match self.verdict(&r.statement, as_of) {
            Ok(v) => v,
            Err(msg) => {
                f.status = Status::Unjudged;
                f.summary = match &r.unplaced {
                    // The claim language's advice (`at p = …`) does not
                    // help prose that names its point in words.
                    Some(p) => format!(
                        "{msg}. The sentence names no point reckon can find: if words in it name one, add them to \
                         [points] in reckon.toml (`\"<those words>\" = \"{p} = …\"`)"
                    ),
                    None => msg,
                };
                return;
            }
        };
        f.verdict = Some(verdict);
        f.summary = summary;
        f.status = match verdict {
            Verdict::Holds => Status::Holds,
            Verdict::Inconclusive => Status::Inconclusive,
            Verdict::NoData => Status::NoData,
            Verdict::Contradicted => Status::Contradicted,
        };
        if let Some(d) = as_of {
            f.as_of = Some(d.to_string());
            if verdict == Verdict::Contradicted {
                f.summary = format!("as of {d} (the date it is written under): {}", f.summary);
            } else {
                f.status = Status::History;
            }
            return;
        }
        // Stale: right with the data as they stood before the newest sweep
        // — it held, or they were within noise of it (not contradicted, not
        // without data). One more judgement, only for contradicted numbers.
        if verdict == Verdict::Contradicted && r.number {
            if let Some(before) = self.sweeps().len().checked_sub(2).map(|i| &self.sweeps()[i]) {
                if let Ok((Verdict::Holds | Verdict::Inconclusive, _)) = self.verdict(&r.statement, Some(before)) {
                    f.status = Status::Stale;
                    f.held_as_of = Some(before.clone());
                }
            }
        }
    }

    /// The verdict of a statement in the claim language, as of a date (the
    /// newest data when `None`), judged once per linter.
    pub(super) fn verdict(&self, statement: &str, as_of: Option<&str>) -> VerdictOrWhy {
        let key = (statement.to_string(), as_of.map(str::to_string));
        if let Some(v) = self.judged.borrow().get(&key) {
            return v.clone();
        }
        let v = self.judge_statement(statement, as_of);
        self.judged.borrow_mut().insert(key, v.clone());
        v
    }

    fn judge_statement(&self, statement: &str, as_of: Option<&str>) -> VerdictOrWhy {
        let claim =
            lang::parse(statement).map_err(|e| format!("not a claim reckon can read ({}): {statement}", e.msg))?;
        let mut judge = Judge::new(self.dataset, &self.judging);
        judge.as_of = as_of.map(str::to_string);
        let (verdict, clauses) = judge.claim(&claim).map_err(|e| e.msg)?;
        let summary = match clauses.as_slice() {
            [one] => one.summary.clone(),
            _ => format!(
                "{verdict}: {}",
                clauses.iter().map(|c| format!("[{}] {}", c.statement, c.summary)).collect::<Vec<_>>().join("; ")
            ),
        };
        Ok((verdict, summary))
    }
}
