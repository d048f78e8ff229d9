// Placeholder until the evaluator's bulk checks land (helper-owned file; overwrite freely).
import type { OpSpec } from '../op-spec.js';
export const bulkOps: OpSpec[] = [];
