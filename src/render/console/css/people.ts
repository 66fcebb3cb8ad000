import { CONSOLE_COLOURS as c } from '../colours';

/** Users, API keys, settings and config-as-code notices. Colours only from CONSOLE_COLOURS (WCAG AA, tested). */
export const PEOPLE_CSS = `
.sr-only{position:absolute;width:1px;height:1px;padding:0;margin:-1px;overflow:hidden;clip:rect(0,0,0,0);white-space:nowrap;border:0}
form.row-action{display:flex;flex-wrap:wrap;gap:.25rem .5rem;align-items:center;margin:0}
form.row-action select{width:auto;min-width:7rem}
.secret-once{border:2px solid ${c.degraded};background:${c.degradedBg};color:${c.text};padding:.5rem .75rem;border-radius:.25rem;margin:.75rem 0}
.secret-once h2{margin:0 0 .25rem;font-size:1rem;color:${c.degraded}}
input.secret{width:100%;font-family:ui-monospace,SFMono-Regular,Menlo,monospace;font-size:.95rem;padding:.4rem .5rem;border:1px solid ${c.muted};border-radius:.25rem;background:${c.page};color:${c.text}}
.managed{border-left:4px solid ${c.link};background:${c.nav};padding:.5rem .75rem;margin:.75rem 0}
p.export{margin:.5rem 0}
`;
