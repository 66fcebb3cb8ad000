/**
 * WCAG 2.x contrast maths for status-page colours (https://www.w3.org/TR/WCAG21/#dfn-contrast-ratio).
 * Colours are #rgb or #rrggbb; anything else throws, so callers check with isHexColor first.
 */

type Rgb = [number, number, number];

const HEX = /^#(?:[0-9a-f]{3}|[0-9a-f]{6})$/i;
/** Normal-size text under WCAG AA. */
export const AA_NORMAL_TEXT = 4.5;

export function isHexColor(s: string): boolean {
  return HEX.test(s);
}

function parse(hex: string): Rgb {
  if (!isHexColor(hex)) throw new Error(`not a #rgb or #rrggbb colour: ${JSON.stringify(hex)}`);
  const h = hex.length === 4 ? [...hex.slice(1)].map((c) => c + c).join('') : hex.slice(1);
  return [0, 2, 4].map((i) => parseInt(h.slice(i, i + 2), 16)) as Rgb;
}

function toHex(rgb: Rgb): string {
  return `#${rgb.map((c) => Math.round(c).toString(16).padStart(2, '0')).join('')}`;
}

/** The colour as lower-case #rrggbb. */
export function normalizeHex(hex: string): string {
  return toHex(parse(hex));
}

function luminance([r, g, b]: Rgb): number {
  const lin = (c: number) => {
    const s = c / 255;
    return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
}

export function contrastRatio(a: string, b: string): number {
  const [la, lb] = [luminance(parse(a)), luminance(parse(b))];
  return (Math.max(la, lb) + 0.05) / (Math.min(la, lb) + 0.05);
}

/** Black or white, whichever contrasts more; either way the ratio is at least √21 ≈ 4.58. */
export function readableTextOn(bg: string): '#000000' | '#ffffff' {
  return contrastRatio('#000000', bg) >= contrastRatio('#ffffff', bg) ? '#000000' : '#ffffff';
}

/**
 * The accent mixed towards black (on a light background) or white (on a dark one) just enough to
 * reach 4.5:1 against `bg`. Mixing in sRGB moves luminance monotonically, and the far end (pure
 * black or white) is always ≥ 4.58, so the loop always ends with a readable colour.
 */
export function accessibleAccent(accent: string, bg = '#ffffff'): string {
  const from = parse(accent);
  const to: Rgb = readableTextOn(bg) === '#000000' ? [0, 0, 0] : [255, 255, 255];
  for (let step = 0; step <= 100; step++) {
    const t = step / 100;
    const candidate = toHex(from.map((c, i) => c + (to[i]! - c) * t) as Rgb);
    if (contrastRatio(candidate, bg) >= AA_NORMAL_TEXT) return candidate;
  }
  return toHex(to);
}
