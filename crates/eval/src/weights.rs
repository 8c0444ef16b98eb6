//! The tuned weights of the evaluation. GENERATED FILE: do not edit by hand; it is written by
//! `cargo xtask tune` (see `docs/tuning.md`), and its layout comes from `params.rs`.
//!
//! Made by `cargo xtask tune --lambda 0.5 --epochs 0 --lr 2 --validation 0.1 --seed 1 --limit 1000`
//! on cutoff-selfplay-scored.epd (1000 positions, 100 of them for validation), K = 0.004561.
//! Loss (mean squared error of sigmoid(K * eval) against the target), before -> after:
//! training 0.025582 -> 0.025582, validation 0.029702 -> 0.029702;
//! validation against the game results alone 0.100378 -> 0.100378.

use crate::score::{S, Score};

/// Material value of each piece type, indexed by [`PieceType`](cutoff_board::PieceType)
/// (pawn, knight, bishop, rook, queen, king). The king's entry is never used.
#[rustfmt::skip]
pub const MATERIAL: [Score; 6] = [
    S(  82,   94), S( 337,  281), S( 365,  297), S( 477,  512), S(1025,  936), S(   0,    0),
];

/// Pawn piece-square table. Each table is written the way a board is drawn from White's
/// side: the first row is rank 8, each row goes from the a-file to the h-file; a black
/// piece reads the square mirrored vertically. Ranks 1 and 8 of this table are never used.
#[rustfmt::skip]
pub const PSQT_PAWN: [Score; 64] = [
    S(   0,    0), S(   0,    0), S(   0,    0), S(   0,    0), S(   0,    0), S(   0,    0), S(   0,    0), S(   0,    0),
    S(  98,  178), S( 134,  173), S(  61,  158), S(  95,  134), S(  68,  147), S( 126,  132), S(  34,  165), S( -11,  187),
    S(  -6,   94), S(   7,  100), S(  26,   85), S(  31,   67), S(  65,   56), S(  56,   53), S(  25,   82), S( -20,   84),
    S( -14,   32), S(  13,   24), S(   6,   13), S(  21,    5), S(  23,   -2), S(  12,    4), S(  17,   17), S( -23,   17),
    S( -27,   13), S(  -2,    9), S(  -5,   -3), S(  12,   -7), S(  17,   -7), S(   6,   -8), S(  10,    3), S( -25,   -1),
    S( -26,    4), S(  -4,    7), S(  -4,   -6), S( -10,    1), S(   3,    0), S(   3,   -5), S(  33,   -1), S( -12,   -8),
    S( -35,   13), S(  -1,    8), S( -20,    8), S( -23,   10), S( -15,   13), S(  24,    0), S(  38,    2), S( -22,   -7),
    S(   0,    0), S(   0,    0), S(   0,    0), S(   0,    0), S(   0,    0), S(   0,    0), S(   0,    0), S(   0,    0),
];

/// Knight piece-square table (layout as [`PSQT_PAWN`]).
#[rustfmt::skip]
pub const PSQT_KNIGHT: [Score; 64] = [
    S(-167,  -58), S( -89,  -38), S( -34,  -13), S( -49,  -28), S(  61,  -31), S( -97,  -27), S( -15,  -63), S(-107,  -99),
    S( -73,  -25), S( -41,   -8), S(  72,  -25), S(  36,   -2), S(  23,   -9), S(  62,  -25), S(   7,  -24), S( -17,  -52),
    S( -47,  -24), S(  60,  -20), S(  37,   10), S(  65,    9), S(  84,   -1), S( 129,   -9), S(  73,  -19), S(  44,  -41),
    S(  -9,  -17), S(  17,    3), S(  19,   22), S(  53,   22), S(  37,   22), S(  69,   11), S(  18,    8), S(  22,  -18),
    S( -13,  -18), S(   4,   -6), S(  16,   16), S(  13,   25), S(  28,   16), S(  19,   17), S(  21,    4), S(  -8,  -18),
    S( -23,  -23), S(  -9,   -3), S(  12,   -1), S(  10,   15), S(  19,   10), S(  17,   -3), S(  25,  -20), S( -16,  -22),
    S( -29,  -42), S( -53,  -20), S( -12,  -10), S(  -3,   -5), S(  -1,   -2), S(  18,  -20), S( -14,  -23), S( -19,  -44),
    S(-105,  -29), S( -21,  -51), S( -58,  -23), S( -33,  -15), S( -17,  -22), S( -28,  -18), S( -19,  -50), S( -23,  -64),
];

/// Bishop piece-square table (layout as [`PSQT_PAWN`]).
#[rustfmt::skip]
pub const PSQT_BISHOP: [Score; 64] = [
    S( -29,  -14), S(   4,  -21), S( -82,  -11), S( -37,   -8), S( -25,   -7), S( -42,   -9), S(   7,  -17), S(  -8,  -24),
    S( -26,   -8), S(  16,   -4), S( -18,    7), S( -13,  -12), S(  30,   -3), S(  59,  -13), S(  18,   -4), S( -47,  -14),
    S( -16,    2), S(  37,   -8), S(  43,    0), S(  40,   -1), S(  35,   -2), S(  50,    6), S(  37,    0), S(  -2,    4),
    S(  -4,   -3), S(   5,    9), S(  19,   12), S(  50,    9), S(  37,   14), S(  37,   10), S(   7,    3), S(  -2,    2),
    S(  -6,   -6), S(  13,    3), S(  13,   13), S(  26,   19), S(  34,    7), S(  12,   10), S(  10,   -3), S(   4,   -9),
    S(   0,  -12), S(  15,   -3), S(  15,    8), S(  15,   10), S(  14,   13), S(  27,    3), S(  18,   -7), S(  10,  -15),
    S(   4,  -14), S(  15,  -18), S(  16,   -7), S(   0,   -1), S(   7,    4), S(  21,   -9), S(  33,  -15), S(   1,  -27),
    S( -33,  -23), S(  -3,   -9), S( -14,  -23), S( -21,   -5), S( -13,   -9), S( -12,  -16), S( -39,   -5), S( -21,  -17),
];

/// Rook piece-square table (layout as [`PSQT_PAWN`]).
#[rustfmt::skip]
pub const PSQT_ROOK: [Score; 64] = [
    S(  32,   13), S(  42,   10), S(  32,   18), S(  51,   15), S(  63,   12), S(   9,   12), S(  31,    8), S(  43,    5),
    S(  27,   11), S(  32,   13), S(  58,   13), S(  62,   11), S(  80,   -3), S(  67,    3), S(  26,    8), S(  44,    3),
    S(  -5,    7), S(  19,    7), S(  26,    7), S(  36,    5), S(  17,    4), S(  45,   -3), S(  61,   -5), S(  16,   -3),
    S( -24,    4), S( -11,    3), S(   7,   13), S(  26,    1), S(  24,    2), S(  35,    1), S(  -8,   -1), S( -20,    2),
    S( -36,    3), S( -26,    5), S( -12,    8), S(  -1,    4), S(   9,   -5), S(  -7,   -6), S(   6,   -8), S( -23,  -11),
    S( -45,   -4), S( -25,    0), S( -16,   -5), S( -17,   -1), S(   3,   -7), S(   0,  -12), S(  -5,   -8), S( -33,  -16),
    S( -44,   -6), S( -16,   -6), S( -20,    0), S(  -9,    2), S(  -1,   -9), S(  11,   -9), S(  -6,  -11), S( -71,   -3),
    S( -19,   -9), S( -13,    2), S(   1,    3), S(  17,   -1), S(  16,   -5), S(   7,  -13), S( -37,    4), S( -26,  -20),
];

/// Queen piece-square table (layout as [`PSQT_PAWN`]).
#[rustfmt::skip]
pub const PSQT_QUEEN: [Score; 64] = [
    S( -28,   -9), S(   0,   22), S(  29,   22), S(  12,   27), S(  59,   27), S(  44,   19), S(  43,   10), S(  45,   20),
    S( -24,  -17), S( -39,   20), S(  -5,   32), S(   1,   41), S( -16,   58), S(  57,   25), S(  28,   30), S(  54,    0),
    S( -13,  -20), S( -17,    6), S(   7,    9), S(   8,   49), S(  29,   47), S(  56,   35), S(  47,   19), S(  57,    9),
    S( -27,    3), S( -27,   22), S( -16,   24), S( -16,   45), S(  -1,   57), S(  17,   40), S(  -2,   57), S(   1,   36),
    S(  -9,  -18), S( -26,   28), S(  -9,   19), S( -10,   47), S(  -2,   31), S(  -4,   34), S(   3,   39), S(  -3,   23),
    S( -14,  -16), S(   2,  -27), S( -11,   15), S(  -2,    6), S(  -5,    9), S(   2,   17), S(  14,   10), S(   5,    5),
    S( -35,  -22), S(  -8,  -23), S(  11,  -30), S(   2,  -16), S(   8,  -16), S(  15,  -23), S(  -3,  -36), S(   1,  -32),
    S(  -1,  -33), S( -18,  -28), S(  -9,  -22), S(  10,  -43), S( -15,   -5), S( -25,  -32), S( -31,  -20), S( -50,  -41),
];

/// King piece-square table (layout as [`PSQT_PAWN`]).
#[rustfmt::skip]
pub const PSQT_KING: [Score; 64] = [
    S( -65,  -74), S(  23,  -35), S(  16,  -18), S( -15,  -18), S( -56,  -11), S( -34,   15), S(   2,    4), S(  13,  -17),
    S(  29,  -12), S(  -1,   17), S( -20,   14), S(  -7,   17), S(  -8,   17), S(  -4,   38), S( -38,   23), S( -29,   11),
    S(  -9,   10), S(  24,   17), S(   2,   23), S( -16,   15), S( -20,   20), S(   6,   45), S(  22,   44), S( -22,   13),
    S( -17,   -8), S( -20,   22), S( -12,   24), S( -27,   27), S( -30,   26), S( -25,   33), S( -14,   26), S( -36,    3),
    S( -49,  -18), S(  -1,   -4), S( -27,   21), S( -39,   24), S( -46,   27), S( -44,   23), S( -33,    9), S( -51,  -11),
    S( -14,  -19), S( -14,   -3), S( -22,   11), S( -46,   21), S( -44,   23), S( -30,   16), S( -15,    7), S( -27,   -9),
    S(   1,  -27), S(   7,  -11), S(  -8,    4), S( -64,   13), S( -43,   14), S( -16,    4), S(   9,   -5), S(   8,  -17),
    S( -15,  -53), S(  36,  -34), S(  12,  -21), S( -54,  -11), S(   8,  -28), S( -28,  -14), S(  24,  -24), S(  14,  -43),
];

/// Knight mobility, by the number of squares of the mobility area the knight attacks
/// (0..=8). A side's mobility area is every square not occupied by its own pieces and not
/// attacked by an enemy pawn.
#[rustfmt::skip]
pub const MOBILITY_KNIGHT: [Score; 9] = [
    S( -30,  -40), S( -18,  -26), S(  -8,  -14), S(  -2,   -6), S(   3,    0), S(   8,    6), S(  12,   10), S(  15,   13),
    S(  18,   15),
];

/// Bishop mobility by attacked squares of the mobility area (0..=13).
#[rustfmt::skip]
pub const MOBILITY_BISHOP: [Score; 14] = [
    S( -30,  -40), S( -20,  -28), S( -11,  -17), S(  -5,   -9), S(   0,   -3), S(   5,    3), S(   9,    8), S(  13,   12),
    S(  16,   16), S(  19,   19), S(  21,   21), S(  23,   23), S(  25,   24), S(  27,   25),
];

/// Rook mobility by attacked squares of the mobility area (0..=14).
#[rustfmt::skip]
pub const MOBILITY_ROOK: [Score; 15] = [
    S( -25,  -40), S( -17,  -28), S( -11,  -19), S(  -7,  -12), S(  -4,   -6), S(  -2,   -1), S(   0,    4), S(   2,    9),
    S(   4,   14), S(   6,   18), S(   8,   22), S(  10,   25), S(  11,   28), S(  12,   30), S(  13,   32),
];

/// Queen mobility by attacked squares of the mobility area (0..=27).
#[rustfmt::skip]
pub const MOBILITY_QUEEN: [Score; 28] = [
    S( -15,  -30), S( -13,  -26), S( -11,  -22), S(  -9,  -19), S(  -7,  -15), S(  -5,  -12), S(  -3,   -9), S(  -2,   -6),
    S(   0,   -3), S(   2,    0), S(   3,    2), S(   4,    4), S(   6,    6), S(   7,    8), S(   8,   10), S(   9,   12),
    S(  10,   14), S(  11,   15), S(  12,   16), S(  12,   17), S(  13,   18), S(  14,   19), S(  14,   19), S(  14,   20),
    S(  15,   20), S(  15,   20), S(  15,   20), S(  15,   20),
];

/// A pawn with another pawn of its side in front of it on the same file (counted once per
/// rear pawn).
pub const PAWN_DOUBLED: Score = S(-10, -20);

/// A pawn with no pawn of its side on either adjacent file.
pub const PAWN_ISOLATED: Score = S(-10, -12);

/// A pawn that is not isolated, has no pawn of its side beside or behind it on the
/// adjacent files, and whose stop square is attacked by an enemy pawn.
pub const PAWN_BACKWARD: Score = S(-8, -10);

/// A pawn defended by a pawn of its side or standing next to one, by its rank as seen
/// from its own side (index 0 = rank 1 ... 7 = rank 8).
#[rustfmt::skip]
pub const PAWN_CONNECTED: [Score; 8] = [
    S(   0,    0), S(   2,    0), S(   5,    2), S(   7,    4), S(  12,    8), S(  20,   15), S(  35,   25), S(   0,    0),
];

/// A passed pawn (no enemy pawn in front of it on its own or an adjacent file, and no pawn
/// of its side in front of it on its file), by relative rank.
#[rustfmt::skip]
pub const PAWN_PASSED: [Score; 8] = [
    S(   0,    0), S(   0,    5), S(   2,    8), S(   6,   15), S(  15,   30), S(  30,   50), S(  45,   75), S(   0,    0),
];

/// A passed pawn whose stop square (the square in front of it) is occupied, by relative
/// rank.
#[rustfmt::skip]
pub const PASSED_BLOCKED: [Score; 8] = [
    S(   0,    0), S(   0,    0), S(   0,    0), S(   0,    0), S(   0,    0), S(   0,    0), S(   0,    0), S(   0,    0),
];

/// A passed pawn whose path to promotion holds no piece and no square attacked by the
/// enemy, by relative rank.
#[rustfmt::skip]
pub const PASSED_FREE_PATH: [Score; 8] = [
    S(   0,    0), S(   0,    0), S(   0,    0), S(   0,    0), S(   0,    0), S(   0,    0), S(   0,    0), S(   0,    0),
];

/// A passed pawn, by the distance (0..=7, king moves) from its side's king to its stop
/// square.
#[rustfmt::skip]
pub const PASSED_OWN_KING: [Score; 8] = [
    S(   0,    0), S(   0,    0), S(   0,    0), S(   0,    0), S(   0,    0), S(   0,    0), S(   0,    0), S(   0,    0),
];

/// A passed pawn, by the distance (0..=7, king moves) from the enemy king to its stop
/// square.
#[rustfmt::skip]
pub const PASSED_ENEMY_KING: [Score; 8] = [
    S(   0,    0), S(   0,    0), S(   0,    0), S(   0,    0), S(   0,    0), S(   0,    0), S(   0,    0), S(   0,    0),
];

/// King safety, added to the defending side once per (enemy piece, attacked king-zone
/// square) pair, by attacker type: knight, bishop, rook, queen. The king zone is the
/// king's square, the squares around it and the three squares two ranks in front of it.
/// The sum is scaled by [the attacker-count scale](crate::params::KING_ATTACKERS_SCALE).
#[rustfmt::skip]
pub const KING_ZONE_ATTACK: [Score; 4] = [
    S(  -8,    0), S(  -6,    0), S( -10,    0), S( -20,    0),
];

/// King safety: a pawn of the king's side on one of the three files around the king, one
/// rank in front of the king.
pub const KING_SHIELD_NEAR: Score = S(12, 0);

/// King safety: as [`KING_SHIELD_NEAR`], two ranks in front of the king.
pub const KING_SHIELD_FAR: Score = S(6, 0);

/// King safety: one of the files around the king has no pawn of the king's side.
pub const KING_SEMI_OPEN_FILE: Score = S(-15, 0);

/// King safety: one of the files around the king has no pawn at all (on top of
/// [`KING_SEMI_OPEN_FILE`]).
pub const KING_OPEN_FILE: Score = S(-10, 0);

/// A threat: an enemy piece attacked by one of our pawns, by the attacked piece's type
/// (pawn, knight, bishop, rook, queen, king).
#[rustfmt::skip]
pub const THREAT_BY_PAWN: [Score; 6] = [
    S(   0,    0), S(   0,    0), S(   0,    0), S(   0,    0), S(   0,    0), S(   0,    0),
];

/// A threat: an enemy piece attacked by one of our knights or bishops, by its type.
#[rustfmt::skip]
pub const THREAT_BY_MINOR: [Score; 6] = [
    S(   0,    0), S(   0,    0), S(   0,    0), S(   0,    0), S(   0,    0), S(   0,    0),
];

/// A threat: an enemy piece attacked by one of our rooks, by its type.
#[rustfmt::skip]
pub const THREAT_BY_ROOK: [Score; 6] = [
    S(   0,    0), S(   0,    0), S(   0,    0), S(   0,    0), S(   0,    0), S(   0,    0),
];

/// A threat: an enemy piece attacked by our queen, by its type.
#[rustfmt::skip]
pub const THREAT_BY_QUEEN: [Score; 6] = [
    S(   0,    0), S(   0,    0), S(   0,    0), S(   0,    0), S(   0,    0), S(   0,    0),
];

/// A threat: an enemy piece other than a pawn attacked by our king and not defended.
pub const THREAT_BY_KING: Score = S(0, 0);

/// An enemy piece other than a pawn that we attack and the enemy does not defend.
pub const HANGING: Score = S(0, 0);

/// Bishops on both square colours.
pub const BISHOP_PAIR: Score = S(25, 50);

/// A knight on an outpost: ranks 4 to 6 (its side's view), defended by a pawn of its side,
/// and no enemy pawn can ever attack the square.
pub const KNIGHT_OUTPOST: Score = S(0, 0);

/// A bishop on an outpost (as [`KNIGHT_OUTPOST`]).
pub const BISHOP_OUTPOST: Score = S(0, 0);

/// A rook on a file without pawns.
pub const ROOK_OPEN_FILE: Score = S(25, 8);

/// A rook on a file with enemy pawns but none of its own.
pub const ROOK_SEMI_OPEN_FILE: Score = S(12, 6);

/// A rook on the seventh rank (its side's view).
pub const ROOK_ON_SEVENTH: Score = S(0, 0);

/// The side to move's bonus.
pub const TEMPO: Score = S(15, 10);
