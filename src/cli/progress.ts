/**
 * A progress bar on stderr for runs over a second, only when stderr is a terminal. Redrawn at
 * most ten times a second, erased when the run ends.
 */
import type { Io } from './io.js';

export interface Progress {
  /** done and total indices */
  update(done: number, total: number): void;
  /** erase the bar */
  end(): void;
}

const WIDTH = 30;

function human(n: number): string {
  if (n < 1e4) return String(n);
  const units = ['k', 'M', 'G', 'T', 'P'];
  let u = -1;
  let v = n;
  while (v >= 1000 && u < units.length - 1) {
    v /= 1000;
    u++;
  }
  return `${v.toFixed(v < 10 ? 2 : v < 100 ? 1 : 0)}${units[u]}`;
}

export function progressBar(io: Pick<Io, 'stderr' | 'isTTY'>, label: string, delayMs = 1000): Progress {
  const start = Date.now();
  let last = 0;
  let shown = false;
  return {
    update(done, total) {
      if (!io.isTTY) return;
      const now = Date.now();
      if (now - start < delayMs || now - last < 100) return;
      last = now;
      shown = true;
      const f = total > 0 ? Math.min(1, done / total) : 1;
      const full = Math.round(f * WIDTH);
      const secs = (now - start) / 1000;
      const rate = done / Math.max(secs, 1e-3);
      const eta = rate > 0 && done < total ? ` eta ${((total - done) / rate).toFixed(0)} s` : '';
      io.stderr(
        `\r${label} [${'#'.repeat(full)}${'.'.repeat(WIDTH - full)}] ${(f * 100).toFixed(1)}% ${human(done)}/${human(total)} ${human(Math.round(rate))}/s${eta}\x1b[K`,
      );
    },
    end() {
      if (shown) io.stderr('\r\x1b[K');
      shown = false;
    },
  };
}
