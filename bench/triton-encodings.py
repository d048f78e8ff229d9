#!/usr/bin/env python3
"""Runs a seeded corpus of Triton encodings x shapes through Triton 3.8.0's own
`toLinearLayout(shape, attr)` and through `layoutgpu batch` (op ll_from_encoding), and compares.

A development oracle, not a test dependency: it needs a Triton wheel (pip install triton==3.8.0,
which runs on a CPU, no GPU needed). How Triton is called:
- the attribute is built with Gluon's layout classes (triton.experimental.gluon.language._layouts),
  `layout._to_ir(GluonOpBuilder)`; its text is Triton's own printing (the attribute set on a module,
  `module.str()`, aliases resolved);
- that text is parsed back by MLIR (`ir.parse_mlir_module`), which runs the attribute verifiers:
  a refusal there means layoutgpu must answer an error (kind `domain`);
- the LL is `GluonOpBuilder.to_linear_layout(attr, shape)` (C++ `ttg::toLinearLayout`), read back
  from the Gluon DistributedLinearLayout / SharedLinearLayout it returns.
Each case runs in a forked child, so an abort (assert, fatal error, segfault) is seen as an abort;
there layoutgpu must answer an error too (docs/linear.md, "Deviations from Triton").

Run: python3 bench/triton-encodings.py [--count N] [--seed S] [--fixtures PATH] [--show K] [--forms 1] [--forms-fixtures PATH]
(--forms 1: also ll_format of every LL Triton answered, in the forms triton, gluon and mlir, against Triton's own
printing: LinearLayout::toString, the Gluon repr, the printed #ttg.linear / #ttg.shared_linear attribute.)
"""
import json
import os
import random
import re
import subprocess
import sys
import tempfile

ROOT = os.environ.get('LAYOUTGPU_ROOT') or os.path.join(os.path.dirname(os.path.abspath(__file__)), '..')  # another checkout to compare

from triton._C.libtriton import ir, gluon_ir  # noqa: E402
from triton._C.libtriton import linear_layout as lt  # noqa: E402
from triton.experimental.gluon.language import _layouts as L  # noqa: E402
from triton.experimental.gluon.language.amd import _layouts as AL  # noqa: E402

# ---------------------------------------------------------------------------------------------
# Triton side

ALIAS_RE = re.compile(r'^(#[A-Za-z_][A-Za-z0-9_$]*) = (.*)$')
USE_RE = re.compile(r'#[A-Za-z_][A-Za-z0-9_$.]*')


def resolve_aliases(module_text):
    """The module's `x.y = ATTR` attribute with every alias written in place."""
    aliases = {}
    for line in module_text.splitlines():
        m = ALIAS_RE.match(line)
        if m:
            aliases[m.group(1)] = m.group(2)
    m = re.search(r'module attributes \{x\.y = (.*)\} \{', module_text)
    text = m.group(1)
    for _ in range(20):
        new = USE_RE.sub(lambda u: aliases.get(u.group(0), u.group(0)), text)
        if new == text:
            break
        text = new
    return text


def attr_text(ctx, b, attr):
    mod = b.create_module()
    mod.set_attr('x.y', attr)
    return resolve_aliases(mod.str())


def verifies(ctx, text):
    """MLIR parses `text` (running Triton's attribute verifiers)."""
    with tempfile.NamedTemporaryFile('w', suffix='.mlir', delete=False) as f:
        f.write('module attributes {x.y = %s} {}\n' % text)
    try:
        ir.parse_mlir_module(f.name, ctx)
        return True
    except Exception:
        return False
    finally:
        os.unlink(f.name)


def canon_ll(res, shape):
    if isinstance(res, L.DistributedLinearLayout):
        bases = [['register', res.reg_bases], ['lane', res.lane_bases], ['warp', res.warp_bases], ['block', res.block_bases]]
        out = list(res.shape)
    elif isinstance(res, L.SharedLinearLayout):
        bases = [['offset', res.offset_bases], ['block', res.block_bases]]
        out = list(shape)
        for _, bs in bases:
            for v in bs:
                for d, x in enumerate(v):
                    assert x < out[d], 'a shared LL value beyond the shape'
    else:
        raise TypeError(type(res))
    return {'bases': [[n, [list(map(int, v)) for v in bs]] for n, bs in bases], 'outDims': [[f'dim{d}', int(s)] for d, s in enumerate(out)]}


def forms(ctx, b, g, ll):
    """Triton's own printings of the LL: LinearLayout::toString, the Gluon repr, the MLIR attribute (and the alignment)."""
    out = {'gluon': repr(g), 'alignment': getattr(g, 'alignment', None)}
    t = lt.LinearLayout.from_bases([(n, bs) for n, bs in ll['bases']], [n for n, _ in ll['outDims']], [z for _, z in ll['outDims']], False)
    out['triton'] = str(t)
    try:
        out['mlir'] = attr_text(ctx, b, g._to_ir(b))
    except Exception:
        out['mlir'] = None
    return out


def child(layout, shape, w):
    os.dup2(os.open(os.devnull, os.O_WRONLY), 2)
    ctx = ir.context()
    ir.load_dialects(ctx)
    b = gluon_ir.GluonOpBuilder(ctx)
    try:
        attr = layout._to_ir(b)
        text = attr_text(ctx, b, attr)
    except Exception as e:  # the builder refuses: no text
        os.write(w, (json.dumps({'kind': 'nobuild', 'why': str(e)[:200]}) + '\n').encode())
        return
    ok = verifies(ctx, text)
    os.write(w, (json.dumps({'kind': 'text', 'text': text, 'verifies': ok}) + '\n').encode())
    if not ok:
        return
    try:
        g = b.to_linear_layout(attr, list(shape))
        res = canon_ll(g, shape)
        os.write(w, (json.dumps({'kind': 'll', 'll': res, 'forms': forms(ctx, b, g, res)}) + '\n').encode())
    except Exception as e:
        os.write(w, (json.dumps({'kind': 'raised', 'why': str(e)[:200]}) + '\n').encode())


def arg_type(text, shape, shared):
    dims = 'x'.join(map(str, shape))
    if shared:
        return '!ttg.memdesc<%sxf16, %s, #ttg.shared_memory, mutable>' % (dims, text)
    return 'tensor<%sxf32, %s>' % (dims, text)


def text_child(text, shape, shared, w):
    """The raw-text route: MLIR parses `text` (verifiers), then a function argument of that type gives the layout."""
    os.dup2(os.open(os.devnull, os.O_WRONLY), 2)
    ctx = ir.context()
    ir.load_dialects(ctx)
    b = gluon_ir.GluonOpBuilder(ctx)
    ok = verifies(ctx, text)
    os.write(w, (json.dumps({'kind': 'text', 'text': text, 'verifies': ok}) + '\n').encode())
    if not ok:
        return
    src = 'module attributes {"ttg.num-warps" = 4 : i32} {\n tt.func @f(%%a: %s) { tt.return }\n}\n' % arg_type(text, shape, shared)
    with tempfile.NamedTemporaryFile('w', suffix='.mlir', delete=False) as f:
        f.write(src)
    try:
        m = ir.parse_mlir_module(f.name, ctx)
        v = m.get_function('f').args(0)
        layout = b.get_gluon_layout_from_memdesc(v) if shared else b.get_gluon_layout_from_tensor(v)
        attr = layout._to_ir(b) if not isinstance(layout, (L.DistributedLinearLayout, L.SharedLinearLayout)) else layout._to_ir(b)
        g = b.to_linear_layout(attr, list(shape))
        res = canon_ll(g, shape)
        os.write(w, (json.dumps({'kind': 'll', 'll': res, 'forms': forms(ctx, b, g, res)}) + '\n').encode())
    except Exception as e:
        os.write(w, (json.dumps({'kind': 'raised', 'why': str(e)[:200]}) + '\n').encode())
    finally:
        os.unlink(f.name)


def triton_answer(layout, shape):
    """{'text', 'triton': 'ok'|'refused'|'abort'|'raised', 'll'} or None when the builder refuses."""
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(r)
        try:
            if isinstance(layout, tuple):  # ('text', text, shared)
                text_child(layout[1], shape, layout[2], w)
            else:
                child(layout, shape, w)
        finally:
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
    msgs = [json.loads(x) for x in data.decode().splitlines() if x]
    if not msgs or msgs[0]['kind'] == 'nobuild':
        return None
    out = {'text': msgs[0]['text']}
    if not msgs[0]['verifies']:
        out['triton'] = 'refused'
    elif len(msgs) < 2:
        out['triton'] = 'abort'
    elif msgs[1]['kind'] == 'raised':
        out['triton'] = 'raised'
        out['why'] = msgs[1]['why']
    else:
        out['triton'] = 'ok'
        out['ll'] = msgs[1]['ll']
        out['forms'] = msgs[1]['forms']
    return out


# ---------------------------------------------------------------------------------------------
# The corpus

def pow2(rng, lo, hi):
    return 2 ** rng.randint(lo, hi)


def split_pow2(rng, total_log2, r):
    """r powers of two whose product is 2^total_log2."""
    xs = [0] * r
    for _ in range(total_log2):
        xs[rng.randrange(r)] += 1
    return [2 ** x for x in xs]


def perm(rng, r):
    p = list(range(r))
    rng.shuffle(p)
    return p


def cga(rng, r, allow=True):
    """A CGALayout (block bases in CTA tiles): unit vectors (tiling bits) then some zero (broadcast) bits."""
    if not allow or rng.random() < 0.6:
        return []
    n = rng.randint(1, 3)
    used = [0] * r
    out = []
    for _ in range(n):
        if rng.random() < 0.25:
            out.append([0] * r)
        else:
            d = rng.randrange(r)
            v = [0] * r
            v[d] = 2 ** used[d]
            used[d] += 1
            out.append(v)
    return out


def shape_for(rng, r, max_bits=14):
    while True:
        s = [pow2(rng, 0, 8) for _ in range(r)]
        if sum(x.bit_length() - 1 for x in s) <= max_bits:
            return s


def blocked(rng, r=None, allow_cga=True):
    r = r or rng.choice([1, 2, 2, 2, 3, 3, 4])
    lanes = 6 if rng.random() < 0.1 else 5
    return L.BlockedLayout([pow2(rng, 0, 3) for _ in range(r)], split_pow2(rng, lanes, r), split_pow2(rng, rng.randint(0, 3), r), perm(rng, r),
                           cga(rng, r, allow_cga))


def mma_v2(rng, r=None, allow_cga=True):
    r = r or rng.choice([2, 2, 3])
    return L.NVMMADistributedLayout([2, 0], split_pow2(rng, rng.randint(0, 3), r), [16, 8] if r == 2 else [1, 16, 8], cga(rng, r, allow_cga))


def mma_v3(rng, allow_cga=True):
    n = rng.choice([8, 16, 32, 64, 128, 256])
    k = rng.choice([8, 16, 32])
    warps = rng.choice([[4, 1], [8, 1], [4, 2], [16, 1], [1, 4], [2, 2]])
    return L.NVMMADistributedLayout([3, 0], warps, [16, n, k], cga(rng, 2, allow_cga))


def mfma(rng, r=None, allow_cga=True):
    r = r or rng.choice([2, 2, 3])
    instr = rng.choice([[32, 32, 8], [16, 16, 16], [32, 32, 16], [16, 16, 32], [64, 4, 4], [4, 64, 4], [32, 32, 64], [16, 16, 128]])
    tiles = None if rng.random() < 0.7 else split_pow2(rng, rng.randint(0, 2), r)
    return AL.AMDMFMALayout(rng.randint(1, 4), instr, rng.random() < 0.5, split_pow2(rng, rng.randint(0, 3), r),
                            rng.choice([None, 32, 64]), tiles, cga(rng, r, allow_cga))


def dot_op(rng):
    kind = rng.choice(['v2', 'v2', 'v3', 'blocked', 'mfma', 'mfma'])
    op = rng.randint(0, 1)
    if kind == 'v2':
        return L.DotOperandLayout(op, mma_v2(rng), rng.choice([1, 2, 4, 8, 16]))
    if kind == 'v3':
        return L.DotOperandLayout(0 if rng.random() < 0.85 else 1, mma_v3(rng), rng.choice([1, 2, 4, 8]))
    if kind == 'blocked':
        return L.DotOperandLayout(op, blocked(rng, rng.choice([2, 3])), 0 if rng.random() < 0.9 else 2)
    return L.DotOperandLayout(op, mfma(rng), rng.choice([1, 2, 4, 8, 16]))


def linear(rng, r=None):
    """A DistributedLinearLayout: distinct unit vectors and some zeros, surjective on its shape."""
    r = r or rng.choice([1, 2, 2, 3])
    shape = shape_for(rng, r, 9)
    units = [[2 ** i if d == e else 0 for e in range(r)] for d in range(r) for i in range(shape[d].bit_length() - 1)]
    rng.shuffle(units)
    dims = {'reg': [], 'lane': [], 'warp': [], 'block': []}
    for u in units:
        dims[rng.choice(['reg', 'reg', 'lane', 'lane', 'warp', 'block'])].append(u)
    for k in dims:
        if rng.random() < 0.2:
            dims[k].insert(rng.randint(0, len(dims[k])), [0] * r)
    return L.DistributedLinearLayout(dims['reg'], dims['lane'], dims['warp'], dims['block'], shape)


def shared_linear(rng):
    r = rng.choice([1, 2, 2, 3])
    shape = shape_for(rng, r, 10)
    units = [[2 ** i if d == e else 0 for e in range(r)] for d in range(r) for i in range(shape[d].bit_length() - 1)]
    rng.shuffle(units)
    if not units:
        units = [[0] * r]
    # an xor swizzle sometimes: add a lower unit of another dim
    off = [list(u) for u in units]
    for v in off:
        if rng.random() < 0.3 and r > 1:
            d = rng.randrange(r)
            if v[d] == 0 and shape[d] > 1:
                v[d] = 2 ** rng.randrange(shape[d].bit_length() - 1)
    nblock = rng.randint(0, min(2, len(off) - 1))
    blocks = off[len(off) - nblock:] if nblock else []
    off = off[:len(off) - nblock] if nblock else off
    return L.SharedLinearLayout(off, blocks, rng.choice([16, 16, 128])), shape


def swizzled(rng):
    r = rng.choice([1, 2, 2, 2, 3])
    return L.SwizzledSharedLayout(rng.choice([1, 2, 4, 8, 16, 3]), rng.choice([1, 2, 4, 8, 3]), rng.choice([1, 2, 4, 8, 16, 6]), perm(rng, r),
                                  cga(rng, r))


def nvmma(rng, r=None, transposed=None):
    r = r or rng.choice([2, 2, 2, 3])
    w = rng.choice([0, 32, 64, 128, 128])
    bits = rng.choice([8, 16, 16, 32, 64])
    fp4 = w == 128 and bits == 8 and rng.random() < 0.4
    transposed = (rng.random() < 0.3 and r == 2) if transposed is None else transposed
    return L.NVMMASharedLayout(w, bits, r, transposed, fp4, cga(rng, r))


def nvmma_shape(rng, layout):
    """Mostly shapes holding a swizzle atom (8 rows, 8·W/b columns per CTA), sometimes any shape."""
    r = layout.rank
    if rng.random() < 0.25 or layout.swizzle_byte_width == 0:
        return shape_for(rng, r)
    atom = 8 * layout.swizzle_byte_width // layout.element_bitwidth // (2 if layout.fp4_padded else 1)
    blocks = 2 ** len(layout.cga_layout)
    while True:
        s = shape_for(rng, r, 16)
        contig, row = (r - 2, r - 1) if layout.transposed else (r - 1, r - 2)
        s[contig] = max(s[contig], atom * blocks)
        s[row] = max(s[row], 8 * blocks)
        if sum(x.bit_length() - 1 for x in s) <= 18:
            return s


def slice_of(rng):
    kind = rng.choice(['blocked', 'blocked', 'v2', 'v3', 'mfma', 'dot', 'linear', 'slice'])
    p = {'blocked': lambda: blocked(rng, rng.choice([2, 3, 4])), 'v2': lambda: mma_v2(rng), 'v3': lambda: mma_v3(rng),
         'mfma': lambda: mfma(rng), 'dot': lambda: dot_op(rng), 'linear': lambda: linear(rng, rng.choice([2, 3])),
         'slice': lambda: L.SliceLayout(0, blocked(rng, 3))}[kind]()
    return L.SliceLayout(rng.randrange(p.rank if kind != 'slice' else 2), p)


GENS = {
    'blocked': lambda rng: blocked(rng),
    'slice': slice_of,
    'nvidia_mma_v2': lambda rng: mma_v2(rng),
    'nvidia_mma_v3': lambda rng: mma_v3(rng),
    'dot_op': dot_op,
    'amd_mfma': lambda rng: mfma(rng),
    'swizzled_shared': swizzled,
    'nvmma_shared': nvmma,
    'nvmma_shared_r3T': lambda rng: nvmma(rng, 3, True),
    'linear': lambda rng: linear(rng),
    'shared_linear': shared_linear,
}


def rank_of(layout):
    if isinstance(layout, L.SliceLayout):
        return rank_of(layout.parent) - 1
    if isinstance(layout, L.DotOperandLayout):
        return rank_of(layout.parent)
    if isinstance(layout, L.NVMMASharedLayout):
        return layout.rank
    if isinstance(layout, L.DistributedLinearLayout):
        return len(layout.shape)
    if hasattr(layout, 'order'):
        return len(layout.order)
    return len(layout.warps_per_cta)


B = '#ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>'
MMA2 = '#ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>'
MMA3 = '#ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>'
CGA = '#ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0], CGALayout = %s}>'
MFMA = '#ttg.amd_mfma<{version = 3, warpsPerCTA = [2, 2], instrShape = [32, 32, 8], isTransposed = true}>'

# Hand-written texts (mostly ones Triton's parser or verifiers refuse), with the error kind the spec gives
# layoutgpu's answer when Triton refuses: (text, shape, shared, kind).
RAW = [
    ('#ttg.blocked<{sizePerThread = [1, 3], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>', [32, 32], False, 'domain'),
    ('#ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 1]}>', [32, 32], False, 'domain'),
    ('#ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [0]}>', [32, 32], False, 'domain'),
    ('#ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4, 1], warpsPerCTA = [4, 1], order = [1, 0]}>', [32, 32], False, 'domain'),
    ('#ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 3], warpsPerCTA = [4, 1], order = [1, 0]}>', [32, 32], False, 'domain'),
    ('#ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [3, 1], order = [1, 0]}>', [32, 32], False, 'domain'),
    ('#ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 8], warpsPerCTA = [4, 1], order = [1, 0]}>', [32, 32], False, 'domain'),
    ('#ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0], foo = 1}>', [32, 32], False, 'parse'),
    ('#ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], order = [1, 0]}>', [32, 32], False, 'parse'),
    ('#ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0], CGALayout = [[1, 1]]}>', [32, 32], False,
     'domain'),
    ('#ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0], CGALayout = [[3, 0]]}>', [32, 32], False,
     'domain'),
    ('#ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0], CGALayout = [[0, 2]]}>', [32, 32], False,
     'domain'),
    ('#ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0], CGALayout = [[0, 1], [0, 1]]}>', [32, 32],
     False, 'domain'),
    ('#ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0], CGALayout = [[0, 0, 1]]}>', [32, 32], False,
     'domain'),
    (CGA % '[[0, 2], [0, 1]]', [64, 64], False, 'domain'),
    (CGA % '[[0, 0], [0, 1]]', [64, 64], False, 'domain'),
    (CGA % '[[0, 1], [0, 0], [0, 2]]', [64, 64], False, 'domain'),
    (CGA % '[[2, 0]]', [64, 64], False, 'domain'),
    (CGA % '[[1, 0], [0, 1], [0, 0], [2, 0]]', [64, 64], False, 'domain'),
    (CGA % '[[0, 0], [0, 0]]', [64, 64], False, 'domain'),
    ('#ttg.nvidia_mma<{versionMajor = 1, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>', [32, 32], False, 'domain'),
    ('#ttg.nvidia_mma<{versionMajor = 4, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 8]}>', [32, 32], False, 'domain'),
    ('#ttg.nvidia_mma<{versionMajor = 2, versionMinor = 1, warpsPerCTA = [2, 2], instrShape = [16, 8]}>', [32, 32], False, 'domain'),
    ('#ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 16]}>', [32, 32], False, 'domain'),
    ('#ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 3], instrShape = [16, 8]}>', [32, 32], False, 'domain'),
    ('#ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 24, 16]}>', [64, 64], False, 'domain'),
    ('#ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 512, 16]}>', [64, 512], False, 'domain'),
    ('#ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [32, 64, 16]}>', [64, 64], False, 'domain'),
    ('#ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [2, 1], instrShape = [16, 64, 16]}>', [64, 64], False, 'domain'),
    ('#ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [1, 1, 4], instrShape = [16, 64, 16]}>', [2, 64, 64], False, 'domain'),
    ('#ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2, 1], instrShape = [2, 16, 8]}>', [2, 64, 64], False, 'domain'),
    ('#ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2, 1], instrShape = [16, 8]}>', [2, 64, 64], False, 'domain'),
    ('#ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [1, 16, 8]}>', [64, 64], False, 'domain'),
    ('#ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [8, 8]}>', [64, 64], False, 'domain'),
    ('#ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 4]}>', [64, 64], False, 'domain'),
    ('#ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [24, 8]}>', [64, 64], False, 'domain'),
    ('#ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64]}>', [64, 64], False, 'domain'),
    ('#ttg.nvidia_mma<{versionMajor = 3, versionMinor = 1, warpsPerCTA = [1, 1], instrShape = [16, 64, 0]}>', [64, 64], False, 'domain'),
    ('#ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 4, 16]}>', [64, 64], False, 'domain'),
    ('#ttg.dot_op<{opIdx = 0, parent = %s, kWidth = 3}>' % MMA3, [64, 64], False, 'domain'),
    ('#ttg.dot_op<{opIdx = 0, parent = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 16]}>, kWidth = 2}>',
     [64, 64], False, 'domain'),
    ('#ttg.dot_op<{opIdx = 0, parent = %s, kWidth = 3}>' % MFMA, [64, 64], False, 'domain'),
    ('#ttg.dot_op<{opIdx = 1, parent = %s}>' % B, [64, 64], False, 'domain'),
    ('#ttg.dot_op<{opIdx = 1, parent = %s}>' % B, [2, 64, 64], False, 'domain'),
    ('#ttg.amd_mfma<{version = 5, warpsPerCTA = [2, 2], instrShape = [32, 32, 8], isTransposed = true}>', [64, 64], False, 'domain'),
    ('#ttg.amd_mfma<{version = 3, warpsPerCTA = [2, 2], instrShape = [8, 8, 8], isTransposed = true}>', [64, 64], False, 'domain'),
    ('#ttg.amd_mfma<{version = 3, warpsPerCTA = [2, 2], instrShape = [32, 32, 8], isTransposed = true, elementBitWidth = 16}>', [64, 64], False, 'domain'),
    ('#ttg.dot_op<{opIdx = 2, parent = %s, kWidth = 2}>' % MMA2, [32, 32], False, 'domain'),
    ('#ttg.dot_op<{opIdx = 0, parent = %s, kWidth = 0}>' % MMA2, [32, 32], False, 'domain'),
    ('#ttg.dot_op<{opIdx = 0, parent = %s}>' % MMA2, [32, 32], False, 'domain'),
    ('#ttg.dot_op<{opIdx = 0, parent = %s, kWidth = 3}>' % MMA2, [32, 32], False, 'domain'),
    ('#ttg.dot_op<{opIdx = 1, parent = %s, kWidth = 2}>' % MMA3, [64, 64], False, 'domain'),
    ('#ttg.dot_op<{opIdx = 0, parent = %s, kWidth = 2}>' % B, [32, 32], False, 'domain'),
    ('#ttg.dot_op<{opIdx = 0, parent = %s, kWidth = 0}>' % MFMA, [64, 64], False, 'domain'),
    ('#ttg.dot_op<{opIdx = 0, parent = #ttg.slice<{dim = 0, parent = %s}>, kWidth = 2}>' % B, [32], False, 'domain'),
    ('#ttg.dot_op<{opIdx = 0, parent = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>, kWidth = 2}>', [32, 32], False,
     'domain'),
    ('#ttg.slice<{dim = 2, parent = %s}>' % B, [32, 32], False, 'domain'),
    ('#ttg.slice<{dim = 0, parent = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>}>', [32], False, 'domain'),
    ('#ttg.slice<{dim = 0, parent = #ttg.slice<{dim = 0, parent = %s}>}>' % B, [1], False, 'domain'),
    ('#ttg.dot_op<{opIdx = 0, parent = #ttg.linear<{register = [[0, 1]], lane = [[0, 2], [1, 0]], warp = [], block = []}>, kWidth = 2}>', [2, 4],
     False, 'domain'),
    ('#ttg.dot_op<{opIdx = 0, parent = #ttg.dot_op<{opIdx = 0, parent = %s, kWidth = 2}>, kWidth = 2}>' % MMA2, [32, 32], False, 'domain'),
    ('#ttg.swizzled_shared<{vec = 0, perPhase = 1, maxPhase = 1, order = [1, 0]}>', [32, 32], True, 'domain'),
    ('#ttg.swizzled_shared<{vec = 1, perPhase = 0, maxPhase = 1, order = [1, 0]}>', [32, 32], True, 'domain'),
    ('#ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 0, order = [1, 0]}>', [32, 32], True, 'domain'),
    ('#ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 2]}>', [32, 32], True, 'domain'),
    ('#ttg.nvmma_shared<{swizzlingByteWidth = 96, transposed = false, elementBitWidth = 16}>', [32, 64], True, 'domain'),
    ('#ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 12}>', [32, 64], True, 'domain'),
    ('#ttg.nvmma_shared<{swizzlingByteWidth = 64, transposed = false, elementBitWidth = 8, fp4Padded = true}>', [32, 64], True, 'domain'),
    ('#ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16, rank = 3}>', [32, 64], True, 'domain'),
    ('#ttg.linear<{register = [[0, 3]], lane = [[0, 1], [0, 2], [0, 4], [1, 0], [2, 0]], warp = [], block = []}>', [4, 8], False, 'domain'),
    ('#ttg.linear<{register = [[0, 1]], lane = [[0, 1], [0, 2], [0, 4], [1, 0], [2, 0]], warp = [], block = []}>', [4, 8], False, 'domain'),
    ('#ttg.linear<{register = [[1, 1]], lane = [[0, 1], [0, 2], [0, 4], [1, 0], [2, 0]], warp = [], block = []}>', [4, 8], False, 'domain'),
    ('#ttg.linear<{register = [[0, 8]], lane = [[0, 1], [0, 2], [0, 4], [1, 0], [2, 0]], warp = []}>', [4, 16], False, 'parse'),
    ('#ttg.shared_linear<{offset = [[0, 1], [0, 2], [1, 0], [2, 0]]}, alignment = 16>', [4, 4], True, 'domain'),
    ('#ttg.shared_linear<{offset = [[0, 1], [0, 2], [1, 1], [2, 0]]}, alignment = 16>', [4, 4], True, 'domain'),
    ('#ttg.shared_linear<{offset = [[0, 1], [0, 2], [1, 0], [2, 0]]}, alignment = 12>', [4, 4], True, 'domain'),
    ('#ttg.shared_linear<{offset = [[0, 1], [0, 1], [1, 0], [2, 0]]}, alignment = 16>', [4, 4], True, 'domain'),
    ('#ttg.shared_linear<{offset = [[0, 1], [0, 2], [1, 0], [2, 0]]}, alignment = 16>', [8, 4], True, 'domain'),
]


RAW_KIND = {text: kind for text, _, _, kind in RAW}


def odd_shapes(rng, count):
    """Registered layouts with a shape of the wrong rank or not of powers of two (Triton aborts or refuses)."""
    out = []
    for _ in range(count):
        layout = rng.choice([lambda: blocked(rng, 2), lambda: mma_v2(rng, 2), lambda: swizzled(rng), lambda: nvmma(rng)])()
        r = rank_of(layout)
        shape = shape_for(rng, r + rng.choice([-1, 1]) if r > 1 else 2) if rng.random() < 0.5 else [rng.choice([3, 6, 12, 24])] + shape_for(rng, r - 1)
        out.append(('odd_shape', layout, [x for x in shape][:max(len(shape), 1)] or [1]))
    return out


def regressions():
    """One case per discrepancy found and fixed (kind 'fix-…'), always in the corpus."""
    t = lambda text, shared=False: ('text', text, shared)  # noqa: E731
    return [
        ('fix-linear-grow-order', L.DistributedLinearLayout([], [[0, 0, 0]], [], [], [1, 1, 1]), [8, 128, 8]),
        ('fix-linear-grow-order', L.DistributedLinearLayout([[8, 0, 0], [1, 0, 0]], [[2, 0, 0], [0, 0, 0]], [[4, 0, 0], [0, 0, 0]], [[16, 0, 0]],
                                                            [32, 1, 1]), [8, 8, 4]),
        ('fix-mfma-64x4', AL.AMDMFMALayout(3, [64, 4, 4], True, [2, 2]), [128, 64]),
        ('fix-mfma-64x4', AL.AMDMFMALayout(3, [4, 64, 4], False, [1, 4], None, None, [[1, 0], [0, 1]]), [64, 32]),
        ('fix-mfma-64x4', AL.AMDMFMALayout(4, [64, 4, 4], False, [2, 1], 64), [256, 8]),
        ('fix-mfma-64x4', L.DotOperandLayout(1, AL.AMDMFMALayout(1, [64, 4, 4], False, [1, 1], 64), 2), [2, 256]),
        ('fix-mfma-64x4', L.DotOperandLayout(0, AL.AMDMFMALayout(2, [64, 4, 4], True, [2, 2]), 4), [128, 512]),
        ('fix-mfma-64x4', L.DotOperandLayout(1, AL.AMDMFMALayout(2, [4, 64, 4], False, [1, 2]), 4), [256, 128]),
        ('fix-dot-cga', L.DotOperandLayout(1, L.NVMMADistributedLayout([2, 0], [1, 1], [16, 8], [[1, 0], [0, 0]]), 16), [128, 4]),
        ('fix-dot-cga', L.DotOperandLayout(0, L.NVMMADistributedLayout([2, 0], [4, 2], [16, 8], [[1, 0], [0, 0], [0, 1]]), 4), [16, 4]),
        ('fix-dot-cga', L.DotOperandLayout(1, L.BlockedLayout([8, 8], [8, 4], [1, 2], [1, 0], [[0, 0], [0, 1], [1, 0]]), 0), [8, 16]),
        ('fix-dot-cga', L.DotOperandLayout(0, L.BlockedLayout([1, 8], [4, 8], [1, 1], [1, 0], [[0, 1]]), 0), [32, 16]),
        ('fix-nvmma-rows', L.NVMMASharedLayout(128, 64, 3, False, False, [[0, 1, 0], [1, 0, 0], [0, 0, 1]]), [32, 4, 64]),
        ('fix-nvmma-rows', L.NVMMASharedLayout(128, 64, 3), [128, 4, 16]),
        ('fix-nvmma-rows', L.NVMMASharedLayout(32, 16, 3), [2, 4, 128]),
        ('fix-nvmma-tma256', L.NVMMASharedLayout(0, 32, 2), [512, 512]),
        ('fix-nvmma-tma256', L.NVMMASharedLayout(0, 32, 3), [2, 512, 512]),
        ('fix-nvmma-tma256', L.NVMMASharedLayout(128, 16, 3), [2, 512, 512]),
        ('fix-nvmma-tma256', L.NVMMASharedLayout(128, 16, 2, True), [512, 512]),
        ('fix-nvmma-w0-transposed', L.NVMMASharedLayout(0, 32, 2, True), [128, 4]),
        ('fix-nvmma-w0-transposed', L.NVMMASharedLayout(0, 32, 2, True), [512, 512]),
        ('fix-nvmma-w0-transposed', L.NVMMASharedLayout(0, 16, 3, True), [16, 32, 32]),
        ('fix-nvmma-w0-transposed', L.NVMMASharedLayout(0, 32, 3, True), [512, 4, 8]),
        ('fix-nvmma-w0-transposed', L.NVMMASharedLayout(0, 16, 3, True, False, [[1, 0, 0]]), [4, 4, 32]),
        ('fix-nvmma-rank', L.NVMMASharedLayout(0, 16, 2), [4]),
        ('fix-nvmma-rank', L.NVMMASharedLayout(128, 16, 1), [64]),
        ('fix-cga-verifier', t(CGA % '[[0, 1], [0, 1]]'), [32, 32]),
        ('fix-cga-verifier', t(CGA % '[[0, 2], [0, 1]]'), [64, 64]),
        ('fix-mma-instr', t('#ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], instrShape = [16, 16]}>'), [32, 32]),
        ('fix-mma-instr', t('#ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2, 1], instrShape = [2, 16, 8]}>'), [2, 64, 64]),
        ('fix-mma-instr', t('#ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [32, 64, 16]}>'), [64, 64]),
        ('fix-mma-instr', t('#ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 512, 16]}>'), [64, 512]),
        ('fix-mma-instr', t('#ttg.dot_op<{opIdx = 0, parent = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [2, 2], '
                            'instrShape = [16, 16]}>, kWidth = 2}>'), [64, 64]),
        ('fix-swizzled-vec0', t('#ttg.swizzled_shared<{vec = 0, perPhase = 1, maxPhase = 1, order = [1, 0]}>', True), [32, 32]),
    ]


def corpus(count, seed):
    """(kind, layout, shape) triples, `count` per kind."""
    rng = random.Random(seed)
    out = []
    for kind, gen in GENS.items():
        for _ in range(count):
            try:
                x = gen(rng)
            except AssertionError:
                continue
            if isinstance(x, tuple):  # shared_linear: its own shape (sometimes another one)
                layout, shape = x
                if rng.random() < 0.2:
                    shape = shape_for(rng, len(shape), 10)
            else:
                layout = x
                shape = nvmma_shape(rng, layout) if isinstance(layout, L.NVMMASharedLayout) else shape_for(rng, rank_of(layout))
            out.append((kind, layout, shape))
    for _ in range(max(1, count // 4)):  # big shapes (many repeats, TMA blocks past 256)
        layout = rng.choice([lambda: blocked(rng), lambda: mma_v2(rng), lambda: mma_v3(rng), lambda: dot_op(rng), lambda: mfma(rng),
                             lambda: swizzled(rng), lambda: nvmma(rng), lambda: slice_of(rng)])()
        r = rank_of(layout)
        while True:
            shape = [2 ** rng.randint(0, 12) for _ in range(r)]
            if sum(x.bit_length() - 1 for x in shape) <= 20:
                break
        out.append(('big_shape', layout, shape))
    out.extend(regressions())
    out.extend(odd_shapes(rng, count // 4))
    for text, shape, shared, _ in RAW:
        out.append(('raw_text', ('text', text, shared), shape))
    return out


# ---------------------------------------------------------------------------------------------
# Comparing

def run_batch(reqs):
    text = ''.join(json.dumps(r) + '\n' for r in reqs)
    p = subprocess.run(['node', '--import', 'tsx', os.path.join(ROOT, 'src', 'cli', 'main.ts'), 'batch'], input=text, capture_output=True, text=True, cwd=ROOT)
    got = [json.loads(x) for x in p.stdout.splitlines() if x.strip()]
    if len(got) != len(reqs):
        sys.exit(f'layoutgpu batch answered {len(got)} of {len(reqs)} requests: {p.stderr[-400:]}')
    return got


def compare_forms(rows, show, path):
    """ll_format of every LL Triton answered, in the three forms, against Triton's own printing."""
    reqs, wants = [], []
    for kind, _, t in rows:
        if t['triton'] != 'ok':
            continue
        f = t['forms']
        shared = f['alignment'] is not None
        for form in ('triton', 'gluon', 'mlir'):
            if f.get(form) is None:
                continue
            args = [t['ll'], form] + ([f['alignment']] if shared and form != 'triton' else [])
            reqs.append({'id': f'{kind}-{form}-{len(reqs) + 1}', 'op': 'll_format', 'args': args})
            wants.append((kind, form, f[form]))
    got = run_batch(reqs)
    stats, bad, pairs = {}, [], []
    for req, (kind, form, want), g in zip(reqs, wants, got):
        ok = g['ok'] and g['result'] == want
        s = stats.setdefault(form, [0, 0])
        s[0 if ok else 1] += 1
        if not ok:
            bad.append((req, want, g))
        if not kind.startswith('fix-') and kind != 'raw_text':
            pairs.append({'request': req, 'response': {'id': req['id'], 'ok': True, 'result': want}})
    for form, (a, d) in stats.items():
        print(f'll_format {form:7} agree {a:4}  disagree {d:4}')
    for req, want, g in bad[:show]:
        print('\n--', json.dumps(req['args'])[:300])
        print('   triton:', json.dumps(want))
        print('   ours:  ', json.dumps(g.get('result') if g['ok'] else g['error']))
    if path:
        with open(path, 'w') as f:
            for x in pairs:
                f.write(json.dumps(x) + '\n')


def main():
    args = sys.argv[1:]
    opt = {'--count': '30', '--seed': '1', '--fixtures': '', '--show': '5', '--forms': '0', '--forms-fixtures': ''}
    while args:
        k = args.pop(0)
        opt[k] = args.pop(0)
    cases = corpus(int(opt['--count']), int(opt['--seed']))
    rows = []
    for kind, layout, shape in cases:
        t = triton_answer(layout, shape)
        if t is None:
            continue
        rows.append((kind, shape, t))
    seen = {}
    reqs = []
    for kind, shape, t in rows:
        seen[kind] = seen.get(kind, 0) + 1
        reqs.append({'id': f'{kind}-{seen[kind]}', 'op': 'll_from_encoding', 'args': [t['text'], shape]})
    got = run_batch(reqs)
    stats = {}
    bad = {}
    fixtures = []
    for (kind, shape, t), req, g in zip(rows, reqs, got):
        s = stats.setdefault(kind, {'agree': 0, 'disagree': 0, 'ok': 0, 'err': 0})
        if t['triton'] == 'ok':
            s['ok'] += 1
            agree = g['ok'] and g['result'] == t['ll']
            resp = {'id': req['id'], 'ok': True, 'result': t['ll']}
        elif t['triton'] == 'raised' and 'offset_bases must not be empty' in t.get('why', ''):
            # Triton's C++ answers (no offset bits), but Gluon's SharedLinearLayout cannot hold it: not compared
            s['unshown'] = s.get('unshown', 0) + 1
            continue
        else:
            s['err'] += 1
            want = RAW_KIND.get(t['text'], 'domain')
            agree = (not g['ok']) and g['error']['kind'] == want
            why = {'refused': "Triton 3.8.0's parser or verifier refuses the attribute", 'abort': 'Triton 3.8.0 aborts'}.get(t['triton'], t['triton'])
            resp = {'id': req['id'], 'ok': False, 'error': {'kind': want, 'message': why}}
        s['agree' if agree else 'disagree'] += 1
        if not agree:
            bad.setdefault(kind, []).append((req, t, g))
        fixtures.append({'request': req, 'response': resp})
    for kind, s in stats.items():
        extra = f", not shown by Gluon {s['unshown']}" if s.get('unshown') else ''
        print(f"{kind:16} agree {s['agree']:4}  disagree {s['disagree']:4}   (triton ok {s['ok']}, error {s['err']}{extra})")
    n = int(opt['--show'])
    for kind, xs in bad.items():
        for req, t, g in xs[:n]:
            print('\n--', kind, json.dumps(req['args']))
            print('   triton:', t['triton'], json.dumps(t.get('ll')), t.get('why', ''))
            print('   ours:  ', json.dumps(g.get('result') if g['ok'] else g['error']))
    if opt['--forms-fixtures'] or opt['--forms'] == '1':
        compare_forms(rows, int(opt['--show']), opt['--forms-fixtures'])
    if opt['--fixtures']:
        with open(opt['--fixtures'], 'w') as f:
            for x in fixtures:
                f.write(json.dumps(x) + '\n')


if __name__ == '__main__':
    main()
