/** Sample statistics of a benchmark: median and spread of the per-repetition times. */

export interface Timing {
  /** seconds per repetition (one kernel run over all elements) */
  median: number;
  min: number;
  max: number;
  /** (max − min) / median */
  spread: number;
  /** interquartile range / median (robust against the odd slow sample of a busy machine) */
  iqr: number;
  samples: number;
  /** kernel runs per sample */
  reps: number;
  /** 'timestamp' (GPU timestamp queries), 'wall' (submit … onSubmittedWorkDone), 'cpu' */
  method: 'timestamp' | 'wall' | 'cpu';
}

export function summarize(secondsPerRep: number[], reps: number, method: Timing['method']): Timing {
  const s = [...secondsPerRep].sort((a, b) => a - b);
  const k = s.length;
  const median = k === 0 ? NaN : k % 2 ? s[(k - 1) / 2]! : (s[k / 2 - 1]! + s[k / 2]!) / 2;
  const min = s[0] ?? NaN;
  const max = s[k - 1] ?? NaN;
  const q = (f: number): number => {
    if (k === 0) return NaN;
    const x = f * (k - 1);
    const lo = Math.floor(x);
    return s[lo]! + (s[Math.min(k - 1, lo + 1)]! - s[lo]!) * (x - lo);
  };
  return { median, min, max, spread: (max - min) / median, iqr: (q(0.75) - q(0.25)) / median, samples: k, reps, method };
}
