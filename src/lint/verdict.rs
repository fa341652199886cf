//! Judging what prose was read as: one claim-engine judgement per distinct
//! claim (and date), now or as of a history date, and the telling of a
//! stale number from a wrong one. [`Linter::verdict`] is the one place lint
//! asks the claim engine for a verdict.

use super::read::Reading;
use super::{Finding, Linter, Status};
use crate::claims::judge::{claim_summary, Clauses, Judge};
use crate::claims::lang::Claim;
use crate::claims::Verdict;

/// A verdict with its evidence, or why the statement could not be judged.
pub(super) type VerdictOrWhy = std::result::Result<(Verdict, String), String>;

impl Linter<'_, '_> {
    /// Judges a reading now (or as of a history date), and tells a stale
    /// number from a wrong one.
    pub(super) fn judge(&self, f: &mut Finding, r: &Reading, as_of: Option<&str>) {
        let (verdict, summary) = match self.verdict(&r.claim, as_of) {
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
                if let Ok((Verdict::Holds | Verdict::Inconclusive, _)) = self.verdict(&r.claim, Some(before)) {
                    f.status = Status::Stale;
                    f.held_as_of = Some(before.clone());
                }
            }
        }
    }

    /// The verdict of a claim, as of a date (the newest data when `None`),
    /// judged once per linter (keyed by the claim as printed: its
    /// canonical form names it).
    pub(super) fn verdict(&self, claim: &Claim, as_of: Option<&str>) -> VerdictOrWhy {
        let key = (claim.to_string(), as_of.map(str::to_string));
        if let Some(v) = self.judged.borrow().get(&key) {
            return v.clone();
        }
        let v = self.judge_claim(claim, as_of);
        self.judged.borrow_mut().insert(key, v.clone());
        v
    }

    fn judge_claim(&self, claim: &Claim, as_of: Option<&str>) -> VerdictOrWhy {
        let mut judge = Judge::new(self.dataset, &self.judging);
        judge.as_of = as_of.map(str::to_string);
        let (verdict, clauses) = judge.claim(claim).map_err(|e| e.msg)?;
        Ok((verdict, claim_summary(verdict, &clauses, Clauses::InLine)))
    }
}
