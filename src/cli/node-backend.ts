// Placeholder: the evaluator's Node backend factory is wired here once it lands.
import { LayoutError } from '../algebra/errors.js';
import type { Backend, BackendChoice } from '../engine/backend.js';
export async function createNodeBackend(choice: BackendChoice): Promise<Backend> {
  throw new LayoutError('gpu', `backend ${choice} is not available yet`);
}
