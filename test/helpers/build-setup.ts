/** vitest's global set-up of the `cli`, `e2e` and `package` projects: dist/ (what bin/layoutgpu.js runs) built once, before any test file. */
import { ensureBuilt } from '../cli/_build.js';

export default function setup(): void {
  ensureBuilt();
}
