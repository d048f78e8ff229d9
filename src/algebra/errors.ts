/** The error kinds of the batch protocol (docs/protocol.md). */
export type ErrorKind =
  | 'bad-request'
  | 'parse'
  | 'domain'
  | 'not-composable'
  | 'not-complementable'
  | 'overflow'
  | 'gpu'
  | 'timeout'
  | 'not-linear'
  | 'not-representable';

/** Every failure of the library travels as a LayoutError: a protocol kind and a sentence
 *  that names the culprit. Only the outermost layer (CLI, batch, page) turns it into text. */
export class LayoutError extends Error {
  /** the protocol kind (docs/protocol.md): bad-request, parse, domain, not-composable, not-complementable, overflow, gpu, timeout */
  readonly kind: ErrorKind;
  /** the message as the thrower wrote it; `message` is its oneLine form, made when first read */
  readonly #raw: string;
  #line: string | undefined;
  constructor(kind: ErrorKind, message: string) {
    // No stack trace: these are answers, not bugs, and batch makes many of them. No message
    // here either: `message` (below) makes it one line when it is read, so that errors caught
    // and dropped inside the algebra (most of batch's) never pay for it.
    const limit = Error.stackTraceLimit;
    Error.stackTraceLimit = 0;
    super();
    Error.stackTraceLimit = limit;
    this.#raw = message;
    this.kind = kind;
    this.name = 'LayoutError';
  }
  /** @internal the message, one line and bounded (oneLine) */
  static lineOf(e: LayoutError): string {
    e.#line ??= oneLine(e.#raw);
    return e.#line;
  }
}
// `message` as an accessor over Error's data property (a class accessor cannot override it in TypeScript)
Object.defineProperty(LayoutError.prototype, 'message', {
  get(this: LayoutError): string {
    return LayoutError.lineOf(this);
  },
  configurable: true,
});

/** The longest message kept whole; a longer one keeps its head and tail around an ellipsis. */
const MAX_MESSAGE = 1000;
// biome-ignore lint/suspicious/noControlCharactersInRegex: these are the characters it escapes
const CONTROL = /[\u0000-\u0008\u000a-\u001f\u007f\u2028\u2029]/;

/**
 * A message as one line of bounded length, whatever input it quotes: line breaks and other
 * control characters are written as escapes (`\n`, `\u0000`), and a message longer than
 * MAX_MESSAGE characters (a quoted 100 KB argument) keeps its first 600 and last 300 characters.
 * @example oneLine("unknown atom 'a\nb'") // "unknown atom 'a\\nb'"
 */
export function oneLine(message: string): string {
  // the common case, checked at once: a short message without a control character
  if (message.length <= MAX_MESSAGE && !CONTROL.test(message)) return message;
  let escaped = '';
  for (const ch of message) {
    const c = ch.charCodeAt(0);
    const control = (c < 0x20 && c !== 0x09) || c === 0x7f || c === 0x2028 || c === 0x2029;
    escaped += !control ? ch : ch === '\n' ? '\\n' : ch === '\r' ? '\\r' : `\\u${c.toString(16).padStart(4, '0')}`;
  }
  if (escaped.length <= MAX_MESSAGE) return escaped;
  // cut between code points, never inside a surrogate pair
  const cut = (i: number): number => (/[\udc00-\udfff]/.test(escaped[i] ?? '') ? i - 1 : i);
  const head = cut(600);
  const tail = cut(escaped.length - 300);
  return `${escaped.slice(0, head)} … (${tail - head} characters left out) … ${escaped.slice(tail)}`;
}

/**
 * A LayoutError of kind `domain`: an argument outside the domain of the operation.
 * @example throw domainError('mode index 3 out of range 1..2')
 */
/**
 * `n` and its noun, singular for one: every message that counts (`1 value`, `8 values`).
 * @example counted(1, 'value') // '1 value'
 */
export const counted = (n: number | bigint, noun: string): string => `${n} ${noun}${n === 1 || n === 1n ? '' : 's'}`;

/** A `domain` error: arguments of the right kinds that the operation does not accept. The one constructor; no room keeps its own. */
export const domainError = (message: string): LayoutError => new LayoutError('domain', message);

/** A `not-composable` error: a composite, or a function, that no layout has. */
export const notComposableError = (message: string): LayoutError => new LayoutError('not-composable', message);

/** A `bad-request` error: a request, or a command line's option, of the wrong form (docs/protocol.md). */
export const badRequestError = (message: string): LayoutError => new LayoutError('bad-request', message);

/**
 * Whether e is a LayoutError (a protocol answer rather than a bug).
 * @example isLayoutError(new LayoutError('parse', 'x')) // true
 */
export function isLayoutError(e: unknown): e is LayoutError {
  return e instanceof LayoutError;
}
