/**
 * The suite's stderr filter (quiet-dawn.ts): Dawn's start-up lines are dropped from a stream, whole or split across
 * writes, and every other line passes unchanged and in order.
 */
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { quietDawn } from './quiet-dawn.js';

const DAWN = [
  'Warning: maxDynamicUniformBuffersPerPipelineLayout artificially reduced from 1000000 to 16 to fit dynamic offset allocation limit.\n',
  'Warning: maxDynamicStorageBuffersPerPipelineLayout artificially reduced from 1000000 to 16 to fit dynamic offset allocation limit.\n',
];

function sink(): { stream: Writable; text: () => string } {
  let out = '';
  const stream = new Writable({
    write(chunk: Buffer, _enc, cb) {
      out += chunk.toString('utf8');
      cb();
    },
  });
  return { stream, text: () => out };
}

describe('quietDawn', () => {
  it("drops Dawn's lines and passes the rest", () => {
    const { stream, text } = sink();
    quietDawn(stream);
    quietDawn(stream); // once per stream
    stream.write('before\n');
    stream.write(DAWN[0]!);
    stream.write(Buffer.from(DAWN[1]!.slice(0, 20)));
    stream.write(DAWN[1]!.slice(20));
    stream.write('Warning: something else\n');
    stream.write(' FAIL  test/algebra/compose.test.ts\n');
    expect(text()).toBe('before\nWarning: something else\n FAIL  test/algebra/compose.test.ts\n');
  });
});
