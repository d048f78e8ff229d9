/** The GPU tests' device: the one helper (test/helpers/device.ts). */
export { testDevice } from '../helpers/device.js';
