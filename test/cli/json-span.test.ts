/**
 * json-span.ts: the raw text of a request's top-level "id", found in the line itself, checked
 * against lines built around known id texts (the oracle is the text we put there).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { idText } from '../../src/cli/batch.js';
import { jsonValueEnd, topLevelMember } from '../../src/cli/json-span.js';

const span = (s: string, key = 'id'): string | undefined => {
  const r = topLevelMember(s, key);
  return r ? s.slice(r[0], r[1]) : undefined;
};

const ws = fc.constantFrom('', ' ', '  ', '\t', ' \t ', '\r');

describe('topLevelMember', () => {
  it('finds the exact text of any JSON value written as the id, among other members and any spacing', () => {
    fc.assert(
      fc.property(fc.json(), fc.json(), ws, ws, ws, ws, fc.boolean(), (id, other, w1, w2, w3, w4, idFirst) => {
        const idMember = `"id"${w1}:${w2}${id}${w3}`;
        const otherMember = `"op"${w4}:${other}`;
        const line = `${w1}{${w2}${idFirst ? idMember : otherMember},${w3}${idFirst ? otherMember : idMember}${w4}}${w1}`;
        expect(JSON.parse(line).id).toEqual(JSON.parse(id));
        expect(span(line)).toBe(id);
      }),
      { numRuns: 500, seed: 9 },
    );
  });

  it('the last of duplicated ids (as JSON.parse keeps it); escaped keys; never a nested or quoted "id"', () => {
    expect(span('{"id":1,"op":"x","id":[2, 3]}')).toBe('[2, 3]');
    expect(span('{"\\u0069d":"esc"}')).toBe('"esc"');
    expect(span('{"op":{"id":5},"args":["\\"id\\":6"]}')).toBeUndefined();
    expect(span('{"a":"}{\\"id\\":7","id" :  8 }')).toBe('8');
    expect(span('{}')).toBeUndefined();
    expect(span('[{"id":1}]')).toBeUndefined();
  });

  it('numbers beyond doubles, exactly as written', () => {
    for (const t of ['123456789012345678901234567890', '2e-400', '-0', '1E+999', '9007199254740993', '0.1000000000000000000001']) {
      expect(span(`{"id":${t},"op":"size"}`)).toBe(t);
    }
  });

  it('any nesting depth without recursion (100,000 levels)', () => {
    const deep = '['.repeat(100_000) + '"x"' + ']'.repeat(100_000);
    const line = `{"id":${deep},"op":"size"}`;
    expect(span(line)).toBe(deep);
    expect(jsonValueEnd(line, 6)).toBe(6 + deep.length);
  });

  it('never throws or runs past the text on malformed input', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 60 }), (s) => {
        const r = topLevelMember(s, 'id');
        if (r) expect(r[0] <= r[1] && r[1] <= s.length).toBe(true);
      }),
      { numRuns: 2000, seed: 3 },
    );
  });
});

describe("batch's idText (its one-scan accelerator for simple lines, checked against topLevelMember)", () => {
  const idOf = (line: string): string => idText(line, JSON.parse(line) as object);
  const walk = (line: string): string => span(line) ?? 'null';

  it('the same text as the whole-object walk on lines with ids of any kind, duplicated, nested, quoted or escaped', () => {
    const member = fc.oneof(
      fc.json().map((v) => `"id":${v}`),
      fc.json().map((v) => `"id" : ${v}`),
      fc.json().map((v) => `"\\u0069d":${v}`),
      fc.json().map((v) => `"op":${v}`),
      fc.json().map((v) => `"args":[{"id":${v}}]`),
      fc.constantFrom('"op":"id"', '"x":"\\"id\\""', '"args":["id"]'),
    );
    fc.assert(
      fc.property(fc.array(member, { maxLength: 4 }), ws, (members, w) => {
        const line = `{${w}${members.join(`,${w}`)}${w}}`;
        expect(idOf(line)).toBe(walk(line));
      }),
      { numRuns: 2000, seed: 21 },
    );
  });

  it('examples: the last id, an escaped key, an id only nested or quoted', () => {
    expect(idOf('{"id":1,"op":"x","id":[2, 3]}')).toBe('[2, 3]');
    expect(idOf('{"\\u0069d":"esc","op":"size"}')).toBe('"esc"');
    expect(idOf('{"op":"size","args":[{"id":5}]}')).toBe('null');
    expect(idOf('{"op":"id","id":  "a" }')).toBe('"a"');
    expect(idOf('{"id" :\t-0 ,"op":"size"}')).toBe('-0');
  });
});
