#!/usr/bin/env python3
"""Paired-by-opening difference over several blocks.

    scripts/paired_by_opening.py PLAYER_A PLAYER_B A1.pgn B1.pgn [A2.pgn B2.pgn ...]

Each (Ai, Bi) pair is one block: both players' games against a common opponent from the same
openings (FEN tag), each opening played with both colours. Openings are keyed by (block, FEN), so
a FEN that two blocks share stays two openings. Prints B minus A per opening, its standard error
and the difference in Elo at the pooled score (delta method), per block and over all blocks.
"""
import math, re, statistics, sys
from collections import defaultdict

def per_opening(path, player, block):
    pts, games = defaultdict(float), defaultdict(int)
    for g in open(path).read().split('[Event ')[1:]:
        tag = dict(re.findall(r'\[(\w+) "([^"]*)"\]', g))
        res = tag['Result']
        if res not in ('1-0', '0-1', '1/2-1/2'):
            continue
        w = {'1-0': 1.0, '0-1': 0.0, '1/2-1/2': 0.5}[res]
        if tag['White'] == player: p = w
        elif tag['Black'] == player: p = 1 - w
        else: sys.exit(f'{path}: {player} not in a game')
        pts[(block, tag['FEN'])] += p; games[(block, tag['FEN'])] += 1
    return pts, games

def report(label, a, ga, b, gb):
    common = [f for f in a if f in b and ga[f] == gb[f]]
    d = [b[f] - a[f] for f in common]
    n = len(common)
    k = statistics.mean(ga[f] for f in common)
    mean, se = statistics.mean(d), statistics.stdev(d) / math.sqrt(n)
    r = statistics.correlation([a[f] for f in common], [b[f] for f in common])
    s = sum(a[f] + b[f] for f in common) / (2 * sum(ga[f] for f in common))
    slope = 400 / (math.log(10) * s * (1 - s))
    print(f'{label}: A {sum(a.values())} in {sum(ga.values())} games, B {sum(b.values())} in {sum(gb.values())}; '
          f'{n} openings, B - A {mean:+.3f} an opening, SE {se:.3f}, z {mean/se:+.2f}, r {r:+.2f}; '
          f'about {mean/k*slope:+.1f} +- {1.96*se/k*slope:.1f} Elo at pooled score {s:.3f}')

pa, pb, files = sys.argv[1], sys.argv[2], sys.argv[3:]
A, GA, B, GB = {}, {}, {}, {}
for i in range(0, len(files), 2):
    a, ga = per_opening(files[i], pa, i // 2)
    b, gb = per_opening(files[i + 1], pb, i // 2)
    report(f'block {i // 2 + 1}', a, ga, b, gb)
    A.update(a); GA.update(ga); B.update(b); GB.update(gb)
if len(files) > 2:
    report('all', A, GA, B, GB)
