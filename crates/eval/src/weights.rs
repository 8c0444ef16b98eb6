//! The tuned weights of the evaluation. GENERATED FILE: do not edit by hand; it is written by
//! `cargo xtask tune` (see `docs/tuning.md`), and its layout comes from `params.rs`.
//!
//! Made by `cargo xtask tune --lambda 0.5 --epochs 1500 --lr 2 --l2 1e-10 --validation 0.1 --seed 1 --init material --min-positions 200`
//! on cutoff-selfplay-scored.epd (817056 positions, 81706 of them for validation), K = 0.005223.
//! Loss (mean squared error of sigmoid(K * eval) against the target) with the weights compiled
//! into the tuner's build -> with these:
//! training 0.025138 -> 0.025140, validation 0.025275 -> 0.025278;
//! validation against the game results alone 0.085612 -> 0.085636.

use crate::score::{S, Score};

/// Material value of each piece type, indexed by [`PieceType`](cutoff_board::PieceType)
/// (pawn, knight, bishop, rook, queen, king). The king's entry is never used.
#[rustfmt::skip]
pub const MATERIAL: [Score; 6] = [
    S(  74,  107), S( 342,  238), S( 400,  289), S( 529,  465), S(1351,  764), S(   0,    0),
];

/// Pawn piece-square table. Each table is written the way a board is drawn from White's
/// side: the first row is rank 8, each row goes from the a-file to the h-file; a black
/// piece reads the square mirrored vertically. Ranks 1 and 8 of this table are never used.
#[rustfmt::skip]
pub const PSQT_PAWN: [Score; 64] = [
    S(   0,    0), S(   0,    0), S(   0,    0), S(   0,    0), S(   0,    0), S(   0,    0), S(   0,    0), S(   0,    0),
    S(  53,    7), S(  50,   36), S(  -7,   30), S(  19,   40), S(  38,   40), S(   7,    9), S(  -1,   81), S(  14,   53),
    S( -14,   42), S( -18,   39), S(  -9,   41), S(   5,    8), S(   1,   18), S(  -7,   52), S(  16,   61), S( -26,   41),
    S( -16,   -6), S(  21,  -11), S(  12,  -17), S(  12,  -29), S(  12,  -27), S(  17,  -33), S(   4,  -18), S( -33,    2),
    S( -29,  -15), S( -13,  -15), S(  -1,  -25), S(  17,  -37), S(  12,  -28), S(  12,  -35), S(  -6,  -13), S( -22,  -19),
    S( -39,  -13), S( -18,  -22), S(  -7,  -31), S( -17,  -17), S(  -5,  -24), S(  -5,  -27), S(  10,  -22), S( -16,  -18),
    S( -35,   -2), S(  -1,  -18), S( -13,  -21), S( -15,  -18), S( -13,  -15), S(  11,  -15), S(  27,  -11), S( -18,  -20),
    S(   0,    0), S(   0,    0), S(   0,    0), S(   0,    0), S(   0,    0), S(   0,    0), S(   0,    0), S(   0,    0),
];

/// Knight piece-square table (layout as [`PSQT_PAWN`]).
#[rustfmt::skip]
pub const PSQT_KNIGHT: [Score; 64] = [
    S(-181,  -27), S( -23,   -8), S( -34,    6), S( -17,   -4), S(  49,    8), S( -54,    5), S( -46,   10), S( -47,  -18),
    S( -39,   18), S( -54,   -7), S(  36,   15), S(   9,    8), S( -15,   15), S(  40,  -17), S(   8,    8), S( -20,   22),
    S( -19,   22), S(   7,   -7), S( -13,   21), S(  42,    5), S(  27,   32), S(  73,   -2), S(  21,   10), S(  -3,  -31),
    S(  -6,   -2), S(  23,    8), S(  25,   11), S(  29,   27), S(  26,   18), S(  23,    4), S(  21,    4), S(  24,  -16),
    S(  12,   -8), S(  17,   16), S(  39,    2), S(  21,   29), S(  27,   29), S(  26,   10), S(  51,  -10), S(   7,   18),
    S( -18,  -32), S(  12,  -17), S(   3,   20), S(  18,    4), S(  18,    1), S(  18,    8), S(  40,  -18), S( -18,  -12),
    S(  14,   -2), S(  -2,   12), S( -10,  -19), S(   4,    8), S(  11,    8), S(   8,  -19), S( -15,  -28), S( -16,    6),
    S( -50,  -83), S( -23,  -16), S( -23,   -8), S( -27,   16), S( -18,   19), S(   4,  -36), S( -23,   -1), S(  -3,  -54),
];

/// Bishop piece-square table (layout as [`PSQT_PAWN`]).
#[rustfmt::skip]
pub const PSQT_BISHOP: [Score; 64] = [
    S(-117,    6), S( -20,  -15), S(  29,   -9), S( -61,   12), S( -46,   11), S( -27,   -1), S( -24,  -10), S( -34,  -11),
    S( -40,  -28), S( -11,   12), S( -13,   29), S(   1,   17), S(   9,   11), S( -17,   16), S( -52,   10), S( -31,  -38),
    S( -13,   -3), S(   5,    3), S( -40,   27), S(   9,   32), S(  34,   10), S(   5,    1), S(  22,    0), S(   2,  -20),
    S(   6,  -17), S(  12,   16), S(   5,   16), S(  17,   30), S(  30,   31), S(  15,   17), S(  11,   -2), S(  23,    5),
    S(  19,  -10), S(  17,    4), S(  19,   26), S(  23,   20), S(  34,   12), S(  20,   22), S(  11,   17), S(   7,  -22),
    S(  -6,  -11), S(  23,  -12), S(  11,    8), S(  14,   19), S(   9,   21), S(   8,   -9), S(  43,  -21), S(   0,  -25),
    S(  38,    4), S(  -2,  -13), S(  -8,   14), S(   5,    6), S(   7,    3), S(  18,  -15), S(  10,  -12), S(  11,   -5),
    S(  -1,  -61), S(  -9,   -8), S( -13,   -7), S(  10,  -10), S(   4,  -30), S( -18,   -3), S(  56,  -38), S( -12,  -31),
];

/// Rook piece-square table (layout as [`PSQT_PAWN`]).
#[rustfmt::skip]
pub const PSQT_ROOK: [Score; 64] = [
    S( -13,   29), S(  -1,   29), S(  46,   10), S(  31,   17), S(  28,    1), S(  61,   -2), S(  15,   12), S(   2,   26),
    S( -11,    6), S( -13,    6), S(  16,   -1), S(   6,    5), S(  24,    5), S(  28,  -18), S(  28,  -11), S( -35,    9),
    S( -17,   13), S(   8,    3), S( -10,   14), S(  25,   -1), S(  57,  -12), S(  67,  -11), S(  49,   -8), S(  -8,    1),
    S(   7,    7), S(  -8,    8), S(  43,   -7), S(   7,   12), S(  -7,    2), S(  37,    2), S(  -9,    4), S( -14,   10),
    S( -49,   25), S(  -9,   12), S(   3,    4), S(  -2,   13), S(  10,    9), S(  -9,   -4), S(  10,    7), S( -10,    5),
    S( -47,    6), S(   9,   -2), S( -30,   24), S( -12,    3), S( -17,   -2), S(  -4,  -16), S( -12,  -18), S( -15,  -26),
    S( -50,   -5), S(  12,  -29), S( -19,   -8), S(  -8,  -15), S( -31,    9), S( -10,    0), S(  -4,  -25), S( -74,    3),
    S( -16,  -17), S(   4,  -16), S(   8,  -15), S(   8,  -12), S(   6,  -12), S(  -5,  -18), S( -23,  -20), S( -15,  -31),
];

/// Queen piece-square table (layout as [`PSQT_PAWN`]).
#[rustfmt::skip]
pub const PSQT_QUEEN: [Score; 64] = [
    S( -14,  -14), S( -25,   12), S(  22,  -14), S( -35,   23), S(  -6,   25), S(  22,   -2), S( -16,   17), S(  13,   21),
    S(  -9,  -15), S( -23,   35), S( -10,   44), S(   9,   11), S(   8,   20), S(  26,   -1), S(  19,    3), S(  43,  -14),
    S(  -8,    1), S(  -8,  -12), S( -38,   23), S(  12,   21), S(  20,   15), S(  37,   15), S(  19,   24), S(  48,  -25),
    S( -14,   17), S( -16,   -4), S( -28,   26), S(  -8,   56), S(  -7,   57), S(  -1,   19), S(  18,  -12), S(  -5,   16),
    S( -15,    6), S( -17,   23), S( -11,   -2), S(   4,   45), S( -10,   39), S(  -6,   11), S(  26,   19), S( -10,   29),
    S(  -5,  -11), S(   4,  -13), S(  -7,   -4), S(  -8,   14), S(   8,  -21), S(   5,    4), S(  19,   -1), S(  20,  -35),
    S(  -3,  -17), S(   5,  -36), S(   0,  -26), S(  10,  -47), S(  14,    8), S(   8,  -58), S(   7,  -37), S(  50,  -49),
    S(   7,  -29), S(  30,  -66), S(  14,  -25), S(   6,  -57), S(   6,  -16), S(  14,  -42), S( -45,  -24), S( -23,  -23),
];

/// King piece-square table (layout as [`PSQT_PAWN`]).
#[rustfmt::skip]
pub const PSQT_KING: [Score; 64] = [
    S(  11,  -14), S(  28,   19), S(  16,    1), S(   2,  -10), S(   9,   -7), S(  -6,   12), S(  13,   -7), S(  -5,  -54),
    S(  17,   27), S(  34,   20), S(   0,   57), S(   8,   30), S(  -1,   24), S( -18,   -6), S(   7,   16), S(  11,   -5),
    S(   2,   47), S(   4,   39), S(  -9,   33), S(  15,   31), S( -34,   29), S( -46,   -3), S( -33,  -12), S( -39,   -1),
    S( -25,   16), S(  13,   26), S(  -9,   39), S( -17,   29), S( -39,   26), S(-100,   23), S(  -8,   -3), S( -16,   11),
    S(   0,  -17), S(  18,   -1), S(  -2,   18), S( -35,   22), S(  -2,   15), S( -15,   10), S(  10,    1), S( -17,  -19),
    S(   0,  -29), S(  45,    0), S( -74,   18), S( -37,   10), S( -39,   11), S(  17,    1), S(  -4,   -1), S(  38,  -27),
    S(  60,  -48), S(  56,  -18), S(  22,   -9), S( -20,    2), S(   2,   -5), S(  -4,   -6), S(  39,  -21), S(  16,  -25),
    S(  -1,  -41), S(  37,  -37), S(  28,  -31), S( -46,  -17), S(   8,  -37), S(   0,  -26), S(  46,  -43), S(  33,  -69),
];

/// Knight mobility, by the number of squares of the mobility area the knight attacks
/// (0..=8). A side's mobility area is every square not occupied by its own pieces and not
/// attacked by an enemy pawn.
#[rustfmt::skip]
pub const MOBILITY_KNIGHT: [Score; 9] = [
    S( -33,  -52), S( -13,  -39), S(  -8,  -17), S(   0,   -7), S(   4,   14), S(  13,   20), S(  16,   23), S(  21,   14),
    S(  31,    5),
];

/// Bishop mobility by attacked squares of the mobility area (0..=13).
#[rustfmt::skip]
pub const MOBILITY_BISHOP: [Score; 14] = [
    S( -27,  -48), S(  -5,  -34), S(   2,   -4), S(   5,    5), S(   8,   17), S(  13,   15), S(  18,   16), S(  15,   20),
    S(  15,   16), S(  13,   14), S(  18,    3), S(  10,   -4), S(  40,  -15), S( -28,  -15),
];

/// Rook mobility by attacked squares of the mobility area (0..=14).
#[rustfmt::skip]
pub const MOBILITY_ROOK: [Score; 15] = [
    S( -34,  -71), S( -14,  -38), S( -15,  -18), S(  -5,  -12), S(  -3,   -4), S(  -2,    2), S(   4,    1), S(   8,    6),
    S(  11,   13), S(  10,   16), S(   7,   25), S(  13,   22), S(   2,   28), S(   4,   32), S( 102,  -17),
];

/// Queen mobility by attacked squares of the mobility area (0..=27).
#[rustfmt::skip]
pub const MOBILITY_QUEEN: [Score; 28] = [
    S( -27,   -9), S( -24,   -7), S( -19,  -44), S( -18,  -22), S( -20,  -23), S( -13,  -35), S( -14,  -15), S( -12,    4),
    S(  -9,    1), S(  -4,    4), S( -12,   30), S(  -7,   39), S(  -5,   51), S(  -3,   51), S( -14,   65), S(  -1,   65),
    S(  -2,   70), S(   4,   61), S(  34,   35), S(  22,   40), S(  40,   11), S(  68,  -19), S(  74,  -41), S(  82,  -94),
    S(  43,  -55), S(  45,  -93), S(  -6,  -34), S( -13,  -92),
];

/// A pawn with another pawn of its side in front of it on the same file (counted once per
/// rear pawn).
pub const PAWN_DOUBLED: Score = S(-13, -17);

/// A pawn with no pawn of its side on either adjacent file.
pub const PAWN_ISOLATED: Score = S(-7, -12);

/// A pawn that is not isolated, has no pawn of its side beside or behind it on the
/// adjacent files, and whose stop square is attacked by an enemy pawn.
pub const PAWN_BACKWARD: Score = S(-6, -11);

/// A pawn defended by a pawn of its side or standing next to one, by its rank as seen
/// from its own side (index 0 = rank 1 ... 7 = rank 8).
#[rustfmt::skip]
pub const PAWN_CONNECTED: [Score; 8] = [
    S(   0,    0), S(   3,   -6), S(  16,    2), S(  12,    4), S(  15,   14), S(  32,   57), S(  61,   40), S(   0,    0),
];

/// A passed pawn (no enemy pawn in front of it on its own or an adjacent file, and no pawn
/// of its side in front of it on its file), by relative rank.
#[rustfmt::skip]
pub const PAWN_PASSED: [Score; 8] = [
    S(   0,    0), S( -37,  -53), S( -44,  -35), S( -29,  -10), S( -19,   12), S(  21,   24), S( 115,   86), S(   0,    0),
];

/// A passed pawn whose stop square (the square in front of it) is occupied, by relative
/// rank.
#[rustfmt::skip]
pub const PASSED_BLOCKED: [Score; 8] = [
    S(   0,    0), S(  14,   -9), S(  21,    1), S(   4,    2), S(  -1,   -5), S( -37,    6), S( -53,  -11), S(   0,    0),
];

/// A passed pawn whose path to promotion holds no piece and no square attacked by the
/// enemy, by relative rank.
#[rustfmt::skip]
pub const PASSED_FREE_PATH: [Score; 8] = [
    S(   0,    0), S( -93,   35), S( -85,   28), S( -86,   43), S(-114,   65), S( -36,   68), S(  -8,  103), S(   0,    0),
];

/// A passed pawn, by the distance (0..=7, king moves) from its side's king to its stop
/// square.
#[rustfmt::skip]
pub const PASSED_OWN_KING: [Score; 8] = [
    S( -33,   51), S(  -6,   49), S(  26,   32), S(  22,   25), S(  27,    9), S(  18,   13), S(  39,    9), S( -18,   45),
];

/// A passed pawn, by the distance (0..=7, king moves) from the enemy king to its stop
/// square.
#[rustfmt::skip]
pub const PASSED_ENEMY_KING: [Score; 8] = [
    S( -28,    8), S(  29,    8), S(  18,    8), S(   0,   23), S(  -1,   36), S(   3,   45), S(  15,   42), S(  44,   14),
];

/// King safety, added to the defending side once per (enemy piece, attacked king-zone
/// square) pair, by attacker type: knight, bishop, rook, queen. The king zone is the
/// king's square, the squares around it and the three squares two ranks in front of it.
/// The sum is scaled by [the attacker-count scale](crate::params::KING_ATTACKERS_SCALE).
#[rustfmt::skip]
pub const KING_ZONE_ATTACK: [Score; 4] = [
    S( -10,    3), S(  -7,    0), S( -16,    7), S(  -4,  -36),
];

/// King safety: a pawn of the king's side on one of the three files around the king, one
/// rank in front of the king.
pub const KING_SHIELD_NEAR: Score = S(11, -5);

/// King safety: as [`KING_SHIELD_NEAR`], two ranks in front of the king.
pub const KING_SHIELD_FAR: Score = S(9, -8);

/// King safety: one of the files around the king has no pawn of the king's side.
pub const KING_SEMI_OPEN_FILE: Score = S(-17, -1);

/// King safety: one of the files around the king has no pawn at all (on top of
/// [`KING_SEMI_OPEN_FILE`]).
pub const KING_OPEN_FILE: Score = S(8, -11);

/// A threat: an enemy piece attacked by one of our pawns, by the attacked piece's type
/// (pawn, knight, bishop, rook, queen, king).
#[rustfmt::skip]
pub const THREAT_BY_PAWN: [Score; 6] = [
    S(  -5,    4), S(  73,   33), S(  69,   42), S(  79,   16), S(  52,   10), S(   0,    0),
];

/// A threat: an enemy piece attacked by one of our knights or bishops, by its type.
#[rustfmt::skip]
pub const THREAT_BY_MINOR: [Score; 6] = [
    S(  -5,   13), S(  12,   16), S(  42,   24), S(  60,   20), S(  43,   30), S(   0,    0),
];

/// A threat: an enemy piece attacked by one of our rooks, by its type.
#[rustfmt::skip]
pub const THREAT_BY_ROOK: [Score; 6] = [
    S( -19,   27), S(  -4,   25), S(   6,   17), S(   0,    0), S(  78,   12), S(   0,    0),
];

/// A threat: an enemy piece attacked by our queen, by its type.
#[rustfmt::skip]
pub const THREAT_BY_QUEEN: [Score; 6] = [
    S(  -3,   26), S(   1,   14), S(   1,   40), S(   1,   32), S(   0,    0), S(   0,    0),
];

/// A threat: an enemy piece other than a pawn attacked by our king and not defended.
pub const THREAT_BY_KING: Score = S(92, 0);

/// An enemy piece other than a pawn that we attack and the enemy does not defend.
pub const HANGING: Score = S(17, 6);

/// A threat: an enemy piece other than a pawn that one of our pawns would attack after a
/// safe push (one or two squares, to a square no enemy pawn attacks and the enemy does not
/// attack unless we defend it).
pub const THREAT_PAWN_PUSH: Score = S(13, 17);

/// King safety: the enemy pawn nearest to the king's side on each of the three files
/// around the king, by that pawn's rank as seen from the king's side (index 0 = rank 1 ...
/// 7 = rank 8; files without enemy pawns count nothing).
#[rustfmt::skip]
pub const KING_PAWN_STORM: [Score; 8] = [
    S(   0,    0), S(  27,   73), S( -11,   42), S(   3,    4), S(  11,    3), S(  14,    0), S(   9,    0), S(   0,    0),
];

/// King safety: a square from which one of our pieces can give check, that such a piece
/// of ours attacks, that is empty or holds an enemy piece, and that the enemy does not
/// attack; by the checking piece: knight, bishop, rook, queen. Counted for the attacker.
#[rustfmt::skip]
pub const SAFE_CHECK: [Score; 4] = [
    S(  43,   -3), S(  17,    6), S(  87,  -24), S(  38,   -5),
];

/// King safety: a square of the enemy king zone that we attack and the enemy defends
/// with nothing but its king or queen. Counted for the attacker.
pub const KING_ZONE_WEAK: Score = S(10, -5);

/// Bishops on both square colours.
pub const BISHOP_PAIR: Score = S(7, 70);

/// A knight on an outpost: ranks 4 to 6 (its side's view), defended by a pawn of its side,
/// and no enemy pawn can ever attack the square.
pub const KNIGHT_OUTPOST: Score = S(17, 1);

/// A bishop on an outpost (as [`KNIGHT_OUTPOST`]).
pub const BISHOP_OUTPOST: Score = S(15, 6);

/// A rook on a file without pawns.
pub const ROOK_OPEN_FILE: Score = S(33, -14);

/// A rook on a file with enemy pawns but none of its own.
pub const ROOK_SEMI_OPEN_FILE: Score = S(18, 6);

/// A rook on the seventh rank (its side's view).
pub const ROOK_ON_SEVENTH: Score = S(41, 2);

/// A knight or bishop with a pawn (of either side) on the square in front of it.
pub const MINOR_BEHIND_PAWN: Score = S(5, 10);

/// A bishop on one of the two long diagonals that sees two centre squares past the pawns.
pub const BISHOP_LONG_DIAGONAL: Score = S(17, 11);

/// A knight, once per pawn of its side: how a knight's value moves with the pawns.
pub const KNIGHT_PAWNS: Score = S(3, 13);

/// A rook, once per pawn of its side: how a rook's value moves with the pawns.
pub const ROOK_PAWNS: Score = S(-2, 19);

/// The side to move's bonus.
pub const TEMPO: Score = S(25, 8);
