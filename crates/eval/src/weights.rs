//! The tuned weights of the evaluation. GENERATED FILE: do not edit by hand; it is written by
//! `cargo xtask tune` (see `docs/tuning.md`), and its layout comes from `params.rs`.
//!
//! Made by `cargo xtask tune --lambda 0.5 --epochs 1500 --lr 2 --l2 1e-10 --validation 0.1 --seed 1 --init material --min-positions 200`
//! on cutoff-selfplay-scored.epd (817056 positions, 81706 of them for validation), K = 0.005223.
//! Loss (mean squared error of sigmoid(K * eval) against the target) with the weights compiled
//! into the tuner's build -> with these:
//! training 0.027644 -> 0.025554, validation 0.027747 -> 0.025718;
//! validation against the game results alone 0.090356 -> 0.086524.

use crate::score::{S, Score};

/// Material value of each piece type, indexed by [`PieceType`](cutoff_board::PieceType)
/// (pawn, knight, bishop, rook, queen, king). The king's entry is never used.
#[rustfmt::skip]
pub const MATERIAL: [Score; 6] = [
    S(  83,  118), S( 375,  268), S( 402,  290), S( 548,  510), S(1315,  794), S(   0,    0),
];

/// Pawn piece-square table. Each table is written the way a board is drawn from White's
/// side: the first row is rank 8, each row goes from the a-file to the h-file; a black
/// piece reads the square mirrored vertically. Ranks 1 and 8 of this table are never used.
#[rustfmt::skip]
pub const PSQT_PAWN: [Score; 64] = [
    S(   0,    0), S(   0,    0), S(   0,    0), S(   0,    0), S(   0,    0), S(   0,    0), S(   0,    0), S(   0,    0),
    S(  61,   13), S(  58,   36), S(  -5,   27), S(  25,   28), S(  41,   23), S(   8,  -14), S(  -6,   71), S(   4,   58),
    S(  -8,   38), S( -10,   34), S(  -5,   35), S(  10,    2), S(   7,    8), S(   2,   36), S(  20,   50), S( -16,   35),
    S( -16,   -4), S(  18,   -5), S(  10,  -12), S(  12,  -23), S(  14,  -22), S(  15,  -28), S(   4,  -14), S( -34,    7),
    S( -29,  -12), S( -12,  -11), S(   0,  -21), S(  13,  -31), S(   6,  -22), S(   8,  -30), S(  -8,   -9), S( -24,  -14),
    S( -37,  -10), S( -19,  -18), S(  -4,  -28), S( -21,  -11), S(  -7,  -19), S( -15,  -21), S(   8,  -17), S( -20,  -14),
    S( -34,    1), S(   0,  -14), S( -12,  -15), S( -14,  -12), S( -14,   -9), S(   8,   -8), S(  28,   -5), S( -21,  -14),
    S(   0,    0), S(   0,    0), S(   0,    0), S(   0,    0), S(   0,    0), S(   0,    0), S(   0,    0), S(   0,    0),
];

/// Knight piece-square table (layout as [`PSQT_PAWN`]).
#[rustfmt::skip]
pub const PSQT_KNIGHT: [Score; 64] = [
    S(-192,  -17), S( -25,   -3), S( -35,    5), S( -12,   -7), S(  48,    4), S( -50,    5), S( -49,    3), S( -55,  -17),
    S( -38,   18), S( -55,   -5), S(  34,   15), S(  10,    7), S( -11,   14), S(  41,  -19), S(   7,   10), S( -23,   22),
    S( -17,   23), S(   6,   -5), S( -10,   27), S(  39,    7), S(  32,   34), S(  84,   -2), S(  26,    9), S(   0,  -34),
    S(  -5,   -1), S(  17,    9), S(  19,   16), S(  29,   29), S(  29,   14), S(  25,    3), S(  20,    3), S(  28,  -18),
    S(   5,   -6), S(  11,   15), S(  33,    4), S(  17,   30), S(  24,   27), S(  18,    9), S(  47,  -15), S(   2,   14),
    S( -20,  -27), S(  11,  -16), S(   4,   22), S(  21,    6), S(  21,    2), S(  18,   11), S(  39,  -20), S( -19,   -9),
    S(  15,    0), S(   0,   13), S(  -7,  -18), S(   8,    8), S(  13,    7), S(  14,  -21), S( -12,  -33), S( -15,    6),
    S( -49,  -80), S( -23,  -12), S( -20,  -12), S( -25,   18), S( -15,   15), S(  11,  -36), S( -21,    2), S(  -8,  -59),
];

/// Bishop piece-square table (layout as [`PSQT_PAWN`]).
#[rustfmt::skip]
pub const PSQT_BISHOP: [Score; 64] = [
    S(-109,   18), S( -20,  -11), S(  30,   -7), S( -62,   12), S( -52,   14), S( -30,   -3), S( -25,  -10), S( -32,    3),
    S( -41,  -25), S(  -2,   19), S( -20,   28), S(  -9,   16), S(  -4,   16), S( -23,   17), S( -47,   17), S( -35,  -35),
    S( -15,    0), S(   7,    1), S( -35,   32), S(   5,   26), S(  29,    5), S(   7,   13), S(  23,   -1), S(   2,  -19),
    S(   4,  -18), S(   4,   12), S(  -3,   12), S(  14,   22), S(  25,   23), S(   9,   11), S(   4,   -7), S(  18,    7),
    S(  12,  -10), S(  14,    0), S(  18,   17), S(  20,   12), S(  31,    3), S(  13,   14), S(   1,    9), S(   6,  -21),
    S(  -8,  -10), S(  23,  -14), S(  24,   13), S(  17,   14), S(  12,   17), S(  22,   -4), S(  44,  -26), S(   2,  -28),
    S(  41,    4), S(   9,   -9), S(  -4,   11), S(   9,    1), S(  12,   -2), S(  22,  -15), S(  26,   -6), S(  11,    1),
    S(   7,  -51), S(  -7,   -7), S( -11,   -5), S(  10,  -11), S(   5,  -27), S( -13,   -1), S(  51,  -35), S(  -2,  -22),
];

/// Rook piece-square table (layout as [`PSQT_PAWN`]).
#[rustfmt::skip]
pub const PSQT_ROOK: [Score; 64] = [
    S( -11,   28), S(   3,   28), S(  45,   10), S(  30,   14), S(  25,   -2), S(  65,   -6), S(  20,    7), S(   6,   25),
    S( -11,    6), S( -14,    7), S(  14,   -1), S(   0,    6), S(  23,    5), S(  25,  -18), S(  32,  -13), S( -27,    6),
    S( -18,   13), S(  11,    3), S(  -8,   13), S(  23,    1), S(  57,  -11), S(  75,  -13), S(  58,  -13), S(  -3,    0),
    S(   5,    7), S( -10,    8), S(  41,   -7), S(   5,   14), S(  -8,    1), S(  35,    2), S(  -7,    2), S( -11,    9),
    S( -50,   25), S( -16,   13), S(  -2,    4), S(  -6,   13), S(   6,    8), S( -10,   -9), S(   5,    2), S( -10,    3),
    S( -48,    8), S(   8,   -2), S( -26,   22), S( -15,    5), S( -17,   -1), S(  -1,  -17), S(  -8,  -20), S( -13,  -25),
    S( -51,   -5), S(  13,  -30), S( -18,   -7), S(  -8,  -12), S( -33,   12), S(  -7,    0), S(   2,  -26), S( -73,    7),
    S( -18,  -11), S(   3,  -11), S(   8,  -11), S(   8,   -7), S(   5,   -7), S(  -4,  -13), S( -22,  -18), S( -15,  -26),
];

/// Queen piece-square table (layout as [`PSQT_PAWN`]).
#[rustfmt::skip]
pub const PSQT_QUEEN: [Score; 64] = [
    S( -18,  -10), S( -25,   18), S(  20,  -14), S( -36,   23), S(  -4,   27), S(  28,    1), S( -12,   20), S(  15,   23),
    S( -11,  -11), S( -24,   35), S(  -9,   43), S(   8,   14), S(  11,   20), S(  19,    6), S(  23,    3), S(  47,  -12),
    S(  -9,    2), S(  -9,  -15), S( -42,   23), S(  14,   20), S(  20,   10), S(  45,   15), S(  26,   21), S(  52,  -19),
    S( -16,   15), S( -24,   -5), S( -31,   25), S(  -9,   52), S( -12,   58), S(  -3,   17), S(   9,    0), S(  -5,   13),
    S( -19,    7), S( -20,   21), S( -13,  -11), S(   6,   37), S( -17,   38), S( -12,    8), S(  20,   20), S( -16,   39),
    S(  -2,  -13), S(   5,  -19), S(  -6,  -10), S(  -7,    7), S(   5,  -22), S(   2,    6), S(  16,    1), S(  21,  -32),
    S(  -7,  -12), S(   5,  -35), S(   0,  -26), S(  12,  -50), S(  15,    3), S(   9,  -57), S(   7,  -32), S(  52,  -44),
    S(   9,  -30), S(  31,  -67), S(  14,  -18), S(   7,  -62), S(   5,  -15), S(  15,  -44), S( -44,  -21), S( -22,  -24),
];

/// King piece-square table (layout as [`PSQT_PAWN`]).
#[rustfmt::skip]
pub const PSQT_KING: [Score; 64] = [
    S(   8,  -25), S(  24,   13), S(  13,   -2), S(   3,  -11), S(  10,   -7), S( -10,   14), S(  12,   -9), S(  -2,  -55),
    S(  21,   23), S(  38,   14), S(   2,   54), S(  12,   29), S(  -2,   24), S( -16,   -8), S(   7,   19), S(  14,   -6),
    S(   5,   46), S(   7,   39), S(  -7,   33), S(  17,   32), S( -32,   30), S( -50,   -4), S( -29,  -12), S( -38,   -2),
    S( -26,   12), S(  10,   26), S( -12,   39), S( -22,   30), S( -41,   26), S(-101,   23), S(   0,   -4), S( -13,   11),
    S(   2,  -21), S(   8,    0), S(  -9,   20), S( -54,   24), S( -21,   18), S( -35,   13), S(   3,    2), S( -16,  -22),
    S(   6,  -30), S(  33,    5), S( -83,   21), S( -46,   13), S( -55,   15), S(   8,    3), S(  -6,    0), S(  39,  -29),
    S(  64,  -50), S(  57,  -15), S(  23,   -8), S( -24,    6), S(   0,   -3), S(  -1,   -6), S(  46,  -21), S(  25,  -26),
    S(  10,  -39), S(  45,  -35), S(  38,  -30), S( -40,  -15), S(  17,  -36), S(   8,  -28), S(  58,  -43), S(  47,  -67),
];

/// Knight mobility, by the number of squares of the mobility area the knight attacks
/// (0..=8). A side's mobility area is every square not occupied by its own pieces and not
/// attacked by an enemy pawn.
#[rustfmt::skip]
pub const MOBILITY_KNIGHT: [Score; 9] = [
    S( -34,  -47), S( -13,  -32), S(  -8,  -12), S(   0,   -3), S(   5,   17), S(  14,   24), S(  18,   25), S(  24,   13),
    S(  39,   -2),
];

/// Bishop mobility by attacked squares of the mobility area (0..=13).
#[rustfmt::skip]
pub const MOBILITY_BISHOP: [Score; 14] = [
    S( -32,  -53), S(  -7,  -45), S(   0,  -14), S(   5,   -4), S(   9,   10), S(  14,   11), S(  19,   14), S(  16,   22),
    S(  17,   19), S(  13,   21), S(  18,   11), S(   9,   10), S(  40,   -5), S( -27,    2),
];

/// Rook mobility by attacked squares of the mobility area (0..=14).
#[rustfmt::skip]
pub const MOBILITY_ROOK: [Score; 15] = [
    S( -38,  -64), S( -18,  -37), S( -19,  -16), S(  -8,  -10), S(  -6,   -2), S(  -4,    5), S(   2,    6), S(   6,   10),
    S(  10,   17), S(  11,   19), S(  10,   26), S(  19,   22), S(  12,   27), S(  20,   27), S( 133,  -29),
];

/// Queen mobility by attacked squares of the mobility area (0..=27).
#[rustfmt::skip]
pub const MOBILITY_QUEEN: [Score; 28] = [
    S( -38,  -12), S( -36,  -12), S( -30,  -59), S( -29,  -34), S( -29,  -35), S( -22,  -46), S( -21,  -30), S( -18,  -10),
    S( -14,  -13), S(  -8,  -11), S( -16,   15), S(  -9,   23), S(  -6,   38), S(  -3,   40), S( -12,   56), S(   1,   57),
    S(   1,   66), S(   7,   59), S(  36,   38), S(  26,   47), S(  41,   26), S(  65,    2), S(  80,  -15), S(  85,  -63),
    S(  50,  -28), S(  56,  -59), S(   3,  -11), S(  -5,  -70),
];

/// A pawn with another pawn of its side in front of it on the same file (counted once per
/// rear pawn).
pub const PAWN_DOUBLED: Score = S(-11, -18);

/// A pawn with no pawn of its side on either adjacent file.
pub const PAWN_ISOLATED: Score = S(-7, -11);

/// A pawn that is not isolated, has no pawn of its side beside or behind it on the
/// adjacent files, and whose stop square is attacked by an enemy pawn.
pub const PAWN_BACKWARD: Score = S(-6, -12);

/// A pawn defended by a pawn of its side or standing next to one, by its rank as seen
/// from its own side (index 0 = rank 1 ... 7 = rank 8).
#[rustfmt::skip]
pub const PAWN_CONNECTED: [Score; 8] = [
    S(   0,    0), S(   3,   -4), S(  17,    3), S(  13,    4), S(  16,   13), S(  36,   52), S(  69,   36), S(   0,    0),
];

/// A passed pawn (no enemy pawn in front of it on its own or an adjacent file, and no pawn
/// of its side in front of it on its file), by relative rank.
#[rustfmt::skip]
pub const PAWN_PASSED: [Score; 8] = [
    S(   0,    0), S( -30,  -52), S( -40,  -32), S( -25,   -7), S( -18,   16), S(  20,   25), S( 119,   73), S(   0,    0),
];

/// A passed pawn whose stop square (the square in front of it) is occupied, by relative
/// rank.
#[rustfmt::skip]
pub const PASSED_BLOCKED: [Score; 8] = [
    S(   0,    0), S(  10,  -10), S(  21,   -1), S(  -1,   -2), S(  -5,   -8), S( -38,   -1), S( -61,  -12), S(   0,    0),
];

/// A passed pawn whose path to promotion holds no piece and no square attacked by the
/// enemy, by relative rank.
#[rustfmt::skip]
pub const PASSED_FREE_PATH: [Score; 8] = [
    S(   0,    0), S( -72,   25), S( -71,   20), S( -72,   36), S(-107,   60), S( -36,   75), S( -10,  112), S(   0,    0),
];

/// A passed pawn, by the distance (0..=7, king moves) from its side's king to its stop
/// square.
#[rustfmt::skip]
pub const PASSED_OWN_KING: [Score; 8] = [
    S( -12,   44), S(   4,   44), S(  26,   29), S(  24,   23), S(  26,    8), S(  16,   13), S(  39,    8), S( -17,   44),
];

/// A passed pawn, by the distance (0..=7, king moves) from the enemy king to its stop
/// square.
#[rustfmt::skip]
pub const PASSED_ENEMY_KING: [Score; 8] = [
    S( -18,   -7), S(  49,   -6), S(  29,    3), S(   3,   23), S(  -2,   37), S(  -2,   48), S(  10,   45), S(  39,   15),
];

/// King safety, added to the defending side once per (enemy piece, attacked king-zone
/// square) pair, by attacker type: knight, bishop, rook, queen. The king zone is the
/// king's square, the squares around it and the three squares two ranks in front of it.
/// The sum is scaled by [the attacker-count scale](crate::params::KING_ATTACKERS_SCALE).
#[rustfmt::skip]
pub const KING_ZONE_ATTACK: [Score; 4] = [
    S( -10,    3), S(  -9,    1), S( -19,    9), S(  -7,  -39),
];

/// King safety: a pawn of the king's side on one of the three files around the king, one
/// rank in front of the king.
pub const KING_SHIELD_NEAR: Score = S(13, -4);

/// King safety: as [`KING_SHIELD_NEAR`], two ranks in front of the king.
pub const KING_SHIELD_FAR: Score = S(7, -7);

/// King safety: one of the files around the king has no pawn of the king's side.
pub const KING_SEMI_OPEN_FILE: Score = S(-18, 4);

/// King safety: one of the files around the king has no pawn at all (on top of
/// [`KING_SEMI_OPEN_FILE`]).
pub const KING_OPEN_FILE: Score = S(-5, -15);

/// A threat: an enemy piece attacked by one of our pawns, by the attacked piece's type
/// (pawn, knight, bishop, rook, queen, king).
#[rustfmt::skip]
pub const THREAT_BY_PAWN: [Score; 6] = [
    S(  -4,    3), S(  70,   27), S(  64,   40), S(  75,   19), S(  48,    9), S(   0,    0),
];

/// A threat: an enemy piece attacked by one of our knights or bishops, by its type.
#[rustfmt::skip]
pub const THREAT_BY_MINOR: [Score; 6] = [
    S(  -6,   11), S(  13,   17), S(  44,   26), S(  62,   16), S(  45,   32), S(   0,    0),
];

/// A threat: an enemy piece attacked by one of our rooks, by its type.
#[rustfmt::skip]
pub const THREAT_BY_ROOK: [Score; 6] = [
    S( -20,   27), S(  -5,   27), S(   5,   17), S(   0,    0), S(  78,   11), S(   0,    0),
];

/// A threat: an enemy piece attacked by our queen, by its type.
#[rustfmt::skip]
pub const THREAT_BY_QUEEN: [Score; 6] = [
    S(  -3,   27), S(   3,   11), S(   1,   34), S(   2,   30), S(   0,    0), S(   0,    0),
];

/// A threat: an enemy piece other than a pawn attacked by our king and not defended.
pub const THREAT_BY_KING: Score = S(84, 3);

/// An enemy piece other than a pawn that we attack and the enemy does not defend.
pub const HANGING: Score = S(21, 6);

/// Bishops on both square colours.
pub const BISHOP_PAIR: Score = S(15, 57);

/// A knight on an outpost: ranks 4 to 6 (its side's view), defended by a pawn of its side,
/// and no enemy pawn can ever attack the square.
pub const KNIGHT_OUTPOST: Score = S(20, 8);

/// A bishop on an outpost (as [`KNIGHT_OUTPOST`]).
pub const BISHOP_OUTPOST: Score = S(19, 7);

/// A rook on a file without pawns.
pub const ROOK_OPEN_FILE: Score = S(33, -18);

/// A rook on a file with enemy pawns but none of its own.
pub const ROOK_SEMI_OPEN_FILE: Score = S(21, -3);

/// A rook on the seventh rank (its side's view).
pub const ROOK_ON_SEVENTH: Score = S(42, 1);

/// The side to move's bonus.
pub const TEMPO: Score = S(25, 7);
