#!/usr/bin/env python3
"""Driver of scripts/openbench-local.sh (run there, in the OpenBench checkout, with its venv).

Creates through the web forms an SPRT test ($DEV against $BASE at N=$NODES) and an SPSA tune,
waits for the worker, and checks the results: the SPRT's W/D/L on the server against the W/D/L
counted from the PGNs the server stores, the tune's values read back in the format of Cutoff's
`spsa` UCI command. Results go to $OUT.
"""

import bz2
import io
import json
import os
import re
import subprocess
import sys
import tarfile
import time

import requests

sys.path.insert(0, os.getcwd())
os.environ.setdefault('DJANGO_SETTINGS_MODULE', 'OpenSite.settings')
import django  # noqa: E402

django.setup()
from OpenBench.models import PGN, Result, Test  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SERVER, OUT = os.environ['OB_SERVER'], os.environ['OUT']
BOOK = 'cutoff_8moves_v3_sample3000.epd'
ENV = os.environ


def log(*args):
    print(time.strftime('%H:%M:%S'), *args, flush=True)


def bench_of(repo, sha):
    """The node count of the last `Bench:` line at or before `sha`."""
    text = subprocess.run(['git', '-C', repo, 'log', '--grep', '^Bench:', '-1', '--format=%B', sha],
                          capture_output=True, text=True, check=True).stdout
    return re.findall(r'^Bench: (\d+)', text, re.M)[-1]


def session():
    s = requests.Session()
    s.get(SERVER + '/login/')
    s.post(SERVER + '/login/', data={'username': ENV['OB_USER'], 'password': ENV['OB_PASS'],
                                     'csrfmiddlewaretoken': s.cookies['csrftoken']})
    return s


def post_form(s, path, fields):
    before = Test.objects.order_by('-id').first()
    fields['csrfmiddlewaretoken'] = s.cookies['csrftoken']
    r = s.post(SERVER + path, data=fields)
    test = Test.objects.order_by('-id').first()
    if test is None or (before and test.id == before.id):
        sys.exit('creating a workload failed: HTTP %d\n%s' % (r.status_code, r.text[-3000:]))
    return test


COMMON = {
    'dev_engine': 'Cutoff', 'dev_repo': 'https://github.com/local/Cutoff', 'dev_network': '',
    'dev_options': 'Threads=1 Hash=16', 'dev_time_control': 'N=%s' % ENV['NODES'],
    'book_name': BOOK, 'priority': '0', 'throughput': '1000',
    'syzygy_wdl': 'DISABLED', 'syzygy_adj': 'DISABLED',
    'win_adj': 'movecount=3 score=400', 'draw_adj': 'movenumber=40 movecount=8 score=10',
    'scale_method': 'BASE', 'scale_nps': '1200000', 'info': '',
}


def wait(predicate, what, every=1.0, limit=3600):
    start = time.time()
    while not (value := predicate()):
        if time.time() - start > limit:
            sys.exit('timed out waiting for ' + what)
        time.sleep(every)
    return value


def pgn_games(test_id):
    """(file name, headers) of every game in the server's PGN archive of the test."""
    tar_path = os.path.join('Media', 'PGNs', '%d.pgn.tar' % test_id)
    for _ in range(12):  # the API refuses while the worker is still recent on the test
        api = requests.get('%s/api/pgns/%d/' % (SERVER, test_id))
        if not api.headers.get('content-type', '').startswith('application/json'):
            break
        time.sleep(10)
    if api.headers.get('content-type', '').startswith('application/json'):
        log('api/pgns answered', api.text.strip(), '- reading the archive', tar_path)
        data = open(tar_path, 'rb').read()
    else:
        data = api.content
        log('downloaded', len(data), 'bytes from', api.url)
    open(os.path.join(OUT, 'sprt-%d.pgn.tar' % test_id), 'wb').write(data)
    games = []
    with tarfile.open(fileobj=io.BytesIO(data)) as tar:
        for member in tar.getmembers():
            text = bz2.decompress(tar.extractfile(member).read()).decode()
            open(os.path.join(OUT, member.name.replace('.bz2', '')), 'w').write(text)
            for block in re.split(r'\n\s*\n(?=\[Event )', text.strip()):
                headers = dict(re.findall(r'^\[(\w+) "([^"]*)"\]', block, re.M))
                if headers:
                    games.append((member.name, headers))
    return games


def sprt():
    dev_sha, base_sha = ENV['DEV_SHA'], ENV['BASE_SHA']
    games = int(ENV['SPRT_GAMES'])
    fields = dict(COMMON)
    fields.update({
        'dev_branch': dev_sha, 'dev_bench': bench_of(ROOT, dev_sha),
        'base_engine': 'Cutoff', 'base_repo': 'https://github.com/local/Cutoff', 'base_network': '',
        'base_branch': base_sha, 'base_bench': bench_of(ROOT, base_sha),
        'base_options': fields['dev_options'], 'base_time_control': fields['dev_time_control'],
        'test_mode': 'SPRT', 'test_bounds': '[0.00, 5.00]', 'test_confidence': '[0.10, 0.05]',
        'test_max_games': '', 'upload_pgns': 'VERBOSE', 'workload_size': str(games // 4),
    })
    test = post_form(session(), '/test/new/', fields)
    log('SPRT test %d created: %s (bench %s) vs %s (bench %s), approved=%s'
        % (test.id, dev_sha[:8], fields['dev_bench'], base_sha[:8], fields['base_bench'], test.approved))

    # One workload of `games` games. Once the worker holds it, withdraw the approval so that no
    # second workload is handed out: the worker finishes this one (its reports still count), then
    # uploads its PGN; the test is stopped at that boundary, so every game played is counted.
    wait(lambda: Result.objects.filter(test_id=test.id).exists(), 'the worker to take the test')
    Test.objects.filter(id=test.id).update(approved=False)
    log('worker took the workload; approval withdrawn so that it is the only one')
    wait(lambda: PGN.objects.filter(test_id=test.id).exists(), 'the PGN upload', limit=5400)
    Test.objects.filter(id=test.id).update(finished=True, approved=True)
    wait(lambda: not PGN.objects.filter(test_id=test.id, processed=False).exists(), 'the archive', every=2)
    test = Test.objects.get(id=test.id)
    server = {'games': test.games, 'wins': test.wins, 'draws': test.draws, 'losses': test.losses,
              'penta': [test.LL, test.LD, test.DD, test.DW, test.WW], 'llr': test.currentllr}
    log('server:', server)

    wins = draws = losses = 0
    pairs = {}
    for name, h in pgn_games(test.id):
        dev_white = h['White'].endswith('-dev')
        score = {'1-0': 1.0, '0-1': 0.0, '1/2-1/2': 0.5}[h['Result']]
        score = score if dev_white else 1.0 - score
        wins, draws, losses = wins + (score == 1.0), draws + (score == 0.5), losses + (score == 0.0)
        pairs.setdefault((name, h['Round'].split('.')[0]), []).append(score)
    penta = [0] * 5
    for scores in pairs.values():
        if len(scores) == 2:
            penta[int(2 * sum(scores))] += 1
    pgn = {'games': wins + draws + losses, 'wins': wins, 'draws': draws, 'losses': losses,
           'penta': penta}
    log('PGNs:  ', pgn)
    page = requests.get('%s/api/workload/%d/info/' % (SERVER, test.id)).json()['info']
    same = all(server[k] == pgn[k] for k in pgn)
    json.dump({'test': test.id, 'server': server, 'pgn': pgn, 'equal': same, 'api_info': page},
              open(os.path.join(OUT, 'sprt.json'), 'w'), indent=2, default=str)
    log('SPRT server == PGNs:', same)
    screenshot('/test/%d/' % test.id, 'openbench-sprt.png')
    return same


def spsa_lines(names):
    text = open(os.path.join(ROOT, 'crates', 'search', 'src', 'params.rs')).read()
    lines = []
    for name in names:
        d, lo, hi, c = re.search(r'\b%s = (-?\d+), (-?\d+), (-?\d+), ([\d.]+);' % name, text).groups()
        lines.append('%s, int, %s, %s, %s, %g, 0.002' % (name, d, lo, hi, float(c)))
    return lines


def spsa():
    names = ENV['SPSA_PARAMS'].split()
    inputs = spsa_lines(names)
    fields = dict(COMMON)
    fields.update({
        'dev_branch': 'openbench-tune', 'dev_bench': bench_of(ENV['OPENBENCH_LOCAL_GIT'], ENV['TUNE_SHA']),
        'spsa_inputs': '\n'.join(inputs), 'spsa_reporting_type': 'BATCHED',
        'spsa_distribution_type': 'SINGLE', 'spsa_alpha': '0.602', 'spsa_gamma': '0.101',
        'spsa_A_ratio': '0.1', 'spsa_iterations': ENV['SPSA_ITERATIONS'],
        'spsa_pairs_per': ENV['SPSA_PAIRS'], 'upload_pgns': 'FALSE',
    })
    test = post_form(session(), '/tune/new/', fields)
    log('SPSA tune %d created on %s:\n  %s' % (test.id, ENV['TUNE_SHA'][:8], '\n  '.join(inputs)))
    wait(lambda: Test.objects.get(id=test.id).finished, 'the tune', every=5, limit=5400)
    test = Test.objects.get(id=test.id)
    iterations = test.games // (2 * int(ENV['SPSA_PAIRS']))
    outputs = requests.get('%s/api/spsa/%d/outputs/' % (SERVER, test.id)).text.strip()
    digest = requests.get('%s/api/spsa/%d/digest/' % (SERVER, test.id)).text.strip()
    log('tune finished: %d games, %d iterations; outputs:\n%s' % (test.games, iterations, outputs))

    # Back into the format of the `spsa` command: the tuned value becomes the default.
    tuned = dict(line.split(', ') for line in outputs.splitlines())
    back = []
    for line in inputs:
        f = line.split(', ')
        f[2] = tuned[f[0]]
        back.append(', '.join(f))

    # Against the tuned engine the worker built: its `spsa` lines (defaults) differ from the
    # read-back lines in the value only, and each tuned value is in its range.
    binary = os.path.join(ENV['OB_WORKER'], 'Engines', 'Cutoff-%s' % ENV['TUNE_SHA'][:8].upper())
    printed = subprocess.run([binary], input='spsa\nquit\n', capture_output=True, text=True).stdout
    engine = [l for l in printed.splitlines() if l.split(',')[0] in tuned]
    fields = lambda l: [f for i, f in enumerate(l.split(', ')) if i != 2]
    ok = [fields(l) for l in back] == [fields(l) for l in engine] and iterations >= 1 and all(
        int(f[3]) <= int(f[2]) <= int(f[4]) for f in (l.split(', ') for l in back))
    log('read back:\n%s\nengine `spsa`:\n%s' % ('\n'.join(back), '\n'.join(engine)))
    json.dump({'test': test.id, 'games': test.games, 'iterations': iterations, 'inputs': inputs,
               'outputs': outputs, 'digest': digest, 'read_back': back, 'engine_spsa': engine,
               'format_ok': ok}, open(os.path.join(OUT, 'spsa.json'), 'w'), indent=2)
    screenshot('/tune/%d/' % test.id, 'openbench-spsa.png')
    return ok


def screenshot(path, name):
    for chrome in ('chromium', 'chromium-browser'):
        try:
            profile = subprocess.run(['mktemp', '-d'], capture_output=True, text=True).stdout.strip()
            subprocess.run([chrome, '--headless', '--no-sandbox', '--disable-gpu',
                            '--disable-background-networking', '--disable-component-update',
                            '--disable-sync', '--no-first-run', '--user-data-dir=' + profile,
                            '--window-size=1400,1800', '--screenshot=' + os.path.join(OUT, name),
                            SERVER + path], capture_output=True, timeout=120)
            subprocess.run(['rm', '-rf', profile])
            log('screenshot', name)
            return
        except (FileNotFoundError, subprocess.TimeoutExpired):
            continue
    log('no chromium: no screenshot of', path)


if __name__ == '__main__':
    what = sys.argv[1:] or ['sprt', 'spsa']
    ok = all([{'sprt': sprt, 'spsa': spsa}[w]() for w in what])
    sys.exit(0 if ok else 1)
