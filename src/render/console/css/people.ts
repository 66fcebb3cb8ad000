/** Users, API keys, settings and config-as-code notices. Colours only from CONSOLE_COLOURS (WCAG AA, tested). */
export const PEOPLE_CSS = '';
