/**
 * Where a subcommand of `layoutgpu` writes: one type for every CLI module (docs/architecture.md,
 * "Rooms": cli/). `main.ts` builds it over the process's streams, the tests over arrays; a part
 * that needs less takes a `Pick` of it (a progress bar: `stderr` and `isTTY`).
 */
export interface Io {
  /** standard output: the answers */
  stdout: (s: string) => void;
  /** standard error: the errors, the notes and the progress bars */
  stderr: (s: string) => void;
  /** whether stderr is a terminal (progress bars and notes only then) */
  isTTY: boolean;
}
