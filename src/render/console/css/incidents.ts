import { CONSOLE_COLOURS as c } from '../colours';

/** Incidents, templates and maintenance timelines. Colours only from CONSOLE_COLOURS (WCAG AA, tested). */
export const INCIDENTS_CSS = `
.impact-grid{border:1px solid ${c.border};border-radius:.25rem;padding:.5rem .75rem;display:grid;grid-template-columns:repeat(auto-fill,minmax(14rem,1fr));gap:.5rem .75rem;min-width:0}
.impact-grid legend{font-weight:700;padding:0 .25rem;grid-column:1/-1}
.impact-grid .field-error{grid-column:1/-1}
ul.impacts{margin:0;padding:0;list-style:none;display:grid;gap:.25rem}
.notice{border-left:3px solid ${c.link};padding:.25rem .75rem;background:${c.nav};color:${c.text}}
section details > summary{cursor:pointer}
section details > summary h2{display:inline;font-size:1.1rem}
pre.email-preview{white-space:pre-wrap;overflow-wrap:anywhere}
section[aria-labelledby="internal-note-heading"],.timeline li{overflow-wrap:anywhere}
`;
