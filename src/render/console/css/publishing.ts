import { CONSOLE_COLOURS as c } from '../colours';

/** Status pages, webhooks, customers and contracts. Colours only from CONSOLE_COLOURS (WCAG AA, tested). */
export const PUBLISHING_CSS = `
.default-submit{position:absolute;left:-9999px;width:1px;height:1px;overflow:hidden}
.publishing-form fieldset{border:1px solid ${c.border};border-radius:.25rem;padding:.5rem .75rem;display:grid;gap:.75rem;min-width:0}
.publishing-form legend{font-weight:700;padding:0 .25rem}
.publishing-form details summary{cursor:pointer;font-weight:600}
.component-rows{margin:0;padding-left:1.25rem;display:grid;gap:.5rem}
.link-row,.step-row{display:grid;grid-template-columns:1fr 1fr;gap:.5rem}
.contrast-note{border-left:3px solid ${c.border};padding:.25rem .75rem}
.contrast-note p,.contrast-note ul{margin:.25rem 0}
.event-choices fieldset{display:grid;grid-template-columns:repeat(auto-fill,minmax(14rem,1fr));gap:.25rem .75rem}
.event-choices legend{grid-column:1/-1}
.event-choices label{font-weight:400}
.secret-once{border:2px solid ${c.degraded};background:${c.degradedBg};color:${c.text};padding:.5rem .75rem;border-radius:.25rem;margin:.75rem 0}
.secret-once input.secret-value{width:100%;font:inherit;font-family:ui-monospace,SFMono-Regular,Menlo,monospace;padding:.4rem .5rem;border:1px solid ${c.muted};border-radius:.25rem;background:${c.page};color:${c.text}}
a.button.danger{background:${c.danger};border-color:${c.danger};color:${c.buttonText}}
a.danger-link{color:${c.danger};font-weight:600}
.worked-example{border:1px solid ${c.border};border-radius:.25rem;padding:.5rem .75rem;background:${c.nav}}
.worked-example h2{margin-top:0;font-size:1.05rem}
.example-sentence{font-size:1.05rem}
.layout-read ul{margin:.25rem 0 .5rem}
.export{margin:.25rem 0}
@media (max-width:40rem){.link-row,.step-row{grid-template-columns:1fr}}
`;
