/**
 * JSON with what JSON.stringify cannot write: raw literals (1e999, -0, deep nesting), duplicate
 * keys, and bytes that are not UTF-8.
 */
/** Written into the body as is. */
export class Raw {
  constructor(readonly json: string) {}
}
/** An object whose keys may repeat. */
export class Dup {
  constructor(readonly pairs: [string, unknown][]) {}
}
/** Replaced, in the encoded body, by bytes that are not UTF-8. */
export const BAD_UTF8_MARK = '@@BAD_UTF8@@';
export const BAD_UTF8 = Buffer.from([
  0xff, 0xfe, 0xc3, 0x28, 0xed, 0xa0, 0x80, 0xf8, 0x88, 0x80, 0x80, 0x80, 0xc0, 0xaf, 0xe2, 0x82,
]);

export function encode(v: unknown): string {
  if (v instanceof Raw) return v.json;
  if (v instanceof Dup) return `{${v.pairs.map(([k, x]) => `${JSON.stringify(k)}:${encode(x)}`).join(',')}}`;
  if (Array.isArray(v)) return `[${v.map(encode).join(',')}]`;
  if (v && typeof v === 'object')
    return `{${Object.entries(v)
      .map(([k, x]) => `${JSON.stringify(k)}:${encode(x)}`)
      .join(',')}}`;
  return JSON.stringify(v) ?? 'null';
}

export function toBuffer(text: string): Buffer {
  const plain = Buffer.from(text, 'utf8');
  if (!text.includes(BAD_UTF8_MARK)) return plain;
  const parts: Buffer[] = [];
  const mark = Buffer.from(BAD_UTF8_MARK);
  let from = 0;
  for (let at = plain.indexOf(mark); at >= 0; at = plain.indexOf(mark, from)) {
    parts.push(plain.subarray(from, at), BAD_UTF8);
    from = at + mark.length;
  }
  parts.push(plain.subarray(from));
  return Buffer.concat(parts);
}
