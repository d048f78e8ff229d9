/**
 * Spans of JSON text: where a member's value starts and ends in the raw text of an object, so
 * that `batch` can echo a request's id exactly as written (RFC 8259 grammar; iterative, so any
 * nesting depth costs no stack). The text is assumed to be valid JSON (callers run JSON.parse
 * first); on anything else the answers are unspecified but the functions never throw or loop.
 */

const isWs = (c: number): boolean => c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d;

/** The offset of the first character at or after `i` that is not JSON's insignificant white space. */
export function jsonSkipWs(s: string, i: number): number {
  while (i < s.length && isWs(s.charCodeAt(i))) i++;
  return i;
}

/** The offset just past the string that starts at s[i] === '"'. */
function stringEnd(s: string, i: number): number {
  for (let j = i + 1; j < s.length; j++) {
    const c = s.charCodeAt(j);
    if (c === 0x5c)
      j++; // backslash: the next character is escaped
    else if (c === 0x22) return j + 1;
  }
  return s.length;
}

/** The offset just past the JSON value that starts at s[i] (no leading whitespace). */
export function jsonValueEnd(s: string, i: number): number {
  const c = s.charCodeAt(i);
  if (c === 0x22) return stringEnd(s, i);
  if (c === 0x7b || c === 0x5b) {
    // an object or array: count brackets, skipping strings
    let depth = 0;
    for (let j = i; j < s.length; j++) {
      const d = s.charCodeAt(j);
      if (d === 0x22) j = stringEnd(s, j) - 1;
      else if (d === 0x7b || d === 0x5b) depth++;
      else if (d === 0x7d || d === 0x5d) {
        if (--depth === 0) return j + 1;
      }
    }
    return s.length;
  }
  // a number or a literal: up to the next delimiter
  let j = i;
  while (j < s.length) {
    const d = s.charCodeAt(j);
    if (d === 0x2c || d === 0x7d || d === 0x5d || isWs(d)) break;
    j++;
  }
  return j;
}

/**
 * The [start, end) span of the value of the top-level member `key` of the JSON object text
 * `s` (the last such member, as JSON.parse keeps the last), or undefined when the object has
 * none. Keys are compared after unescaping (`"\u0069d"` is "id").
 * Example: topLevelMember('{"id": [1, 2], "op":"x"}', 'id') = [7, 13].
 */
export function topLevelMember(s: string, key: string): [number, number] | undefined {
  let i = jsonSkipWs(s, 0);
  if (s.charCodeAt(i) !== 0x7b) return undefined;
  i = jsonSkipWs(s, i + 1);
  let found: [number, number] | undefined;
  while (i < s.length && s.charCodeAt(i) === 0x22) {
    const kEnd = stringEnd(s, i);
    const raw = s.slice(i + 1, kEnd - 1);
    let name: unknown = raw;
    if (raw.includes('\\')) {
      try {
        name = JSON.parse(s.slice(i, kEnd));
      } catch {
        return found;
      }
    }
    i = jsonSkipWs(s, kEnd);
    if (s.charCodeAt(i) !== 0x3a) return found;
    i = jsonSkipWs(s, i + 1);
    const vEnd = jsonValueEnd(s, i);
    if (name === key) found = [i, vEnd];
    i = jsonSkipWs(s, vEnd);
    if (s.charCodeAt(i) !== 0x2c) break;
    i = jsonSkipWs(s, i + 1);
  }
  return found;
}
