/**
 * scripts/apt-backports.sh: the bookworm-backports line derived from the machine's own Debian
 * source, fed sample apt files (never this machine's /etc/apt), in both formats.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ROOT } from '../cli/_build.js';

const dir = mkdtempSync(join(tmpdir(), 'layoutgpu-apt-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let k = 0;

/** backports_line CODENAME over sample files (name → content): its output and status */
function derive(codename: string, files: Record<string, string>): { out: string; code: number | null } {
  const d = join(dir, String(k++));
  mkdirSync(d);
  const paths = Object.entries(files).map(([name, text]) => {
    writeFileSync(join(d, name), text);
    return join(d, name);
  });
  const r = spawnSync('bash', ['-c', 'source scripts/apt-backports.sh && backports_line "$@"', 'test', codename, ...paths, join(d, 'missing.list')], {
    cwd: ROOT,
    encoding: 'utf8',
  });
  expect(r.stderr).toBe('');
  return { out: r.stdout, code: r.status };
}

const FRESH_DEBIAN_12 = `Types: deb
# http://snapshot.debian.org/archive/debian/20250520T000000Z
URIs: http://deb.debian.org/debian
Suites: bookworm bookworm-updates
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg

Types: deb
# http://snapshot.debian.org/archive/debian-security/20250520T000000Z
URIs: http://deb.debian.org/debian-security
Suites: bookworm-security
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
`;

describe('deb822 .sources', () => {
  it('a fresh Debian 12 image: its own URI and key, suite bookworm-backports', () => {
    expect(derive('bookworm', { 'debian.sources': FRESH_DEBIAN_12 })).toEqual({
      out: 'deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] http://deb.debian.org/debian bookworm-backports main\n',
      code: 0,
    });
  });

  it('a local mirror, security stanza first, a disabled stanza, several URIs, no key', () => {
    const text = `# our mirrors
Types: deb deb-src
URIs: https://mirror.example.internal/debian-security
Suites: bookworm-security
Components: main

Types: deb
URIs: http://disabled.example/debian
Suites: bookworm
Components: main
Enabled: no

types: deb-src deb
uris: http://apt.corp.example:3142/debian http://second.example/debian
suites: bookworm bookworm-updates
components: main contrib non-free-firmware
`;
    expect(derive('bookworm', { 'corp.sources': text })).toEqual({ out: 'deb http://apt.corp.example:3142/debian bookworm-backports main\n', code: 0 });
  });

  it('only deb-src, or only other suites: nothing, status 1', () => {
    const text =
      'Types: deb-src\nURIs: http://m.example/debian\nSuites: bookworm\nComponents: main\n\nTypes: deb\nURIs: http://m.example/debian\nSuites: bookworm-updates\nComponents: main\n';
    expect(derive('bookworm', { 'x.sources': text })).toEqual({ out: '', code: 1 });
    expect(derive('trixie', { 'debian.sources': FRESH_DEBIAN_12 })).toEqual({ out: '', code: 1 });
  });
});

describe('classic sources.list', () => {
  it('options kept as the key, comments and deb-src skipped, the first matching line wins', () => {
    const text = `# deb http://commented.example/debian bookworm main
deb-src http://src.example/debian bookworm main
deb http://security.example/debian-security bookworm-security main
deb [arch=amd64 signed-by=/etc/apt/keyrings/mirror.gpg] https://mirror.example.org/debian bookworm main contrib
deb http://later.example/debian bookworm main
`;
    expect(derive('bookworm', { 'sources.list': text })).toEqual({
      out: 'deb [signed-by=/etc/apt/keyrings/mirror.gpg] https://mirror.example.org/debian bookworm-backports main\n',
      code: 0,
    });
    expect(derive('bookworm', { 'sources.list': '\tdeb   ftp://ftp.example.net/debian/   bookworm   main\n' })).toEqual({
      out: 'deb ftp://ftp.example.net/debian/ bookworm-backports main\n',
      code: 0,
    });
  });

  it('an empty sources.list falls through to the .sources file', () => {
    expect(derive('bookworm', { 'sources.list': '# see sources.list.d\n', 'debian.sources': FRESH_DEBIAN_12 }).out).toMatch(
      /^deb \[signed-by=\S+\] http:\/\/deb\.debian\.org\/debian bookworm-backports main\n$/,
    );
  });
});

describe('the set-up scripts name no host of their own', () => {
  it('no URL in setup-system.sh or apt-backports.sh (beyond comments)', () => {
    for (const f of ['scripts/setup-system.sh', 'scripts/apt-backports.sh']) {
      const code = readFileSync(join(ROOT, f), 'utf8')
        .split('\n')
        .filter((l) => !/^\s*#/.test(l))
        .join('\n');
      expect(code, f).not.toMatch(/[a-z]+:\/\/|deb\.debian\.org|debian\.org/);
    }
  });
});
