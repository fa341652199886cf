//! Where a series' curve turns and where two cross: `X bottoms out at 128
//! MB` (`X on M is lowest at P = v`), `X overtakes Y at M=256` (`crossover(X,
//! Y on M over P) = v`; `only overtakes … at saturation` too).

use super::super::vocab::Scope;
use super::words::word;
use super::Clause;
use crate::claims::lang::{self, number, Contender, Crossover, Extreme, Name, Op, Peak, PointSet};

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
            let Some((p, v)) = self.one_point() else { return false };
            let Some(other) = self.object.clone() else { return false };
            let crossover = Crossover {
                a: Contender::Series(Name::new(&self.subj)),
                b: Contender::Series(Name::new(&other)),
                metric: Name::new(&self.metric),
                param: Name::new(&p),
                points: PointSet::Every,
                op: Op::Eq,
                target: number(v),
            };
            let (cn, cc) = (self.notes.clone(), self.confidence);
            self.push(lang::Clause::new(crossover), false, cc, &cn);
            self.used.push(i);
            // `only overtakes … at saturation`: not before it, as a crossover says.
            if i > 0 && word(&c[i - 1]) == Some("only") {
                self.used.push(i - 1);
            }
            return true;
        }
        false
    }
}
