#!/usr/bin/env python3
"""Compare layoutgpu's atoms, tiled MMAs and tiled copies with CuTe's own answers, as functions.

What it does
  1. `--cutlass DIR` (DIR holds `cute/` and `cutlass/`, i.e. CUTLASS's `include/`): generates small C++17 programs
     that print, for every atom name of `layoutgpu batch` op `atoms`, CuTe's `MMA_Traits<Op>` ThrID / ALayout /
     BLayout / CLayout / Shape_MNK and `Copy_Traits<Op>` ThrID / SrcLayout / DstLayout / RefLayout (in bits), compiles
     them with g++ (host only, one translation unit per architecture group, -O0), runs them and reads the printed
     layouts (CuTe prints `_N` for static integers; the underscores are dropped).
     With `--tiled N` it also prints `make_tiled_mma(atom, Layout<...>{}, Tile<...>{})` (get_layoutA/B/C_TV,
     tile_shape) for N seeded random cases and `make_tiled_copy(Copy_Atom<Op,T>{}, thr, val)` (get_layoutS/D_TV, Tiler_MN).
  2. Without `--cutlass`, it reads the atoms' facts from `--facts` (default test/fixtures/cute-atoms.jsonl, the same
     format this script writes with `--write-fixture`).
  3. Compares every layout with layoutgpu's answer (`node bin/layoutgpu.js batch`; build first with
     `npm run --silent build`) as a function on (thread, value), with the same top-level mode sizes
     (docs/atoms.md: TV layouts are equal when their functions are). For a tiled MMA with L_K > 1 the C layout is not
     compared (docs/atoms.md documents that deviation: C with threads along K). Prints one line per mismatch and
     a count; exits 1 on a mismatch.

Provenance of the recorded facts
  test/fixtures/cute-atoms.jsonl was first written from a second, independent reading of CuTe's mma_traits_*.hpp /
  copy_traits_*.hpp (the PyPI wheel was not reachable from the machine that wrote it), so the g++ path below had not
  been run when it was committed: run it where the headers are at hand and refresh the fixture with --write-fixture.
  test/fixtures/cute-tiled.jsonl holds tiled copies, tiled MMAs and partitions as compiled CuTe printed them
  (quoted with their sources); test/atoms/cute-atoms.test.ts checks both files.

Getting CuTe's headers (only through a package registry)
  python3 -m pip download --no-deps nvidia-cutlass==4.2.0.0 -d /tmp/cutlass-whl
  cd /tmp/cutlass-whl && unzip -q nvidia_cutlass-*.whl -d x && find x -type d -name cute -path '*include*'
  # e.g. x/cutlass_library/source/include  -> pass that folder as --cutlass
  A CUTLASS checkout's include/ works too. The headers need CUDA's cuda_fp16.h / cuda_bf16.h / cuda_runtime.h:
  pass `--cuda-include $CUDA_HOME/include` where a CUDA toolkit exists, or `--stub-cuda` to write minimal stubs
  (the layout algebra and the traits do not use them beyond a few types; a stub that misses a name shows up as a
  compile error of that group, reported and skipped).

Flags used
  g++ -std=c++17 -O0 -w -I<cutlass include> [-I<cuda include> | -I<stubs>]

Run
  npm run --silent build
  python3 bench/cute-compare.py                                    # compare with the recorded facts
  python3 bench/cute-compare.py --cutlass /tmp/cutlass/include --stub-cuda --tiled 40
  python3 bench/cute-compare.py --cutlass DIR --write-fixture test/fixtures/cute-atoms.jsonl   # refresh the facts
"""
import argparse
import json
import os
import random
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


# ---------------------------------------------------------------- layouts as functions

def parse_layout(text):
    """A layout string `shape:stride` (CuTe's print, with or without `_`) as nested lists of ints."""
    toks = re.findall(r'\(|\)|,|:|-?\d+', text.replace('_', ''))
    pos = [0]

    def tup():
        t = toks[pos[0]]
        pos[0] += 1
        if t != '(':
            return int(t)
        xs = [tup()]
        while toks[pos[0]] == ',':
            pos[0] += 1
            xs.append(tup())
        pos[0] += 1  # ')'
        return xs

    shape = tup()
    if pos[0] < len(toks) and toks[pos[0]] == ':':
        pos[0] += 1
        stride = tup()
    else:  # CuTe prints a layout whose stride is the compact column-major one with it anyway; keep a fallback
        stride = None
    return shape, stride


def flat_modes(shape, stride):
    if isinstance(shape, int):
        while isinstance(stride, list) and len(stride) == 1:
            stride = stride[0]
        return [(shape, stride)]
    if len(stride) == 1 and len(shape) > 1 and isinstance(stride[0], list):
        stride = stride[0]
    out = []
    for s, d in zip(shape, stride):
        out += flat_modes(s, d)
    return out


def size_of(shape):
    if isinstance(shape, int):
        return shape
    n = 1
    for s in shape:
        n *= size_of(s)
    return n


def function_of(text):
    shape, stride = parse_layout(text)
    modes = flat_modes(shape, stride)

    def phi(x):
        off = 0
        for n, d in modes:
            off += (x % n) * d
            x //= n
        return off

    top = [size_of(s) for s in shape] if isinstance(shape, list) else [shape]
    return size_of(shape), top, phi


_memo = {}


def differs(ours, cute):
    """None when the two layouts have the same function and the same thread-mode size, else why not."""
    key = (ours, cute)
    if key in _memo:
        return _memo[key]
    na, ta, fa = function_of(ours)
    nb, tb, fb = function_of(cute)
    why = None
    if na != nb:
        why = f'size {na} vs {nb}'
    elif len(ta) > 1 and len(tb) > 1 and ta[0] != tb[0]:
        why = f'threads {ta[0]} vs {tb[0]}'
    else:
        for x in range(na):
            if fa(x) != fb(x):
                why = f'at {x}: {fa(x)} vs {fb(x)}'
                break
    _memo[key] = why
    return why


# ---------------------------------------------------------------- layoutgpu

def batch(requests):
    text = ''.join(json.dumps(r) + '\n' for r in requests)
    out = subprocess.run(['node', os.path.join(ROOT, 'bin', 'layoutgpu.js'), 'batch'], input=text, capture_output=True,
                         text=True, cwd=ROOT, check=True).stdout
    return {r['id']: r for r in map(json.loads, out.splitlines())}


# ---------------------------------------------------------------- C++ generation

def mma_type(name):
    """The C++ type of an MMA atom name of the table."""
    if name == 'UniversalFMA':
        return 'UniversalFMA<float,float,float,float>'
    if name == 'SM120_16x8x32_TN':
        return 'SM120_16x8x32_TN<cutlass::float_e4m3_t,cutlass::float_e4m3_t,float>'
    m = re.match(r'SM90_64x\d+x\d+_(\w+?)_(SS|RS)(_TN)?(_SATURATE)?$', name)
    if m:
        if m.group(3) is None:
            return f'{name}<GMMA::Major::K,GMMA::Major::K>'
        if m.group(1).startswith('S32'):
            return name
        return f'{name}<>'
    return name


def copy_type(name):
    return name


def group_of(name):
    m = re.match(r'(SM\d+)_64x(\d+)x', name)
    if m:
        return f'SM90_GMMA_N{m.group(2)}'
    m = re.match(r'(SM\d+)_', name)
    return m.group(1) if m else 'universal'


HEADER = '#include <cstdio>\n#include <cute/tensor.hpp>\n#include <cute/atom/mma_atom.hpp>\n#include <cute/atom/copy_atom.hpp>\nusing namespace cute;\n'


def print_line(tag, field, expr):
    return f'  printf("%s|%s|", "{tag}", "{field}"); print({expr}); printf("\\n");\n'


def atom_program(mma_names, copy_names):
    body = ''
    for n in mma_names:
        t = f'MMA_Traits<{mma_type(n)}>'
        body += print_line(n, 'thrID', f'typename {t}::ThrID{{}}')
        body += print_line(n, 'shapeMNK', f'typename {t}::Shape_MNK{{}}')
        for f in 'ABC':
            body += print_line(n, f, f'typename {t}::{f}Layout{{}}')
    for n in copy_names:
        t = f'Copy_Traits<{copy_type(n)}>'
        for f, member in [('thrID', 'ThrID'), ('src', 'SrcLayout'), ('dst', 'DstLayout'), ('ref', 'RefLayout')]:
            body += print_line(n, f, f'typename {t}::{member}{{}}')
    return HEADER + 'int main() {\n' + body + '  return 0;\n}\n'


STUBS = {
    'cuda_runtime.h': '#pragma once\n#include <cstdint>\n#include <cstddef>\n',
    'cuda_runtime_api.h': '#pragma once\n',
    'cuda.h': '#pragma once\n',
    'cuda_fp16.h': '#pragma once\nstruct __half { unsigned short x; };\nstruct __half2 { __half x, y; };\n',
    'cuda_bf16.h': '#pragma once\nstruct __nv_bfloat16 { unsigned short x; };\nstruct __nv_bfloat162 { __nv_bfloat16 x, y; };\n',
    'cuda_fp8.h': '#pragma once\n',
    'vector_types.h': '#pragma once\n',
}


def compile_and_run(src, includes, workdir, tag):
    cpp = os.path.join(workdir, f'{tag}.cpp')
    exe = os.path.join(workdir, f'{tag}.out')
    with open(cpp, 'w') as f:
        f.write(src)
    cmd = ['g++', '-std=c++17', '-O0', '-w'] + [f'-I{i}' for i in includes] + [cpp, '-o', exe]
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0:
        sys.stderr.write(f'[{tag}] compile failed:\n' + '\n'.join(r.stderr.splitlines()[:15]) + '\n')
        return None
    return subprocess.run([exe], capture_output=True, text=True, check=True).stdout


def read_prints(text):
    out = {}
    for line in text.splitlines():
        parts = line.split('|', 2)
        if len(parts) == 3:
            out.setdefault(parts[0], {})[parts[1]] = parts[2].replace('_', '').strip()
    return out


# ---------------------------------------------------------------- tiled cases

TILED_ATOMS = ['SM80_16x8x16_F32F16F16F32_TN', 'SM80_16x8x8_F32TF32TF32F32_TN', 'SM80_8x8x4_F64F64F64F64_TN',
               'SM70_8x8x4_F32F16F16F32_NT', 'SM75_8x8x16_S32S8S8S32_TN', 'UniversalFMA', 'SM80_16x8x32_S32S8S8S32_TN']
# (copy op, value bits, C++ value type, the atom's values per thread: a tiled copy's values per thread are a multiple)
TILED_COPIES = [('UniversalCopy<uint32_t>', 16, 'half_t', 2), ('UniversalCopy<uint128_t>', 16, 'half_t', 8),
                ('SM75_U32x4_LDSM_N', 16, 'half_t', 8), ('SM75_U16x8_LDSM_T', 16, 'half_t', 8), ('UniversalCopy<uint64_t>', 32, 'float', 2)]


def tiled_cases(count, seed):
    rnd = random.Random(seed)
    cases = []
    for i in range(count):
        atom = rnd.choice(TILED_ATOMS)
        lmnk = [rnd.choice([1, 1, 2, 4]), rnd.choice([1, 2, 4]), rnd.choice([1, 1, 1, 2])]
        mnk = batch([{'id': 0, 'op': 'mma_atom', 'args': [atom]}])[0]['result']['shapeMNK']
        base = [int(x) for x in re.findall(r'\d+', mnk)]
        perm = None
        if rnd.random() < 0.5:
            perm = [b * l * rnd.choice([1, 1, 2]) for b, l in zip(base, lmnk)]
        cases.append({'id': f'tm{i}', 'atom': atom, 'L': lmnk, 'perm': perm})
    copies = []
    for i in range(max(1, count // 4)):
        op, bits, ctype, atom_vals = rnd.choice(TILED_COPIES)
        tm, tn = rnd.choice([(32, 1), (8, 4), (4, 8), (16, 2), (32, 4)])
        vm, vn = rnd.choice([(1, 1), (2, 1), (1, 2)])
        vn *= atom_vals
        copies.append({'id': f'tc{i}', 'atom': op, 'bits': bits, 'ctype': ctype, 'thr': (tm, tn), 'val': (vm, vn)})
    return cases, copies


def tiled_program(cases, copies):
    body = ''
    for c in cases:
        lm, ln, lk = c['L']
        tile = ', Tile<' + ','.join(f'_{p}' for p in c['perm']) + '>{}' if c['perm'] else ''
        body += f'  {{ auto m = make_tiled_mma({mma_type(c["atom"])}{{}}, Layout<Shape<_{lm},_{ln},_{lk}>>{{}}{tile});\n'
        for f in 'ABC':
            body += '  ' + print_line(c['id'], f, f'm.get_layout{f}_TV()')
        body += '  ' + print_line(c['id'], 'tileShape', 'tile_shape(m)') + '  }\n'
    for c in copies:
        (tm, tn), (vm, vn) = c['thr'], c['val']
        body += (f'  {{ auto t = make_tiled_copy(Copy_Atom<{copy_type(c["atom"])},{c["ctype"]}>{{}}, '
                 f'Layout<Shape<_{tm},_{tn}>>{{}}, Layout<Shape<_{vm},_{vn}>>{{}});\n')
        body += '  ' + print_line(c['id'], 'S', 't.get_layoutS_TV()')
        body += '  ' + print_line(c['id'], 'D', 't.get_layoutD_TV()')
        body += '  ' + print_line(c['id'], 'tiler', 'typename decltype(t)::Tiler_MN{}') + '  }\n'
    return HEADER + 'int main() {\n' + body + '  return 0;\n}\n'


# ---------------------------------------------------------------- main

def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--cutlass', help="CUTLASS include folder (holds cute/ and cutlass/)")
    ap.add_argument('--cuda-include', help='a CUDA toolkit include folder')
    ap.add_argument('--stub-cuda', action='store_true', help='write minimal CUDA header stubs instead')
    ap.add_argument('--facts', default=os.path.join(ROOT, 'test', 'fixtures', 'cute-atoms.jsonl'))
    ap.add_argument('--write-fixture', help='write the compiled facts in the fixture format to this path')
    ap.add_argument('--tiled', type=int, default=0, help='number of seeded random tiled MMA cases (needs --cutlass)')
    ap.add_argument('--seed', type=int, default=1)
    args = ap.parse_args()

    names = batch([{'id': 0, 'op': 'atoms', 'args': []}])[0]['result']
    facts = {}
    if args.cutlass:
        work = tempfile.mkdtemp(prefix='cute-compare-')
        includes = [args.cutlass]
        if args.cuda_include:
            includes.append(args.cuda_include)
        if args.stub_cuda:
            stub = os.path.join(work, 'stubs')
            os.makedirs(stub)
            for fn, text in STUBS.items():
                with open(os.path.join(stub, fn), 'w') as f:
                    f.write(text)
            includes.append(stub)
        groups = {}
        for n in names['mma']:
            groups.setdefault(group_of(n), ([], []))[0].append(n)
        for n in names['copy']:
            groups.setdefault('copy_' + group_of(n), ([], []))[1].append(n)
        for tag, (mmas, copies) in sorted(groups.items()):
            out = compile_and_run(atom_program(mmas, copies), includes, work, tag)
            if out is None:
                continue
            for n, f in read_prints(out).items():
                facts[('mma_atom' if n in mmas else 'copy_atom', n)] = f
        if args.write_fixture:
            with open(args.write_fixture, 'w') as f:
                for (op, n), v in sorted(facts.items()):
                    f.write(json.dumps({'op': op, 'name': n, 'cute': v, 'source': 'compiled CuTe'}) + '\n')
    else:
        with open(args.facts) as f:
            for line in f:
                if line.strip():
                    p = json.loads(line)
                    facts[(p['op'], p['name'])] = p['cute']

    bad = 0
    reqs = [{'id': f'{op}:{n}', 'op': op, 'args': [n]} for (op, n) in facts]
    answers = batch(reqs)
    fields = {'mma_atom': [('thrID', 'thrID'), ('layoutA_TV', 'A'), ('layoutB_TV', 'B'), ('layoutC_TV', 'C')],
              'copy_atom': [('thrID', 'thrID'), ('layoutSrc', 'src'), ('layoutDst', 'dst'), ('layoutRef', 'ref')]}
    for (op, n), cute in facts.items():
        r = answers[f'{op}:{n}']
        if not r['ok']:
            print(f'ERROR {n}: {r["error"]}')
            bad += 1
            continue
        for ours, theirs in fields[op]:
            why = differs(r['result'][ours], cute[theirs])
            if why:
                print(f'MISMATCH {n} {ours}: ours {r["result"][ours]} CuTe {cute[theirs]} ({why})')
                bad += 1
        if op == 'mma_atom' and r['result']['shapeMNK'] != cute['shapeMNK']:
            print(f'MISMATCH {n} shapeMNK: ours {r["result"]["shapeMNK"]} CuTe {cute["shapeMNK"]}')
            bad += 1
    missing = [n for k in ('mma', 'copy') for n in names[k] if (k + '_atom', n) not in facts]
    print(f'atoms: {len(facts)} compared, {bad} mismatches, {len(missing)} without CuTe facts')

    if args.tiled and args.cutlass:
        cases, copies = tiled_cases(args.tiled, args.seed)
        out = compile_and_run(tiled_program(cases, copies), includes, work, 'tiled')
        printed = read_prints(out or '')
        reqs = []
        for c in cases:
            arg = {'atom': c['atom'], 'layout': '({},{},{})'.format(*c['L'])}
            if c['perm']:
                arg['permutation'] = '({},{},{})'.format(*c['perm'])
            reqs.append({'id': c['id'], 'op': 'make_tiled_mma', 'args': [arg]})
        for c in copies:
            arg = {'atom': c['atom'], 'bits': c['bits'], 'thr': '({},{})'.format(*c['thr']), 'val': '({},{})'.format(*c['val'])}
            reqs.append({'id': c['id'], 'op': 'make_tiled_copy', 'args': [arg]})
        answers = batch(reqs)
        tbad = 0
        for c in cases:
            got, cute = answers[c['id']], printed.get(c['id'])
            if cute is None or not got['ok']:
                print(f'SKIP {c["id"]} {c}: {"no CuTe print" if cute is None else got["error"]}')
                continue
            for f in 'AB' + ('' if c['L'][2] > 1 else 'C'):
                why = differs(got['result'][f'layout{f}_TV'], cute[f])
                if why:
                    print(f'MISMATCH {c["id"]} {c} {f}: ours {got["result"][f"layout{f}_TV"]} CuTe {cute[f]} ({why})')
                    tbad += 1
            if got['result']['tileShape'] != cute['tileShape']:
                print(f'MISMATCH {c["id"]} tileShape: ours {got["result"]["tileShape"]} CuTe {cute["tileShape"]}')
                tbad += 1
        for c in copies:
            got, cute = answers[c['id']], printed.get(c['id'])
            if cute is None or not got['ok']:
                print(f'SKIP {c["id"]} {c}: {"no CuTe print" if cute is None else got["error"]}')
                continue
            for ours, theirs in [('layoutS_TV', 'S'), ('layoutD_TV', 'D')]:
                why = differs(got['result'][ours], cute[theirs])
                if why:
                    print(f'MISMATCH {c["id"]} {c} {ours}: ours {got["result"][ours]} CuTe {cute[theirs]} ({why})')
                    tbad += 1
            if got['result']['tiler'] != cute['tiler']:
                print(f'MISMATCH {c["id"]} tiler: ours {got["result"]["tiler"]} CuTe {cute["tiler"]}')
                tbad += 1
        print(f'tiled: {len(cases)} MMAs, {len(copies)} copies, {tbad} mismatches')
        bad += tbad
    sys.exit(1 if bad else 0)


if __name__ == '__main__':
    main()
