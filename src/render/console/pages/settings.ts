import { esc } from '../../html';
import { csrfField, type FormProblem, problemBox, zoneSelectField } from '../forms';
import { zonedTime } from '../parts';

export interface SettingsView {
  csrf: string;
  email: string;
  /** The stored zone; null: the browser's. */
  timeZone: string | null;
  /** What the form shows as chosen (the posted value after a refusal). */
  chosen: string;
  now: string;
  problem?: FormProblem | null;
}

/** The user's own settings: the time zone times are shown and entered in. */
export function settingsBody(v: SettingsView): string {
  const current = v.timeZone
    ? `<p>Times are shown in <strong>${esc(v.timeZone)}</strong>: it is now ${zonedTime(v.now, v.timeZone)}.</p>`
    : `<p data-zone-note>No zone chosen: times are shown in your browser's time zone (in UTC where scripts do not run). It is now ${zonedTime(v.now, 'UTC')}.</p>`;
  return `${current}
${problemBox(v.problem, ['time_zone'])}
<form class="stack" method="post" action="/console/settings">${csrfField(v.csrf)}
<fieldset><legend>Time zone for ${esc(v.email)}</legend>
${zoneSelectField({ name: 'time_zone', label: 'Time zone', blank: "Your browser's time zone", value: v.chosen, problem: v.problem, hint: 'Pages show times in this zone, with its name; date fields say which zone they are in.' })}
</fieldset>
<div class="actions"><button type="submit">Save</button></div>
</form>`;
}
