/** Status pages, webhooks, customers and contracts. Colours only from CONSOLE_COLOURS (WCAG AA, tested). */
export const PUBLISHING_CSS = '';
