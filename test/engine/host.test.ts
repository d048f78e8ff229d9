/**
 * One WebGPU host (issue 26, step 1; docs/engine.md "The WebGPU host"): pipelines are compiled, buffers mapped, error
 * scopes pushed and device loss watched in src/engine/webgpu.ts alone, beside the two places that own a device — the
 * Node device source (src/engine/node/device-node.ts) and the page's device holder (src/web/gpu-device.ts). Every other file
 * of src/ reaches the GPU through the host. The scan reads each file's whole text (comments too: a client that only
 * talks about `device.lost` is still told to ask the host). And every kernel's source is a template of shaders/, taken
 * from the one generated table: no module writes WGSL of its own.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '../..');

/** the files that may name the host's calls */
const HOSTS = new Set(['src/engine/webgpu.ts', 'src/engine/node/device-node.ts', 'src/web/gpu-device.ts']);

/** the host's calls: pipeline compilation (sync and async), mapping, error scopes, device loss (any `.lost`) */
const HOST_CALLS: readonly [string, RegExp][] = [
  ['createComputePipeline', /\bcreateComputePipeline(?:Async)?\b/],
  ['mapAsync', /\bmapAsync\b/],
  ['pushErrorScope', /\bpushErrorScope\b/],
  ['popErrorScope', /\bpopErrorScope\b/],
  ['.lost', /\.lost\b/],
];

/** `file: name (line n)` for every use of a host call outside HOSTS */
function hostCallsOutside(files: ReadonlyMap<string, string>): string[] {
  const found: string[] = [];
  for (const [file, text] of files) {
    if (HOSTS.has(file)) continue;
    text.split('\n').forEach((line, i) => {
      for (const [name, re] of HOST_CALLS) if (re.test(line)) found.push(`${file}: ${name} (line ${i + 1})`);
    });
  }
  return found;
}

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((e) => {
    const p = join(dir, e);
    if (statSync(p).isDirectory()) return sources(p);
    return /\.(ts|mts|mjs)$/.test(e) ? [relative(ROOT, p).split(sep).join('/')] : [];
  });
}

describe('one WebGPU host', () => {
  // planted texts under the names of real clients (the scan reads a map of texts, not the files)
  it('the scan finds each host call outside the host, on its line, and none inside it', () => {
    const planted = new Map([
      ['src/verify/gpu.ts', 'const p = device.createComputePipelineAsync({});\nawait b.mapAsync(1);'],
      ['src/throughput/gpu.ts', "d.pushErrorScope('validation');\nd.popErrorScope();\nvoid this.device.lost.then(f);\nif (engines.lost) {}"],
      ['src/engine/gpu.ts', 'd.createComputePipeline({}); // the sync one too'],
      ['src/engine/webgpu.ts', 'd.createComputePipeline({}); b.mapAsync(1); d.pushErrorScope("x"); device.lost;'],
      ['src/web/gpu-device.ts', 'void d.device.lost.then(f);'],
      ['src/engine/cpu.ts', 'const lostInfo = 1; // a name with lost inside it is no host call: lossWatch, lostWhy'],
    ]);
    expect(hostCallsOutside(planted)).toEqual([
      'src/verify/gpu.ts: createComputePipeline (line 1)',
      'src/verify/gpu.ts: mapAsync (line 2)',
      'src/throughput/gpu.ts: pushErrorScope (line 1)',
      'src/throughput/gpu.ts: popErrorScope (line 2)',
      'src/throughput/gpu.ts: .lost (line 3)',
      'src/throughput/gpu.ts: .lost (line 4)',
      'src/engine/gpu.ts: createComputePipeline (line 1)',
    ]);
  });

  it('no file of src/ but the host, the Node device source and the page’s device holder compiles a pipeline, maps a buffer, pushes an error scope or watches device loss', () => {
    const files = new Map(sources(join(ROOT, 'src')).map((f) => [f, readFileSync(join(ROOT, f), 'utf8')] as const));
    expect(files.size).toBeGreaterThan(100);
    for (const h of HOSTS) expect(files.has(h), h).toBe(true);
    expect(hostCallsOutside(files)).toEqual([]);
  });

  it('the host itself holds every call it stands for', () => {
    const host = readFileSync(join(ROOT, 'src/engine/webgpu.ts'), 'utf8');
    for (const [name, re] of HOST_CALLS) expect(re.test(host), name).toBe(true);
  });

  it('every WGSL kernel comes from the one generated table: no other file of src/ writes a compute entry point', () => {
    const inline = sources(join(ROOT, 'src'))
      .filter((f) => f !== 'src/engine/shaders.generated.ts')
      .filter((f) => /@compute\b/.test(readFileSync(join(ROOT, f), 'utf8')));
    expect(inline).toEqual([]);
    expect(/@compute\b/.test(readFileSync(join(ROOT, 'src/engine/shaders.generated.ts'), 'utf8'))).toBe(true);
  });
});
