//! The relation a pairwise clause asserts, and the test and direction it
//! is judged with.

use crate::claims::stats::Test;
use crate::metric::Direction;
use serde::Serialize;

/// The relation a pairwise clause asserts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Relation {
    /// Better beyond the margin, in the metric's direction.
    Beats,
    /// Equal within the margin.
    Matches,
    /// Not worse beyond the margin, in the metric's direction.
    MatchesOrBeats,
    /// Literal: A greater than B beyond the margin, whatever the direction.
    Gt,
    /// Literal: A not smaller than B beyond the margin.
    Ge,
    /// Literal: A smaller than B beyond the margin.
    Lt,
    /// Literal: A not greater than B beyond the margin.
    Le,
    /// B beats A (`A loses to B`): worse beyond the margin, in the metric's
    /// direction.
    LosesTo,
    /// `is faster than`: `beats` on a metric with a better direction (a
    /// time is faster lower, a rate higher); refused on a neutral one.
    Faster,
    /// `is slower than`: `loses to`, likewise.
    Slower,
}

impl Relation {
    /// The statistical test and the direction to compare in, for a metric
    /// whose better direction is `direction`: `beats`/`matches` follow it
    /// (`loses to` and `is slower than` turn it over), the literal
    /// operators fix it (`>` is "beats" where higher is better).
    pub fn resolve(self, direction: Direction) -> (Test, Direction) {
        match self {
            Relation::Matches => (Test::Matches, direction),
            Relation::MatchesOrBeats => (Test::MatchesOrBeats, direction),
            Relation::Gt => (Test::Beats, Direction::Higher),
            Relation::Ge => (Test::MatchesOrBeats, Direction::Higher),
            Relation::Lt => (Test::Beats, Direction::Lower),
            Relation::Le => (Test::MatchesOrBeats, Direction::Lower),
            Relation::Beats | Relation::Faster => (Test::Beats, direction),
            Relation::LosesTo | Relation::Slower => (Test::Beats, turned(direction)),
        }
    }

    /// Whether the relation reads speed (`is faster than`, `is slower
    /// than`): it needs a metric with a better direction.
    pub fn is_speed(self) -> bool {
        matches!(self, Relation::Faster | Relation::Slower)
    }

    /// Whether the relation says which side is better (`beats`, `matches
    /// or beats`, `loses to`, `is faster/slower than`), as against equal
    /// (`matches`) or literal (`<`, `>=`, …).
    pub fn is_better(self) -> bool {
        matches!(
            self,
            Relation::Beats | Relation::MatchesOrBeats | Relation::LosesTo | Relation::Faster | Relation::Slower
        )
    }

    pub(crate) fn as_str(self) -> &'static str {
        match self {
            Relation::Beats => "beats",
            Relation::Matches => "matches",
            Relation::MatchesOrBeats => "matches or beats",
            Relation::Gt => ">",
            Relation::Ge => ">=",
            Relation::Lt => "<",
            Relation::Le => "<=",
            Relation::LosesTo => "loses to",
            Relation::Faster => "is faster than",
            Relation::Slower => "is slower than",
        }
    }
}

/// The other way of a direction: a neutral metric compares as higher is
/// better, so turned over it compares as lower.
pub(crate) fn turned(direction: Direction) -> Direction {
    match direction {
        Direction::Higher | Direction::Neutral => Direction::Lower,
        Direction::Lower => Direction::Higher,
    }
}
