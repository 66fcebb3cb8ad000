import { CONSOLE_COLOURS as c } from '../colours';

/** The overview, the service detail page and its chart, cards at narrow widths. Colours only from CONSOLE_COLOURS (WCAG AA, tested). */
export const OVERVIEW_CSS = `
.overview-summary{font-weight:600}
figure.chart{margin:.5rem 0 1rem}
figure.chart>svg{display:block;width:100%;height:auto;max-width:100%;border:1px solid ${c.border};border-radius:.25rem;background:${c.page}}
.chart .grid{stroke:${c.border};stroke-width:1}
.chart .axis{fill:${c.muted};font-size:12px}
.chart .series,.legend .series{fill:none;stroke-width:2;stroke-linejoin:round;stroke-linecap:round}
.series.s0{stroke:${c.link}}.series.s1{stroke:${c.healthy}}.series.s2{stroke:${c.degraded}}.series.s3{stroke:${c.unhealthy}}.series.s4{stroke:${c.neutral}}.series.s5{stroke:${c.text}}
.legend{list-style:none;padding:0;margin:.25rem 0;display:flex;flex-wrap:wrap;gap:.25rem 1rem}
.legend .swatch{width:1.5rem;height:.5rem;vertical-align:middle}
ul.ranges{list-style:none;padding:0;margin:.25rem 0 .5rem;display:flex;gap:1rem}
`;
