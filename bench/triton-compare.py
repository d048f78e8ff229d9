#!/usr/bin/env python3
"""Runs the linear-layout corpus (bench/corpus/linear.jsonl) through Triton's own LinearLayout
(the Python binding of the triton wheel, `triton._C.libtriton.linear_layout`) and through
`layoutgpu batch`, compares every answer, and times both single-threaded per op.

A development oracle, not a test dependency: it needs a Triton wheel (pip install triton==3.8.0,
which runs on a CPU). Each request first runs in a forked child, so that Triton's aborts (asserts,
report_fatal_error) are seen as aborts; there layoutgpu must answer an error (docs/linear.md,
"Deviations from Triton"). Then the requests Triton answers are timed in-process.

Run: python3 bench/triton-compare.py [corpus.jsonl] [--limit N] [--no-speed] [--fuzz N]
(--fuzz N: N small random requests instead of the corpus.)
"""
import json
import os
import random
import subprocess
import sys
import time

import triton
from triton._C.libtriton import linear_layout as lt

LL = lt.LinearLayout
ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..')


def build(x):
    names = [n for n, _ in x['outDims']]
    sizes = [s for _, s in x['outDims']]
    return LL.from_bases([(n, b) for n, b in x['bases']], names, sizes, False)


def canon(l):
    return {'bases': [[n, [list(b) for b in bs]] for n, bs in l.bases], 'outDims': [[n, s] for n, s in l.out_dims]}


OPS = {
    'll_compose': lambda a: canon(build(a[0]).compose(build(a[1]))),
    'll_product': lambda a: canon(build(a[0]) * build(a[1])),
    'll_invert': lambda a: canon(build(a[0]).invert()),
    'll_pseudoinvert': lambda a: canon(build(a[0]).pseudoinvert()),
    'll_invert_and_compose': lambda a: canon(build(a[0]).invert_and_compose(build(a[1]))),
    'll_is_surjective': lambda a: build(a[0]).is_surjective(),
    'll_is_injective': lambda a: build(a[0]).is_injective(),
    'll_is_invertible': lambda a: build(a[0]).is_invertible(),
    'll_apply': lambda a: dict(build(a[0]).apply(a[1])),
}


def triton_answer(req):
    """('ok', result) or ('abort', None), from a forked child."""
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(r)
        os.dup2(os.open(os.devnull, os.O_WRONLY), 2)  # Triton's assert messages
        try:
            res = json.dumps(['ok', OPS[req['op']](req['args'])])
        except Exception as e:  # a Python-level refusal counts as an abort
            res = json.dumps(['abort', str(e)])
        os.write(w, res.encode())
        os._exit(0)
    os.close(w)
    data = b''
    while True:
        chunk = os.read(r, 1 << 16)
        if not chunk:
            break
        data += chunk
    os.close(r)
    os.waitpid(pid, 0)
    if not data:
        return 'abort', None
    kind, val = json.loads(data)
    return kind, val if kind == 'ok' else None


def fuzz_requests(n, seed):
    """Small random requests (names shared between in- and out-dims, identity dims, zero
    out-dims, broadcasts, sizes that do not fit): the corners the corpus reaches less often."""
    rng = random.Random(seed)
    names = ['a', 'b', 'c', 'register', 'lane', 'o', 'p']

    def layout(outs=None, ins=None):
        if outs is None:
            outs = [[nm, 2 ** rng.randint(0, 3)] for nm in rng.sample(names, rng.randint(0, 3))]
        bits = sum(s.bit_length() - 1 for _, s in outs)
        if ins is None:
            ins = rng.sample(names, rng.randint(0, 3))
        bases = []
        for nm in ins:
            bs = []
            for _ in range(rng.randint(0, 3)):
                r = rng.random()
                v = 0 if r < 0.2 else (1 << rng.randrange(bits) if bits and r < 0.7 else rng.randrange(1 << bits))
                vals = []
                for _, size in outs:
                    vals.append(v % size)
                    v //= size
                bs.append(vals)
            bases.append([nm, bs])
        return {'bases': bases, 'outDims': outs}

    unary = ['ll_pseudoinvert', 'll_invert', 'll_is_surjective', 'll_is_injective', 'll_is_invertible']
    reqs = []
    for i in range(n):
        op = rng.choice(['ll_compose', 'll_product', 'll_invert_and_compose'] + unary)
        if op == 'll_compose':
            lay = layout()
            outer = layout(ins=[nm for nm, _ in lay['outDims']]) if rng.random() < 0.9 else layout()
            args = [lay, outer]
        elif op == 'll_product':
            args = [layout(), layout()]
        elif op == 'll_invert_and_compose':
            b = layout()
            outs = [[nm, s if rng.random() < 0.8 else max(1, s // 2)] for nm, s in b['outDims']]
            rng.shuffle(outs)
            a = layout(outs=outs)
            if rng.random() < 0.5 and b['bases']:
                # one of B's in-dims copied into A: often an identity dim
                nm, bs = rng.choice(b['bases'])
                idx = [[m for m, _ in b['outDims']].index(x) for x, _ in outs]
                moved = [[v[j] % outs[k][1] for k, j in enumerate(idx)] for v in bs]
                a['bases'] = [x for x in a['bases'] if x[0] != nm] + [[nm, moved]]
            args = [a, b]
        else:
            args = [layout()]
        reqs.append({'id': i, 'op': op, 'args': args})
    return reqs


def ours(reqs):
    text = ''.join(json.dumps(r) + '\n' for r in reqs)
    cmd = ['node', '--import', 'tsx', os.path.join(ROOT, 'src', 'cli', 'main.ts'), 'batch']
    p = subprocess.run(cmd, input=text, capture_output=True, text=True, cwd=ROOT)
    got = [json.loads(line) for line in p.stdout.splitlines()]
    if len(got) != len(reqs):
        sys.exit(f'layoutgpu batch answered {len(got)} of {len(reqs)} requests: {p.stderr[-400:]}')
    return got


def main():
    args = [a for a in sys.argv[1:] if not a.startswith('--')]
    limit = None
    if '--limit' in sys.argv:
        limit = int(sys.argv[sys.argv.index('--limit') + 1])
    for opt in ('--limit', '--fuzz'):
        if opt in sys.argv:
            args = [a for a in args if a != sys.argv[sys.argv.index(opt) + 1]]
    path = args[0] if args else os.path.join(ROOT, 'bench', 'corpus', 'linear.jsonl')
    if '--fuzz' in sys.argv:
        n = int(sys.argv[sys.argv.index('--fuzz') + 1])
        reqs = fuzz_requests(n, 2026)
        path = f'--fuzz {n}'
    else:
        reqs = [json.loads(line) for line in open(path)]
    reqs = [r for r in reqs if r['op'] in OPS][:limit]
    print(f'triton {triton.__version__}; {len(reqs)} requests from {path}')
    got = ours(reqs)
    bad = 0
    deviations = 0
    answered = []
    for req, g in zip(reqs, got):
        kind, val = triton_answer(req)
        if kind == 'abort':
            if g.get('ok') and req['op'] == 'll_invert' and build(req['args'][0]).is_invertible():
                deviations += 1  # documented: Triton aborts on some invertible layouts, layoutgpu answers the inverse
            elif g.get('ok'):
                bad += 1
                print('MISMATCH (Triton aborts, layoutgpu answers)', req['id'], json.dumps(g)[:200])
            continue
        answered.append(req)
        if not g.get('ok') or g['result'] != val:
            bad += 1
            print('MISMATCH', req['id'], 'triton:', json.dumps(val)[:200], 'layoutgpu:', json.dumps(g)[:200])
    aborts = len(reqs) - len(answered)
    print(f'{len(reqs) - bad}/{len(reqs)} agree ({aborts} Triton aborts, {deviations} of them invertible layouts that ll_invert answers)')
    if '--no-speed' in sys.argv:
        return
    by_op = {}
    for r in answered:
        by_op.setdefault(r['op'], []).append(r)
    for op, rs in sorted(by_op.items()):
        built = [[build(a) if isinstance(a, dict) and 'bases' in a else a for a in r['args']] for r in rs]
        f = {
            'll_compose': lambda a: a[0].compose(a[1]),
            'll_product': lambda a: a[0] * a[1],
            'll_invert': lambda a: a[0].invert(),
            'll_pseudoinvert': lambda a: a[0].pseudoinvert(),
            'll_invert_and_compose': lambda a: a[0].invert_and_compose(a[1]),
            'll_is_surjective': lambda a: a[0].is_surjective(),
            'll_is_injective': lambda a: a[0].is_injective(),
            'll_is_invertible': lambda a: a[0].is_invertible(),
            'll_apply': lambda a: a[0].apply(a[1]),
        }[op]
        best = float('inf')
        for _ in range(5):
            t0 = time.perf_counter()
            for a in built:
                f(a)
            best = min(best, time.perf_counter() - t0)
        print(f'triton {op:24s} {len(built) / best:12,.0f} /s (through the Python binding, layouts pre-built)')


if __name__ == '__main__':
    main()
