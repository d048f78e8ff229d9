// Boot of a pool worker when the code runs from TypeScript sources (vitest, tsx): registers
// tsx in this thread, then loads the worker entry (pool-worker.ts). The compiled CLI (dist/)
// starts dist/engine/pool-worker.js directly and never reads this file.
import { workerData } from 'node:worker_threads';

const { register } = await import('tsx/esm/api');
register();
await import(workerData.entry);
