/** Incidents, templates and maintenance timelines. Colours only from CONSOLE_COLOURS (WCAG AA, tested). */
export const INCIDENTS_CSS = '';
