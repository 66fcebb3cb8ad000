import { contrastRatio } from '../../src/render/contrast';
import { CONSOLE_COLOURS as c } from '../../src/render/console/styles';

/** Every text/background pair the console's stylesheet uses, checked against WCAG AA (4.5:1 for text). */
const PAIRS: [string, string, string][] = [
  ['body text', c.text, c.page],
  ['muted text', c.muted, c.page],
  ['links', c.link, c.page],
  ['links on the header and nav', c.link, c.nav],
  ['muted text on the header', c.muted, c.nav],
  ['button text', c.buttonText, c.link],
  ['danger button text', c.buttonText, c.danger],
  ['field errors', c.danger, c.page],
  ['healthy badge', c.healthy, c.healthyBg],
  ['degraded badge', c.degraded, c.degradedBg],
  ['unhealthy and late badges', c.unhealthy, c.unhealthyBg],
  ['neutral badge', c.neutral, c.neutralBg],
];

describe('console colours', () => {
  it.each(PAIRS)('%s meet WCAG AA (4.5:1)', (_name, fg, bg) => {
    expect(contrastRatio(fg, bg)).toBeGreaterThanOrEqual(4.5);
  });

  it('keeps input borders and focus rings visible (3:1 for non-text contrast)', () => {
    expect(contrastRatio(c.muted, c.page)).toBeGreaterThanOrEqual(3);
    expect(contrastRatio(c.link, c.page)).toBeGreaterThanOrEqual(3);
  });
});
