/** Services, metrics and SLO forms. Colours only from CONSOLE_COLOURS (WCAG AA, tested). */
export const CONFIG_CSS = '';
