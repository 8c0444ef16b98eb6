//! A per-term breakdown of the evaluation, for the UCI `eval` command and for debugging.

use core::fmt;

use cutoff_board::Color;

use crate::eval::Terms;
use crate::score::Score;

/// One term of the evaluation, as listed by [`Trace`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Term {
    /// Piece values ([`params::MATERIAL`](crate::params::MATERIAL)).
    Material,
    /// Piece-square tables ([`params::PSQT`](crate::params::PSQT)).
    Psqt,
    /// Knight, bishop, rook and queen mobility.
    Mobility,
    /// Pawn structure: doubled, isolated, backward, connected and passed pawns.
    Pawns,
    /// Passed pawns beyond the pawn structure: blocked, free path, king distances.
    Passed,
    /// King safety: pawn shield and storm, open files by the king, enemy attacks on the king
    /// zone, safe checks and weak squares around the king.
    KingSafety,
    /// Enemy pieces attacked by lesser pieces, hanging pieces, pawn pushes that attack pieces.
    Threats,
    /// Piece placement: bishop pair, outposts, rooks on open files and the seventh rank,
    /// minor pieces behind pawns, bishops on the long diagonals, knights and rooks by the
    /// number of their side's pawns.
    Pieces,
    /// The side to move's bonus.
    Tempo,
}

impl Term {
    /// The number of terms.
    pub const COUNT: usize = 9;

    /// Every term, in the order of the [`Trace`] table.
    pub const ALL: [Term; Term::COUNT] = [
        Term::Material,
        Term::Psqt,
        Term::Mobility,
        Term::Pawns,
        Term::Passed,
        Term::KingSafety,
        Term::Threats,
        Term::Pieces,
        Term::Tempo,
    ];

    /// The name printed in the [`Trace`] table.
    pub const fn name(self) -> &'static str {
        match self {
            Term::Material => "Material",
            Term::Psqt => "Piece-square",
            Term::Mobility => "Mobility",
            Term::Pawns => "Pawns",
            Term::Passed => "Passed pawns",
            Term::KingSafety => "King safety",
            Term::Threats => "Threats",
            Term::Pieces => "Pieces",
            Term::Tempo => "Tempo",
        }
    }
}

impl fmt::Display for Term {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.pad(self.name())
    }
}

/// The evaluation of one position broken down by [`Term`] and colour, made by [`trace`](crate::trace).
///
/// Each term is kept as a middle-game / end-game [`Score`] for White and for Black, each
/// from its own side's point of view. `Display` prints the table the UCI `eval` command shows.
///
/// ```
/// use cutoff_board::{Board, Color};
/// use cutoff_eval::{Term, evaluate, trace};
/// let t = trace(&Board::default());
/// assert_eq!(t.eval(), evaluate(&Board::default()));
/// assert_eq!(t.get(Term::Material, Color::White), t.get(Term::Material, Color::Black));
/// println!("{t}");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Trace {
    pub(crate) terms: Terms,
    pub(crate) phase: i32,
    pub(crate) side_to_move: Color,
    pub(crate) eval: i32,
}

impl Trace {
    /// The term `term` for `color`, from `color`'s point of view.
    pub fn get(&self, term: Term, color: Color) -> Score {
        self.terms[term as usize][color as usize]
    }

    /// The term `term` from White's point of view: White's score minus Black's.
    pub fn diff(&self, term: Term) -> Score {
        self.get(term, Color::White) - self.get(term, Color::Black)
    }

    /// The term `term` from White's point of view, blended by the phase. (The blended
    /// terms may not add up to [`Trace::white_eval`] exactly: each is rounded on its own.)
    pub fn blended(&self, term: Term) -> i32 {
        self.diff(term).taper(self.phase)
    }

    /// The sum of every term from White's point of view, before blending.
    pub fn total(&self) -> Score {
        self.terms.iter().map(|t| t[0] - t[1]).sum()
    }

    /// The game phase of the position (see [`phase`](crate::phase)).
    pub fn phase(&self) -> i32 {
        self.phase
    }

    /// The side to move.
    pub fn side_to_move(&self) -> Color {
        self.side_to_move
    }

    /// The final evaluation from the side to move's point of view: what
    /// [`evaluate`](crate::evaluate) returns.
    pub fn eval(&self) -> i32 {
        self.eval
    }

    /// The final evaluation from White's point of view.
    pub fn white_eval(&self) -> i32 {
        match self.side_to_move {
            Color::White => self.eval,
            Color::Black => -self.eval,
        }
    }
}

impl fmt::Display for Trace {
    /// A table of every term: White's and Black's middle-game and end-game scores, the
    /// difference (White's view) and the difference blended by the phase, in centipawns.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        const RULE: &str = "--------------+---------------+---------------+----------------------";
        writeln!(f, "     Term     |     White     |     Black     |         Total")?;
        writeln!(f, "              |    MG     EG  |    MG     EG  |    MG     EG   Blended")?;
        writeln!(f, "{RULE}")?;
        for term in Term::ALL {
            let (w, b, d) = (self.get(term, Color::White), self.get(term, Color::Black), self.diff(term));
            writeln!(
                f,
                " {:<12} | {:>5}  {:>5}  | {:>5}  {:>5}  | {:>5}  {:>5}  {:>7}",
                term.name(),
                w.mg(),
                w.eg(),
                b.mg(),
                b.eg(),
                d.mg(),
                d.eg(),
                self.blended(term)
            )?;
        }
        writeln!(f, "{RULE}")?;
        let total = self.total();
        let white_sum: Score = Term::ALL.iter().map(|&t| self.get(t, Color::White)).sum();
        let black_sum: Score = Term::ALL.iter().map(|&t| self.get(t, Color::Black)).sum();
        writeln!(
            f,
            " {:<12} | {:>5}  {:>5}  | {:>5}  {:>5}  | {:>5}  {:>5}  {:>7}",
            "Total",
            white_sum.mg(),
            white_sum.eg(),
            black_sum.mg(),
            black_sum.eg(),
            total.mg(),
            total.eg(),
            total.taper(self.phase)
        )?;
        writeln!(f)?;
        writeln!(f, "Phase: {} / {} (24 = middle game, 0 = end game)", self.phase, crate::MAX_PHASE)?;
        writeln!(f, "Evaluation (White's view): {:+} cp", self.white_eval())?;
        write!(f, "Evaluation (side to move, {:?}): {:+} cp", self.side_to_move, self.eval)
    }
}
