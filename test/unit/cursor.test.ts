import { PAGE_SIZE_DEFAULT, clampLimit, decodeCursor, encodeCursor, pageOf } from '../../src/domain/cursor';

describe('cursor pagination', () => {
  it('round-trips a position through an opaque url-safe string', () => {
    const pos = { createdAt: new Date('2026-11-22T06:40:46.123Z'), id: '7f1f3c5e-7a52-4d0e-9b7e-0b8d3f0a9c11' };
    const cursor = encodeCursor(pos);
    expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(decodeCursor(cursor)).toEqual(pos);
  });

  it.each([
    '',
    'bogus',
    encodeCursor({ createdAt: new Date(0), id: 'x' }).slice(0, 5),
    btoa('{"c":"nope","i":"7f1f3c5e-7a52-4d0e-9b7e-0b8d3f0a9c11"}'),
    btoa('{"c":"2026-01-01T00:00:00.000Z","i":"1 or 1=1"}'),
    btoa('[1]'),
  ])('rejects a cursor it did not issue: %p', (cursor) => expect(decodeCursor(cursor)).toBeNull());

  it('clamps the page size to 1..200 with a default of 50', () => {
    expect(clampLimit(undefined)).toBe(PAGE_SIZE_DEFAULT);
    expect(clampLimit(0)).toBe(1);
    expect(clampLimit(-5)).toBe(1);
    expect(clampLimit(201)).toBe(200);
    expect(clampLimit(7.9)).toBe(7);
    expect(clampLimit(Number.NaN)).toBe(PAGE_SIZE_DEFAULT);
  });

  it('returns a next cursor only when there is another page', () => {
    const rows = [3, 2, 1].map((n) => ({
      id: `00000000-0000-4000-8000-00000000000${n}`,
      createdAt: new Date(n * 1000),
    }));
    const full = pageOf(rows, 2);
    expect(full.items).toHaveLength(2);
    expect(decodeCursor(full.nextCursor!)).toEqual({ id: rows[1]!.id, createdAt: rows[1]!.createdAt });
    expect(pageOf(rows, 3).nextCursor).toBeNull();
  });
});
