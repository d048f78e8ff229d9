/**
 * Shrinking a failing candidate to a minimal one, on the CPU. A step makes one layout of the
 * candidate smaller: flatten it, drop a leaf, unwrap a 1-tuple, lower a shape entry (to 1, 2,
 * s/2, s − 1) or a stride (to 0, 1, d/2, d − 1). Every step lowers
 * (#leaves + #brackets + Σ shapes + Σ strides), so the greedy loop ends; it keeps the first step
 * that still fails and starts again, and stops at a candidate none of whose steps fails: a
 * minimal counterexample in that sense.
 */
import { makeLayout, type Layout } from '../algebra/layout.js';
import type { Tuple } from '../algebra/tuple.js';

type Node = { s: number; d: number } | Node[];

function toNode(s: Tuple, d: Tuple): Node {
  if (typeof s === 'number') return { s, d: d as number };
  return s.map((x, i) => toNode(x, (d as readonly Tuple[])[i]!));
}

function fromNode(n: Node): Layout | null {
  const sh = (m: Node): Tuple => (Array.isArray(m) ? m.map(sh) : m.s);
  const st = (m: Node): Tuple => (Array.isArray(m) ? m.map(st) : m.d);
  try {
    return makeLayout(sh(n), st(n));
  } catch {
    return null;
  }
}

function leaves(n: Node, out: { s: number; d: number }[] = []): { s: number; d: number }[] {
  if (Array.isArray(n)) for (const m of n) leaves(m, out);
  else out.push(n);
  return out;
}

/** deep copy with f applied at the k-th node in preorder (f returns the replacement or undefined to drop it) */
function edit(n: Node, k: number, f: (m: Node) => Node | undefined): Node | undefined {
  let i = 0;
  const go = (m: Node): Node | undefined => {
    const me = i++;
    if (me === k) return f(m);
    if (!Array.isArray(m)) return { ...m };
    const out: Node[] = [];
    for (const c of m) {
      const r = go(c);
      if (r !== undefined) out.push(r);
    }
    return out;
  };
  return go(n);
}

function countNodes(n: Node): number {
  return Array.isArray(n) ? 1 + n.reduce((a, m) => a + countNodes(m), 0) : 1;
}

const lower = (v: number, floor: number): number[] => {
  const out: number[] = [];
  for (const c of [floor, floor + 1, Math.floor(v / 2), v - 1]) if (c >= floor && c < v && !out.includes(c)) out.push(c);
  return out;
};

/** the one-step shrinks of a layout, most aggressive first */
export function shrinkSteps(l: Layout): Layout[] {
  const root = toNode(l.shape, l.stride);
  const out: Layout[] = [];
  const push = (n: Node | undefined): void => {
    if (n === undefined) return;
    const x = fromNode(n);
    if (x) out.push(x);
  };
  const lv = leaves(root);
  // flatten (when nested)
  if (Array.isArray(root) && root.some((m) => Array.isArray(m))) push(lv.map((x) => ({ ...x })));
  const total = countNodes(root);
  // drop a leaf; unwrap a 1-tuple
  for (let k = 1; k < total; k++) push(edit(root, k, (m) => (Array.isArray(m) ? m : undefined)));
  for (let k = 0; k < total; k++) {
    push(
      edit(root, k, (m) => {
        if (Array.isArray(m) && m.length === 1) return m[0]!;
        return m;
      }),
    );
  }
  // lower shapes, then strides
  for (let k = 0; k < total; k++) {
    let probe: Node | undefined;
    edit(root, k, (m) => ((probe = m), m));
    if (!probe || Array.isArray(probe)) continue;
    const leaf = probe;
    for (const s of lower(leaf.s, 1)) push(edit(root, k, () => ({ s, d: leaf.d })));
    for (const d of lower(leaf.d, 0)) push(edit(root, k, () => ({ s: leaf.s, d })));
  }
  // drop identical results (an unwrap that changed nothing)
  const key = (x: Layout): string => JSON.stringify([x.shape, x.stride]);
  const me = key(l);
  const seen = new Set<string>([me]);
  return out.filter((x) => {
    const k = key(x);
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}

/** shrinks a failing candidate (one or more layouts) while `fails` holds; at most `budget` tries */
export function shrink(items: readonly Layout[], fails: (items: readonly Layout[]) => boolean, budget = 20_000): Layout[] {
  let cur = [...items];
  let tries = 0;
  outer: for (;;) {
    for (let i = 0; i < cur.length; i++) {
      for (const step of shrinkSteps(cur[i]!)) {
        if (++tries > budget) return cur;
        const next = [...cur];
        next[i] = step;
        if (fails(next)) {
          cur = next;
          continue outer;
        }
      }
    }
    return cur;
  }
}
