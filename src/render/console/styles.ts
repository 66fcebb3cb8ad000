import { FORMS_CSS } from './css/forms';
import { CONFIG_CSS } from './css/config';
import { PUBLISHING_CSS } from './css/publishing';
import { PEOPLE_CSS } from './css/people';
import { OVERVIEW_CSS } from './css/overview';
import { INCIDENTS_CSS } from './css/incidents';

import { CONSOLE_COLOURS } from './colours';

export { CONSOLE_COLOURS };

const c = CONSOLE_COLOURS;

export const CONSOLE_CSS = `
*,*::before,*::after{box-sizing:border-box}
body{margin:0;font:16px/1.5 system-ui,-apple-system,"Segoe UI",sans-serif;color:${c.text};background:${c.page}}
a{color:${c.link}}
a:focus-visible,button:focus-visible,input:focus-visible,select:focus-visible,textarea:focus-visible,summary:focus-visible{outline:3px solid ${c.link};outline-offset:2px}
.skip-link{position:absolute;left:-999px;top:0;background:${c.page};padding:.5rem}
.skip-link:focus{left:.5rem;z-index:10}
header.top{display:flex;flex-wrap:wrap;gap:.5rem 1rem;align-items:center;justify-content:space-between;padding:.5rem 1rem;border-bottom:1px solid ${c.border};background:${c.nav}}
header.top .brand{font-weight:700;color:${c.text};text-decoration:none}
header.top form{margin:0}
nav.main ul{display:flex;flex-wrap:wrap;gap:.25rem .75rem;list-style:none;margin:0;padding:.5rem 1rem;border-bottom:1px solid ${c.border}}
nav.main a{text-decoration:none;padding:.25rem 0;display:inline-block}
nav.main a[aria-current=page]{font-weight:700;text-decoration:underline}
main{max-width:72rem;margin:0 auto;padding:1rem}
h1{font-size:1.5rem;margin:.5rem 0 1rem}
h1,h2,h3{overflow-wrap:anywhere}
h2{font-size:1.2rem;margin:1.5rem 0 .5rem}
.muted{color:${c.muted}}
.text{white-space:pre-line}
.table-wrap{overflow-x:auto}
table{border-collapse:collapse;width:100%;margin:.5rem 0}
th,td{text-align:left;padding:.4rem .5rem;border-bottom:1px solid ${c.border};vertical-align:top}
th{font-weight:600}
.badge{display:inline-block;padding:0 .45rem;border-radius:.75rem;font-size:.85rem;font-weight:600;background:${c.neutralBg};color:${c.neutral}}
.badge.healthy{background:${c.healthyBg};color:${c.healthy}}
.badge.degraded{background:${c.degradedBg};color:${c.degraded}}
.badge.unhealthy,.badge.late{background:${c.unhealthyBg};color:${c.unhealthy}}
.bars{display:flex;justify-content:flex-end;overflow:hidden;height:1.5rem;max-width:100%;min-width:0}
.bars svg{flex:none;display:block;width:100%;min-width:13.5rem;height:100%}
.bars rect{fill:${c.neutralBg};stroke:${c.page};stroke-width:1px;vector-effect:non-scaling-stroke}
.bars .up{fill:${c.healthy}}.bars .partial{fill:${c.degraded}}.bars .down{fill:${c.unhealthy}}
form.stack{display:grid;gap:.75rem;max-width:36rem}
form.inline{display:inline}
label{font-weight:600;display:block}
input[type=text],input[type=email],input[type=datetime-local],input[type=number],select,textarea{width:100%;font:inherit;padding:.4rem .5rem;border:1px solid ${c.muted};border-radius:.25rem;background:${c.page};color:${c.text}}
textarea{min-height:5rem}
[aria-invalid=true]{border:2px solid ${c.danger}}
button,.button{font:inherit;font-weight:600;padding:.4rem .9rem;border-radius:.25rem;border:1px solid ${c.link};background:${c.link};color:${c.buttonText};cursor:pointer;text-decoration:none;display:inline-block}
button.secondary{background:${c.page};color:${c.link}}
button.danger{background:${c.danger};border-color:${c.danger}}
.actions{display:flex;flex-wrap:wrap;gap:.5rem;margin:.75rem 0}
.field-error{color:${c.danger};font-weight:600;margin:.25rem 0 0}
.problem{border:2px solid ${c.danger};padding:.5rem .75rem;border-radius:.25rem;margin:.75rem 0}
.problem h2{margin:0 0 .25rem;font-size:1rem;color:${c.danger}}
.flash{border:2px solid ${c.healthy};padding:.5rem .75rem;border-radius:.25rem;margin:.75rem 0}
.timeline{list-style:none;padding:0;border-left:3px solid ${c.border}}
.timeline li{padding:.25rem 0 .5rem .75rem}
dl.facts{display:grid;grid-template-columns:max-content 1fr;gap:.25rem 1rem}
dl.facts dt{font-weight:600;overflow-wrap:anywhere;min-width:0}dl.facts dd{margin:0;overflow-wrap:anywhere;min-width:0}
.pager{display:flex;gap:1rem;margin:1rem 0}
code,.mono{font-family:ui-monospace,SFMono-Regular,Menlo,monospace;font-size:.9em;overflow-wrap:anywhere}
@media (max-width:40rem){main{padding:.75rem}th,td{padding:.35rem .3rem}dl.facts{grid-template-columns:minmax(0,1fr);gap:0}dl.facts dd{margin-bottom:.5rem}}
/* A phone: the navigation is one line that scrolls sideways (every link stays a visible, plain link, no script needed) instead of five wrapped lines. */
@media (max-width:40rem){
nav.main ul{flex-wrap:nowrap;overflow-x:auto;gap:0 1rem;padding:.35rem 1rem;scrollbar-width:thin;overscroll-behavior-x:contain}
nav.main li{flex:none}
nav.main a{white-space:nowrap}
}
@media (max-width:40rem){
.table-wrap{overflow-x:visible}
.table-wrap>table,.table-wrap>table>tbody,.table-wrap>table>tbody>tr{display:block;width:100%}
.table-wrap>table>thead{position:absolute;width:1px;height:1px;overflow:hidden;clip-path:inset(50%);white-space:nowrap}
.table-wrap>table>caption{display:block;text-align:left}
.table-wrap>table>tbody>tr{border:1px solid ${c.border};border-radius:.35rem;margin:0 0 .75rem;padding:.15rem .6rem}
/* The label floats in the cell's left padding (38% of the card; the cell's content box is the other 62%) and the cell, a formatting root, grows with it: a label that wraps never reaches the next row. */
.table-wrap>table>tbody>tr>td{display:flow-root;padding:.4rem 0 .4rem 38%;min-height:2.2rem;overflow-wrap:anywhere;min-width:0}
.table-wrap>table>tbody>tr>td:last-child{border-bottom:0}
.table-wrap>table>tbody>tr>td::before{content:attr(data-label);float:left;width:calc(100% * 35 / 62);margin-left:calc(-100% * 38 / 62);font-weight:600;color:${c.muted};overflow-wrap:anywhere}
.table-wrap>table>tbody>tr>td[data-label=""],.table-wrap>table>tbody>tr>td:not([data-label]){padding-left:0}
.table-wrap>table>tbody>tr>td[data-label=""]::before,.table-wrap>table>tbody>tr>td:not([data-label])::before{content:none}
}
${FORMS_CSS}${CONFIG_CSS}${PUBLISHING_CSS}${PEOPLE_CSS}${OVERVIEW_CSS}${INCIDENTS_CSS}
`;
