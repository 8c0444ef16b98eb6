//! The evaluation proper: every term of both sides, computed in one pass over the pieces.

use cutoff_board::{Bitboard, Board, Color, File, PieceType, Rank, Square, attacks};

use crate::masks::{KING_ZONE, pawn_attacks};
use crate::params::*;
use crate::score::Score;
use crate::trace::Term;

/// Every term for both colours: `terms[term][color]`, each from that colour's point of view.
pub(crate) type Terms = [[Score; 2]; Term::COUNT];

/// `PSQT` index of a piece of `color` on `sq` (the tables are drawn rank 8 first).
#[inline(always)]
fn psqt_index(color: Color, sq: Square) -> usize {
    const FLIP: [usize; 2] = [56, 0];
    sq as usize ^ FLIP[color as usize]
}

/// The game phase: 24 with all pieces on the board, 0 with kings and pawns only.
#[inline(always)]
pub(crate) fn phase(board: &Board) -> i32 {
    let minors = (board.pieces(PieceType::Knight) | board.pieces(PieceType::Bishop)).len() as i32;
    let rooks = board.pieces(PieceType::Rook).len() as i32;
    let queens = board.pieces(PieceType::Queen).len() as i32;
    let phase = minors * PHASE_WEIGHT[PieceType::Knight as usize]
        + rooks * PHASE_WEIGHT[PieceType::Rook as usize]
        + queens * PHASE_WEIGHT[PieceType::Queen as usize];
    phase.min(crate::MAX_PHASE)
}

/// What one side's pieces do to the enemy king: summed zone-attack weights and attacker count.
#[derive(Clone, Copy, Default)]
struct KingAttack {
    weight: Score,
    attackers: usize,
}

/// Per-side accumulator for the piece loop.
#[derive(Clone, Copy, Default)]
struct Side {
    psqt: Score,
    mobility: Score,
    rooks: Score,
    attack: KingAttack,
}

/// Evaluates the pieces of one type (knight, bishop, rook or queen) of `color`.
#[inline(always)]
fn pieces<const KIND: usize>(
    board: &Board,
    color: Color,
    occupied: Bitboard,
    area: Bitboard,
    enemy_zone: Bitboard,
    acc: &mut Side,
) {
    let kind = PieceType::ALL[KIND];
    let mobility: &[Score] = match kind {
        PieceType::Knight => &MOBILITY_KNIGHT,
        PieceType::Bishop => &MOBILITY_BISHOP,
        PieceType::Rook => &MOBILITY_ROOK,
        _ => &MOBILITY_QUEEN,
    };
    for sq in board.colored_pieces(color, kind) {
        acc.psqt += PSQT[KIND][psqt_index(color, sq)];
        let attacks = match kind {
            PieceType::Knight => attacks::knight(sq),
            PieceType::Bishop => attacks::bishop(sq, occupied),
            PieceType::Rook => attacks::rook(sq, occupied),
            _ => attacks::queen(sq, occupied),
        };
        acc.mobility += mobility[(attacks & area).len() as usize];
        let hits = (attacks & enemy_zone).len() as i32;
        if hits > 0 {
            acc.attack.attackers += 1;
            acc.attack.weight += KING_ZONE_ATTACK[KIND - 1] * hits;
        }
        if kind == PieceType::Rook {
            let file = Bitboard::file(sq.file());
            if !board.pieces(PieceType::Pawn).intersects(file) {
                acc.rooks += ROOK_OPEN_FILE;
            } else if !board.colored_pieces(color, PieceType::Pawn).intersects(file) {
                acc.rooks += ROOK_SEMI_OPEN_FILE;
            }
        }
    }
}

/// The pawn shield and open files in front of the king of `color`.
#[inline(always)]
fn king_shelter(board: &Board, color: Color) -> Score {
    let king = board.king(color);
    let own = board.colored_pieces(color, PieceType::Pawn);
    let all = board.pieces(PieceType::Pawn);
    // The king's file and its neighbours, shifted inwards at the edge so there are always three.
    let center = (king.file() as usize).clamp(1, 6);
    // The ranks one and two squares in front of the king, if they exist.
    let rel = king.rank().relative_to(color) as usize;
    let rank_ahead =
        |d: usize| Rank::try_from_index(rel + d).map_or(Bitboard::EMPTY, |r| Bitboard::rank(r.relative_to(color)));
    let (near_rank, far_rank) = (rank_ahead(1), rank_ahead(2));
    let mut score = Score::ZERO;
    for f in center - 1..=center + 1 {
        let file = Bitboard::file(File::ALL[f]);
        let mine = own & file;
        if mine.intersects(near_rank) {
            score += KING_SHIELD_NEAR;
        } else if mine.intersects(far_rank) {
            score += KING_SHIELD_FAR;
        }
        if mine.is_empty() {
            score += KING_SEMI_OPEN_FILE;
            if !all.intersects(file) {
                score += KING_OPEN_FILE;
            }
        }
    }
    score
}

/// Scales the summed zone attacks on a king by the number of attackers.
#[inline(always)]
fn king_danger(attack: KingAttack) -> Score {
    let pct = KING_ATTACKERS_SCALE[attack.attackers.min(KING_ATTACKERS_SCALE.len() - 1)];
    Score { mg: attack.weight.mg * pct / 100, eg: attack.weight.eg * pct / 100 }
}

/// Computes every term for both sides; `pawns` is the pawn-structure score `[white, black]`.
#[inline(always)]
pub(crate) fn terms(board: &Board, pawns: [Score; 2]) -> Terms {
    let occupied = board.occupied();
    let pawn_bb =
        [board.colored_pieces(Color::White, PieceType::Pawn), board.colored_pieces(Color::Black, PieceType::Pawn)];
    let pawn_att = [pawn_attacks(Color::White, pawn_bb[0]), pawn_attacks(Color::Black, pawn_bb[1])];

    let mut t: Terms = [[Score::ZERO; 2]; Term::COUNT];
    let mut sides = [Side::default(); 2];

    for color in Color::ALL {
        let us = color as usize;
        let them = !color;
        let acc = &mut sides[us];
        let area = !board.colored(color) & !pawn_att[them as usize];
        let enemy_zone = KING_ZONE[them as usize][board.king(them) as usize];

        let mut material = Score::ZERO;
        for kind in [PieceType::Pawn, PieceType::Knight, PieceType::Bishop, PieceType::Rook, PieceType::Queen] {
            material += MATERIAL[kind as usize] * board.colored_pieces(color, kind).len() as i32;
        }
        t[Term::Material as usize][us] = material;

        for sq in pawn_bb[us] {
            acc.psqt += PSQT[PieceType::Pawn as usize][psqt_index(color, sq)];
        }
        acc.psqt += PSQT[PieceType::King as usize][psqt_index(color, board.king(color))];
        pieces::<1>(board, color, occupied, area, enemy_zone, acc);
        pieces::<2>(board, color, occupied, area, enemy_zone, acc);
        pieces::<3>(board, color, occupied, area, enemy_zone, acc);
        pieces::<4>(board, color, occupied, area, enemy_zone, acc);

        let bishops = board.colored_pieces(color, PieceType::Bishop);
        if bishops.intersects(Bitboard::LIGHT) && bishops.intersects(Bitboard::DARK) {
            t[Term::BishopPair as usize][us] = BISHOP_PAIR;
        }
    }

    for color in Color::ALL {
        let us = color as usize;
        let side = &sides[us];
        t[Term::Psqt as usize][us] = side.psqt;
        t[Term::Mobility as usize][us] = side.mobility;
        t[Term::Rooks as usize][us] = side.rooks;
        t[Term::Pawns as usize][us] = pawns[us];
        t[Term::KingSafety as usize][us] = king_shelter(board, color) + king_danger(sides[!color as usize].attack);
    }
    t[Term::Tempo as usize][board.side_to_move() as usize] = TEMPO;
    t
}

/// The sum of all terms from White's point of view (White's terms minus Black's).
#[inline(always)]
pub(crate) fn white_total(t: &Terms) -> Score {
    let mut s = Score::ZERO;
    for term in t {
        s += term[0] - term[1];
    }
    s
}

/// Blends, turns to the side to move's view and clamps.
#[inline(always)]
pub(crate) fn finish(board: &Board, total: Score, phase: i32) -> i32 {
    let white = total.taper(phase);
    let stm = if board.side_to_move() == Color::White { white } else { -white };
    stm.clamp(-crate::MAX_EVAL, crate::MAX_EVAL)
}
