import { accessibleAccent, contrastRatio, isHexColor, readableTextOn } from '../../src/render/contrast';
import type { PageBranding } from '../../src/domain/status-page/model';
import { renderStyles, resolveTheme, themeTextPairs } from '../../src/render/styles';

describe('contrastRatio', () => {
  it.each([
    ['#000000', '#ffffff', 21],
    ['#fff', '#000', 21],
    ['#ffffff', '#ffffff', 1],
    ['#777777', '#ffffff', 4.48],
    ['#767676', '#ffffff', 4.54],
    ['#0969da', '#ffffff', 5.19],
  ])('%s on %s is %d:1', (a, b, ratio) => {
    expect(contrastRatio(a, b)).toBeCloseTo(ratio, 2);
    expect(contrastRatio(b, a)).toBeCloseTo(ratio, 2);
  });

  it('reads #rgb as #rrggbb, in either case', () => {
    expect(contrastRatio('#abc', '#fff')).toBe(contrastRatio('#AABBCC', '#ffffff'));
  });

  it('throws on anything but a hex colour', () => {
    expect(() => contrastRatio('red', '#fff')).toThrow(/not a #rgb or #rrggbb colour/);
  });
});

describe('isHexColor', () => {
  it.each(['#000', '#FFF', '#0969da', '#ABCDEF'])('accepts %s', (c) => expect(isHexColor(c)).toBe(true));
  it.each(['', '000000', '#12', '#1234', '#12345g', '#0969da;', 'red', '#0969da\n'])('rejects %j', (c) =>
    expect(isHexColor(c)).toBe(false),
  );
});

describe('readableTextOn', () => {
  it.each([
    ['#ffffff', '#000000'],
    ['#777777', '#000000'],
    ['#ffff00', '#000000'],
    ['#0969da', '#ffffff'],
    ['#1f2328', '#ffffff'],
  ])('on %s picks %s', (bg, text) => expect(readableTextOn(bg)).toBe(text));

  it('always reaches 4.5:1, whatever the background', () => {
    for (let v = 0; v < 256; v += 5) {
      const grey = `#${v.toString(16).padStart(2, '0').repeat(3)}`;
      expect(contrastRatio(readableTextOn(grey), grey)).toBeGreaterThanOrEqual(4.5);
    }
  });
});

describe('accessibleAccent', () => {
  const samples = ['#ffff00', '#00ff00', '#ffffff', '#777777', '#ff0000', '#0969da', '#000000', '#000080', '#abc'];

  it('keeps an accent that already reads well, as #rrggbb', () => {
    expect(accessibleAccent('#0969da')).toBe('#0969da');
    expect(accessibleAccent('#00F')).toBe('#0000ff');
  });

  it.each(samples)('darkens %s until it reads at 4.5:1 on white', (accent) => {
    const out = accessibleAccent(accent);
    expect(out).toMatch(/^#[0-9a-f]{6}$/);
    expect(contrastRatio(out, '#ffffff')).toBeGreaterThanOrEqual(4.5);
  });

  it.each(samples)('lightens %s until it reads at 4.5:1 on a dark background', (accent) => {
    const out = accessibleAccent(accent, '#1f2328');
    expect(contrastRatio(out, '#1f2328')).toBeGreaterThanOrEqual(4.5);
  });

  it('changes a hostile yellow only as much as needed', () => {
    const out = accessibleAccent('#ffff00');
    expect(contrastRatio(out, '#ffffff')).toBeLessThan(5);
  });
});

describe('status page colours', () => {
  const brandings: Array<[string, PageBranding | null]> = [
    ['no page (defaults)', null],
    ['default branding', { logo_url: null, accent_color: null, header_color: null }],
    ['hostile branding', { logo_url: null, accent_color: '#ffff00', header_color: '#777777' }],
    ['white on white', { logo_url: null, accent_color: '#ffffff', header_color: '#ffffff' }],
    ['black on black', { logo_url: null, accent_color: '#000000', header_color: '#000000' }],
    ['mid greys', { logo_url: null, accent_color: '#888', header_color: '#757575' }],
    ['not colours', { logo_url: null, accent_color: 'yellow', header_color: '#77777' }],
  ];

  it.each(brandings)('every text/background pair reaches 4.5:1 with %s', (_, branding) => {
    for (const pair of themeTextPairs(resolveTheme(branding))) {
      expect({ ...pair, ok: contrastRatio(pair.fg, pair.bg) >= 4.5 }).toEqual({ ...pair, ok: true });
    }
  });

  // Ties the list above to the CSS: no text colour is set that the pair list does not check,
  // and any rule setting both a text colour and a background reaches 4.5:1 itself.
  it.each(brandings)('the CSS sets no text colour outside the checked pairs with %s', (_, branding) => {
    const theme = resolveTheme(branding);
    const checked = new Set(themeTextPairs(theme).map((p) => p.fg));
    for (const [, body] of renderStyles(theme).matchAll(/\{([^{}]*)\}/g)) {
      const color = body!.match(/(?:^|;)color:(#[0-9a-f]{6})/)?.[1];
      const background = body!.match(/(?:^|;)background:(#[0-9a-f]{6})/)?.[1];
      if (color) expect(checked).toContain(color);
      if (color && background) expect(contrastRatio(color, background)).toBeGreaterThanOrEqual(4.5);
    }
  });

  it('uses the adjusted accent for links, never the hostile one as text', () => {
    const theme = resolveTheme({ logo_url: null, accent_color: '#ffff00', header_color: '#777777' });
    expect(theme.link).toBe(accessibleAccent('#ffff00'));
    expect(theme.headerText).toBe('#000000');
    expect(renderStyles(theme)).not.toMatch(/color:#ffff00/);
  });
});
