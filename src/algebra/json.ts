/** A JSON value: what an operation takes and answers in `batch`, the CLI's --json and the page (docs/protocol.md). */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
