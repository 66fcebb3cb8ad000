const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const DAY_MS = 86_400_000;

/**
 * Epoch ms of a certificate date as Node prints it (OpenSSL's ASN1_TIME_print, always GMT):
 * `Mar  3 12:00:00 2031 GMT`, optionally with fractional seconds. Null when it does not parse.
 */
export function parseCertDate(text: string): number | null {
  const m = /^([A-Z][a-z]{2}) +(\d{1,2}) (\d{2}):(\d{2}):(\d{2})(?:\.\d+)? (\d{4}) GMT$/.exec(text.trim());
  if (!m) return null;
  const month = MONTHS.indexOf(m[1]!);
  const [day, hour, minute, second, year] = [m[2], m[3], m[4], m[5], m[6]].map(Number) as [
    number,
    number,
    number,
    number,
    number,
  ];
  if (month < 0 || day < 1 || day > 31 || hour > 23 || minute > 59 || second > 60) return null;
  return Date.UTC(year, month, day, hour, minute, second);
}

/** Days from `now` until `notAfter`, fractional, rounded to 0.01; negative once expired. */
export function daysUntil(notAfter: number, now: number): number {
  return Math.round(((notAfter - now) / DAY_MS) * 100) / 100;
}
