import { instantToLocalInput, localInputToInstant } from '../../src/domain/local-time-input';

const read = (value: string, zone: string) => {
  const r = localInputToInstant(value, zone);
  if (!r.ok) throw new Error(r.message);
  return { at: r.instant.toISOString(), note: r.note?.text ?? null };
};

describe('localInputToInstant: a datetime-local value read in the viewer\'s zone', () => {
  it('reads a wall time in the zone, whatever the offset of the season', () => {
    expect(read('2026-12-01T10:00', 'Europe/Berlin')).toEqual({ at: '2026-12-01T09:00:00.000Z', note: null });
    expect(read('2026-07-01T10:00', 'Europe/Berlin')).toEqual({ at: '2026-07-01T08:00:00.000Z', note: null });
    expect(read('2026-07-01T10:00', 'America/New_York')).toEqual({ at: '2026-07-01T14:00:00.000Z', note: null });
    expect(read('2026-07-01T10:00', 'Asia/Kolkata')).toEqual({ at: '2026-07-01T04:30:00.000Z', note: null });
    expect(read('2026-07-01T10:00:30', 'UTC')).toEqual({ at: '2026-07-01T10:00:30.000Z', note: null });
  });

  it('reads a time the spring change skips on the old offset, and says so', () => {
    // Berlin, 29 March 2026: 02:00 CET becomes 03:00 CEST.
    const r = read('2026-03-29T02:30', 'Europe/Berlin');
    expect(r.at).toBe('2026-03-29T01:30:00.000Z');
    expect(r.note).toBe('02:30 does not exist on 2026-03-29 in Europe/Berlin (the clocks move forward); read as 03:30.');
    // Just outside the gap, nothing to say.
    expect(read('2026-03-29T01:59', 'Europe/Berlin')).toEqual({ at: '2026-03-29T00:59:00.000Z', note: null });
    expect(read('2026-03-29T03:00', 'Europe/Berlin')).toEqual({ at: '2026-03-29T01:00:00.000Z', note: null });
    // New York, 8 March 2026: 02:00 EST becomes 03:00 EDT.
    expect(read('2026-03-08T02:15', 'America/New_York').at).toBe('2026-03-08T07:15:00.000Z');
  });

  it('reads a time the autumn change repeats as its first occurrence, and says so', () => {
    // Berlin, 25 October 2026: 03:00 CEST goes back to 02:00 CET; 02:30 happens at 00:30Z and 01:30Z.
    const r = read('2026-10-25T02:30', 'Europe/Berlin');
    expect(r.at).toBe('2026-10-25T00:30:00.000Z');
    expect(r.note).toBe('02:30 happens twice on 2026-10-25 in Europe/Berlin (the clocks go back); read as the first.');
    expect(read('2026-10-25T03:00', 'Europe/Berlin')).toEqual({ at: '2026-10-25T02:00:00.000Z', note: null });
    // Lord Howe moves by half an hour.
    expect(read('2026-04-05T01:45', 'Australia/Lord_Howe').note).toMatch(/happens twice/);
  });

  it('refuses what is not a date and time, a date that does not exist, and an unknown zone', () => {
    for (const value of ['', 'tomorrow', '2026-12-01', '2026-12-01 10:00', '2026-12-01T1000']) {
      expect(localInputToInstant(value, 'UTC')).toEqual({ ok: false, message: 'Expected a date and time (YYYY-MM-DDTHH:MM)' });
    }
    for (const value of ['2026-02-29T10:00', '2026-13-01T10:00', '2026-04-31T10:00', '2026-12-01T24:00', '2026-12-01T10:60']) {
      expect(localInputToInstant(value, 'UTC')).toEqual({ ok: false, message: `${value} is not a date and time that exists` });
    }
    expect(localInputToInstant('2026-12-01T10:00', 'Mars/Olympus')).toEqual({ ok: false, message: 'Mars/Olympus is not a time zone this server knows' });
  });
});

describe('instantToLocalInput: what an edit form shows', () => {
  it('gives the wall time in the zone, to the minute, and round-trips outside the clock changes', () => {
    expect(instantToLocalInput('2026-12-01T09:00:00.000Z', 'Europe/Berlin')).toBe('2026-12-01T10:00');
    expect(instantToLocalInput('2026-07-01T04:30:59.000Z', 'Asia/Kolkata')).toBe('2026-07-01T10:00');
    for (const iso of ['2026-01-15T23:30:00.000Z', '2026-06-30T22:00:00.000Z', '2026-10-25T02:00:00.000Z']) {
      expect(read(instantToLocalInput(iso, 'Europe/Berlin'), 'Europe/Berlin').at).toBe(iso);
    }
    expect(instantToLocalInput('not a time', 'UTC')).toBe('');
    expect(instantToLocalInput('2026-12-01T09:00:00.000Z', 'Mars/Olympus')).toBe('2026-12-01T09:00');
  });
});
