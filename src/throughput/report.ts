/** The benchmark's outputs: a text table, and an SVG bar chart of the layouts' efficiencies. */
import type { BenchReport, KernelResult } from './run.js';

function time(s: number): string {
  if (!Number.isFinite(s)) return '-';
  if (s < 1e-3) return `${(s * 1e6).toFixed(1)} µs`;
  if (s < 1) return `${(s * 1e3).toFixed(2)} ms`;
  return `${s.toFixed(2)} s`;
}

function rate(r: KernelResult): string {
  if (r.kernel === 'eval' || r.kernel === 'reduce' || r.kernel === 'compact') return `${(r.indicesPerSecond / 1e6).toFixed(1)} M idx/s`;
  return `${r.gbps >= 100 ? r.gbps.toFixed(0) : r.gbps.toFixed(2)} GB/s`;
}

export function renderTable(rep: BenchReport): string {
  const lines: string[] = [];
  lines.push(`layoutgpu bench — backend ${rep.backend}, ${rep.adapter}`);
  lines.push(
    `timing: ${rep.backend === 'cpu' ? 'wall clock' : rep.timestampQueries ? 'GPU timestamp queries' : 'wall clock, many dispatches per submit'}; ` +
      `median of ${rep.samples} samples after a warm-up (iqr: ± half the interquartile range; copy and the kernels compared with it sampled in alternation, eff = median of the paired ratios); ` +
      `caps ${rep.caps.maxIndices} indices, ${rep.caps.maxBufferBytes} bytes per buffer`,
  );
  lines.push('');
  const head = ['kernel', 'elem', 'n', 'median', 'iqr', 'min…max', 'reps', 'rate', 'eff'];
  for (const l of rep.layouts) {
    lines.push(`${l.layout}${l.capped ? `   benched as ${l.benched} (cut to the caps)` : ''}`);
    lines.push(
      `  size ${l.size}, cosize ${l.cosize}, ${l.injective ? 'injective' : 'not injective'}${l.tile ? `; tile ${l.tile.tiler}: ${l.tile.tiles} tiles of ${l.tile.tileSize}${l.tile.capped ? ` (benched ${l.tile.benched})` : ''}` : ''}`,
    );
    const rows = l.results.map((r) => [
      r.kernel,
      r.kernel === 'eval' || r.kernel === 'reduce' || r.kernel === 'compact' ? '-' : `${r.elemBytes} B`,
      String(r.n),
      time(r.timing.median),
      `±${((r.timing.iqr * 100) / 2).toFixed(1)}%`,
      `${time(r.timing.min)}…${time(r.timing.max)}`,
      String(r.timing.reps),
      rate(r),
      r.efficiency !== undefined ? r.efficiency.toFixed(3) : '',
    ]);
    const w = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
    const fmt = (r: string[]): string => '  ' + r.map((c, i) => (i < 2 ? c.padEnd(w[i]!) : c.padStart(w[i]!))).join('  ');
    lines.push(fmt(head));
    for (const r of rows) lines.push(fmt(r));
    for (const s of l.skipped) lines.push(`  (${s.kernel} skipped: ${s.reason})`);
    lines.push('');
  }
  lines.push(`${rep.seconds.toFixed(1)} s in all; every kernel's output was checked against Φ on the CPU before timing`);
  return lines.join('\n') + '\n';
}

const esc = (s: string): string => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** Bars: one group per layout, one bar per (kernel, element size) with an efficiency. */
export function renderSvg(rep: BenchReport): string {
  const kinds = ['gather', 'scatter', 'tile'];
  const series: string[] = [];
  for (const k of kinds)
    for (const e of rep.elems) if (rep.layouts.some((l) => l.results.some((r) => r.kernel === k && r.elemBytes === e))) series.push(`${k} ${e} B`);
  const colours = ['#4477aa', '#66ccee', '#228833', '#ccbb44', '#ee6677', '#aa3377', '#bbbbbb', '#000000', '#997700'];
  const groups = rep.layouts.map((l) => ({
    label: l.layout,
    bars: series.map((s) => {
      const r = l.results.find((x) => `${x.kernel} ${x.elemBytes} B` === s);
      return r?.efficiency;
    }),
  }));
  const barW = 16;
  const gap = 28;
  const left = 60;
  const top = 44;
  const plotH = 260;
  const groupW = Math.max(1, series.length) * barW + gap;
  const width = Math.max(640, left + groups.length * groupW + 170);
  const maxEff = Math.max(1.2, ...groups.flatMap((g) => g.bars.filter((b): b is number => b !== undefined)));
  const yMax = Math.ceil(maxEff * 5) / 5;
  const y = (v: number): number => top + plotH - (v / yMax) * plotH;
  const legendY = top + plotH + 120;
  const height = legendY + Math.ceil(series.length / 3) * 18 + 20;
  const out: string[] = [];
  out.push(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="sans-serif" font-size="11">`,
  );
  out.push(`<rect width="100%" height="100%" fill="white"/>`);
  out.push(`<text x="${left}" y="16" font-size="13">layoutgpu bench: efficiency = GB/s ÷ the plain copy's (1.0 = as fast as a copy)</text>`);
  out.push(`<text x="${left}" y="31" font-size="10" fill="#555">${esc(`${rep.backend}: ${rep.adapter}`)}</text>`);
  for (let v = 0; v <= yMax + 1e-9; v += 0.2) {
    const yy = y(v).toFixed(1);
    out.push(`<line x1="${left}" x2="${left + groups.length * groupW}" y1="${yy}" y2="${yy}" stroke="${Math.abs(v - 1) < 1e-9 ? '#888' : '#eee'}"/>`);
    out.push(`<text x="${left - 6}" y="${yy}" text-anchor="end" dominant-baseline="middle">${v.toFixed(1)}</text>`);
  }
  groups.forEach((g, gi) => {
    const x0 = left + gi * groupW + gap / 2;
    g.bars.forEach((b, bi) => {
      if (b === undefined) return;
      const x = x0 + bi * barW;
      out.push(
        `<rect x="${x}" y="${y(b).toFixed(1)}" width="${barW - 2}" height="${(y(0) - y(b)).toFixed(1)}" fill="${colours[bi % colours.length]}"><title>${esc(`${g.label} ${series[bi]}: ${b.toFixed(3)}`)}</title></rect>`,
      );
    });
    const cx = x0 + (series.length * barW) / 2;
    const label = g.label.length > 40 ? g.label.slice(0, 39) + '…' : g.label;
    out.push(`<text transform="translate(${cx.toFixed(1)},${top + plotH + 10}) rotate(30)" font-size="10">${esc(label)}</text>`);
  });
  series.forEach((s, i) => {
    const lx = left + (i % 3) * 140;
    const ly = legendY + Math.floor(i / 3) * 18;
    out.push(`<rect x="${lx}" y="${ly - 10}" width="12" height="12" fill="${colours[i % colours.length]}"/><text x="${lx + 16}" y="${ly}">${esc(s)}</text>`);
  });
  out.push('</svg>');
  return out.join('\n') + '\n';
}
