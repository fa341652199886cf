//! Where a series' curve turns and where two cross: `X bottoms out at 128
//! MB` (`X on M is lowest at P = v`), `X overtakes Y at M=256` (`crossover(X,
//! Y on M over P) = v`; `only overtakes … at saturation` too), `X overtakes
//! every other configuration at M=256` (`crossover(X, others …) = v`), and
//! past a point, `X overtakes Y past 64 clients` (`crossover(X, Y …) > 64
//! and X beats Y for all clients > 64`: beyond it, and ahead everywhere
//! beyond it).

use super::super::vocab::Scope;
use super::words::word;
use super::Clause;
use crate::claims::lang::{
    self, number, Contender, Crossover, Extreme, Name, Op, Opponents, Pairwise, Peak, PointSet, Relation,
};

impl Clause<'_> {
    /// The point the clause's scope names, if it is one.
    fn one_point(&self) -> Option<(String, f64)> {
        let values = |p: &str| self.vocab.param_values.get(p);
        match self.scope.as_ref()? {
            Scope::At(p, v) => Some((p.clone(), *v)),
            Scope::Largest(p) => Some((p.clone(), *values(p)?.last()?)),
            Scope::Smallest(p) => Some((p.clone(), *values(p)?.first()?)),
            _ => None,
        }
    }

    /// `bottoms out at` a point, `overtakes Y at` a point. Whether one was
    /// read.
    pub(super) fn shapes(&mut self) -> bool {
        let c = self.c;
        let at = |w: &[&str]| c.iter().position(|t| word(t).is_some_and(|x| w.contains(&x)));
        if let Some(i) = at(&["bottoms", "bottomed"]) {
            let Some((p, v)) = self.one_point().filter(|_| c.get(i + 1).and_then(word) == Some("out")) else {
                return false;
            };
            let lowest = Peak {
                series: Some(Name::new(&self.subj)),
                metric: Name::new(&self.metric),
                extreme: Extreme::Lowest,
                param: Name::new(&p),
                at: number(v),
            };
            let (cn, cc) = (self.notes.clone(), self.confidence);
            self.push(lang::Clause::new(lowest), false, cc, &cn);
            self.used.extend([i, i + 1]);
            return true;
        }
        if let Some(i) = at(&["overtakes", "overtake", "overtook"]) {
            // Whom it overtakes: the series named, or every other series
            // (`overtakes every other configuration`, right after the verb).
            let others = super::others::phrase(self.vocab, c).filter(|p| p.first() == Some(&(i + 1)));
            let whom = match (&others, &self.object) {
                (None, Some(other)) => Contender::Series(Name::new(other)),
                (Some(_), None) => Contender::Others,
                _ => return false,
            };
            // At a point: the crossover is there. Past one (`past 64
            // clients`): beyond it, and ahead at every point beyond it.
            let (param, op, value, past) = match (self.one_point(), self.scope.as_ref()) {
                (Some((param, value)), _) => (param, Op::Eq, value, None),
                (None, Some(Scope::Range(param, Op::Gt, value))) => {
                    (param.clone(), Op::Gt, *value, self.quantifier.clone())
                }
                _ => return false,
            };
            if op == Op::Gt && past.is_none() {
                return false;
            }
            let crossover = Crossover {
                a: Contender::Series(Name::new(&self.subj)),
                b: whom.clone(),
                metric: Name::new(&self.metric),
                param: Name::new(&param),
                points: PointSet::Every,
                op,
                target: number(value),
            };
            let mut claim = lang::Claim::from(lang::Clause::new(crossover));
            if let Some(q) = past {
                let opponents = match whom {
                    Contender::Series(o) => Opponents::one(&o.text),
                    Contender::Others => Opponents::Others,
                };
                let ahead = Pairwise::new(&self.subj, Relation::Beats, opponents, &self.metric, Some(q));
                claim.clauses.push(lang::Clause::new(ahead));
            }
            let (cn, cc) = (self.notes.clone(), self.confidence);
            self.push(claim, false, cc, &cn);
            self.used.push(i);
            self.used.extend(others.into_iter().flatten());
            // `only overtakes … at saturation`: not before it, as a crossover says.
            if i > 0 && word(&c[i - 1]) == Some("only") {
                self.used.push(i - 1);
            }
            return true;
        }
        false
    }
}
