import { CONSOLE_COLOURS as c } from '../colours';

/** Services, metrics and SLO forms. Colours only from CONSOLE_COLOURS (WCAG AA, tested). */
export const CONFIG_CSS = `
.row-actions{display:flex;flex-wrap:wrap;gap:.25rem .75rem;align-items:center}
.row-actions form.inline{margin:0}
form.metric-form fieldset{border:1px solid ${c.border};border-radius:.25rem;padding:.5rem .75rem;margin:0 0 1rem;min-width:0}
form.metric-form legend{font-weight:600;padding:0 .25rem}
form.metric-form textarea{min-height:4.5rem;font-family:ui-monospace,SFMono-Regular,Menlo,monospace}
.threshold-row{display:flex;flex-wrap:wrap;gap:.5rem 1rem}
.threshold-row>div{flex:1 1 12rem;min-width:0}
.threshold-words{border-left:4px solid ${c.link};background:${c.nav};color:${c.text};padding:.4rem .6rem;margin:.5rem 0 0}
form.metric-form details{border:1px solid ${c.border};border-radius:.25rem;padding:.5rem .75rem;margin:0 0 1rem}
form.metric-form details>summary{cursor:pointer;font-weight:600}
form.metric-form details[open]>summary{margin-bottom:.5rem}
.up-down-note{border-left:4px solid ${c.link};background:${c.nav};color:${c.text};padding:.4rem .6rem;margin:0 0 .75rem}
textarea.secret{display:block;box-sizing:border-box;width:100%;resize:none;overflow-wrap:anywhere;font-family:ui-monospace,SFMono-Regular,Menlo,monospace}
pre.secret{white-space:pre-wrap;overflow-wrap:anywhere}
form.type-chooser{border-bottom:1px solid ${c.border};padding-bottom:.75rem;margin-bottom:1rem}
`;
