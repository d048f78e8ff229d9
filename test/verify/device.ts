/** The verify GPU tests' device: the one helper (test/helpers/device.ts). */
export { testDevice as verifyTestDevice } from '../helpers/device.js';
