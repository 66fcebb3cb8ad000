import { instantToLocalInput, localInputToInstant } from '../../src/domain/local-time-input';

const read = (value: string, zone: string) => {
  const r = localInputToInstant(value, zone);
  if (!r.ok) throw new Error(r.message);
  return { at: r.instant.toISOString(), note: r.note?.kind ?? null, text: r.note?.text ?? null };
};

describe('datetime-local values read in a zone', () => {
  it('reads an ordinary wall time on the zone offset of that day', () => {
    expect(read('2026-01-15T09:30', 'Europe/Berlin')).toEqual({
      at: '2026-01-15T08:30:00.000Z',
      note: null,
      text: null,
    });
    expect(read('2026-07-15T09:30', 'Europe/Berlin').at).toBe('2026-07-15T07:30:00.000Z');
    expect(read('2026-07-15T09:30', 'UTC').at).toBe('2026-07-15T09:30:00.000Z');
    expect(read('2026-07-15T09:30:15', 'America/New_York').at).toBe('2026-07-15T13:30:15.000Z');
  });

  it('moves a wall time the clocks skip forward by the gap, and says so', () => {
    // 29 March 2026: Berlin goes from 02:00 CET straight to 03:00 CEST.
    const r = read('2026-03-29T02:30', 'Europe/Berlin');
    expect(r.at).toBe('2026-03-29T01:30:00.000Z');
    expect(r.note).toBe('skipped');
    expect(r.text).toBe(
      '02:30 does not exist on 2026-03-29 in Europe/Berlin (the clocks move forward); read as 03:30.',
    );
    // New York, 8 March 2026, 02:00 EST → 03:00 EDT.
    expect(read('2026-03-08T02:15', 'America/New_York')).toMatchObject({
      at: '2026-03-08T07:15:00.000Z',
      note: 'skipped',
    });
  });

  it('reads a wall time the clocks repeat as its first occurrence, and says so', () => {
    // 25 October 2026: Berlin's 02:00-03:00 happens twice (CEST, then CET).
    const r = read('2026-10-25T02:30', 'Europe/Berlin');
    expect(r.at).toBe('2026-10-25T00:30:00.000Z');
    expect(r.note).toBe('repeated');
    expect(read('2026-10-25T03:30', 'Europe/Berlin')).toEqual({
      at: '2026-10-25T02:30:00.000Z',
      note: null,
      text: null,
    });
  });

  it('refuses what is not a date and time, or a zone nobody knows, in words', () => {
    expect(localInputToInstant('2026-02-30T10:00', 'UTC')).toEqual({
      ok: false,
      message: '2026-02-30T10:00 is not a date and time that exists',
    });
    expect(localInputToInstant('tomorrow', 'UTC')).toEqual({
      ok: false,
      message: 'Expected a date and time (YYYY-MM-DDTHH:MM)',
    });
    expect(localInputToInstant('2026-02-01T10:00', 'Mars/Base')).toEqual({
      ok: false,
      message: 'Mars/Base is not a time zone this server knows',
    });
  });

  it('writes an instant back as the wall time of the zone (round trip)', () => {
    expect(instantToLocalInput('2026-07-15T07:30:00.000Z', 'Europe/Berlin')).toBe('2026-07-15T09:30');
    expect(instantToLocalInput('2026-03-29T01:30:00.000Z', 'Europe/Berlin')).toBe('2026-03-29T03:30');
    expect(read(instantToLocalInput('2026-12-01T23:45:00.000Z', 'Asia/Kolkata'), 'Asia/Kolkata').at).toBe(
      '2026-12-01T23:45:00.000Z',
    );
  });
});
