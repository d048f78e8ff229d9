/** A candidate source rebuilt from its plain-data spec in a worker thread (sources.ts, `Source.spec`). */
import { parseLayoutFunction } from '../cute/composed.js';
import { enumerateSource } from './source-enumerate.js';
import { randomSource } from './source-random.js';
import { listSource } from './source-text.js';
import type { Source, SourceSpec } from './sources.js';

/** The source a SourceSpec describes (the inverse of `Source.spec`). */
export function sourceFromSpec(spec: SourceSpec): Source {
  switch (spec.kind) {
    case 'enumerate':
      return enumerateSource(spec.options).slice!(spec.range[0], spec.range[1]);
    case 'random':
      return randomSource(spec.options).slice!(spec.range[0], spec.range[1]);
    case 'list':
      return listSource(
        spec.items.map((c, i) => c.map((t) => parseLayoutFunction(t, `candidate ${i + 1}`))),
        spec.describe,
        spec.arity,
      );
  }
}
