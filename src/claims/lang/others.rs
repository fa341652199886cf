//! `others` on either side: `others beat A on M …` (every other series is
//! the subject, in the plural the prose writes) and a crossover with
//! `others` for one of its series.

use super::parse::Parser;
use super::{ClaimError, Contender, Crossover, Opponents, Pairwise, Relation};

/// The plural verbs after `others`, longest first, with the relation each
/// means (`others beat A` is `other beats A` for each other series).
const PLURAL: [(&[&str], Relation); 7] = [
    (&["match", "or", "beat"], Relation::MatchesOrBeats),
    (&["beat"], Relation::Beats),
    (&["match"], Relation::Matches),
    (&["lose", "to"], Relation::LosesTo),
    (&["are", "faster", "than"], Relation::Faster),
    (&["are", "slower", "than"], Relation::Slower),
    (&["beats"], Relation::Beats),
];

/// The plural spelling of a relation after `others`.
pub(super) fn plural(relation: Relation) -> &'static str {
    match relation {
        Relation::Beats => "beat",
        Relation::Matches => "match",
        Relation::MatchesOrBeats => "match or beat",
        Relation::LosesTo => "lose to",
        Relation::Faster => "are faster than",
        Relation::Slower => "are slower than",
        Relation::Gt => ">",
        Relation::Ge => ">=",
        Relation::Lt => "<",
        Relation::Le => "<=",
    }
}

impl Parser<'_, '_> {
    /// After `others`: a relation (plural, or the singular and the literal
    /// operators), one series, `on METRIC`.
    pub(super) fn others_first(&mut self) -> Result<Pairwise, ClaimError> {
        let relation = self.plural_relation().or_else(|| self.relation()).ok_or_else(|| {
            self.err(
                "expected `beat`, `match`, `match or beat`, `lose to`, `are faster than` or a comparison after \
                 `others`",
            )
        })?;
        if self.peek_kw("others") {
            return Err(self.err("`others` on both sides compares nothing: name one series"));
        }
        let a = self.series("the series the others are compared with")?;
        if self.next_is(",") {
            return Err(self.err(
                "`others` are compared with one series: write one clause per series (`others beat a on m and \
                 others beat b on m`)",
            ));
        }
        self.expect_kw("on", "`on METRIC` after the series name")?;
        let metric = self.ident("a metric name after `on`")?;
        Ok(Pairwise { a, relation, b: Opponents::Others, metric, quantifier: None, others_first: true })
    }

    fn plural_relation(&mut self) -> Option<Relation> {
        for (words, relation) in PLURAL {
            let save = self.pos;
            if words.iter().all(|w| self.eat_kw(w)) {
                return Some(relation);
            }
            self.pos = save;
        }
        None
    }

    fn next_is(&mut self, s: &str) -> bool {
        self.skip_ws();
        self.rest().starts_with(s)
    }

    fn contender(&mut self, what: &str) -> Result<Contender, ClaimError> {
        if self.eat_kw("others") {
            return Ok(Contender::Others);
        }
        self.series(&format!("{what} (or `others`)")).map(Contender::Series)
    }

    pub(super) fn crossover(&mut self) -> Result<Crossover, ClaimError> {
        self.eat_kw("crossover");
        self.expect("(", "`(` after `crossover`")?;
        self.skip_ws();
        let first = self.pos;
        let a = self.contender("the first series of the crossover")?;
        self.expect(",", "`,` between the two series of the crossover")?;
        let b = self.contender("the second series of the crossover")?;
        if a == Contender::Others && b == Contender::Others {
            return Err(ClaimError::new(
                first,
                "a crossover of `others` with `others` compares nothing: name one series",
            ));
        }
        self.expect_kw("on", "`on METRIC` after the series names")?;
        let metric = self.ident("a metric name after `on`")?;
        self.expect_kw("over", "`over PARAM` after the metric (`over concurrency`)")?;
        let param = self.ident("a param name after `over`")?;
        let points = self.point_set()?;
        self.expect(")", "`)` to close the crossover")?;
        let op = self.num_op().ok_or_else(|| self.err("expected a comparison after the crossover (`= 4`)"))?;
        let target = self.literal("a param value after the comparison")?;
        Ok(Crossover { a, b, metric, param, points, op, target })
    }
}
