import { instantToLocalInput } from '../../domain/local-time-input';
import type { FormProblem } from './forms';
import { inputField } from './forms';

/**
 * A date-and-time input that says which zone it is in: the label names the zone ("Starts at
 * (Europe/Berlin)") and the value is the instant's wall time there. Read the posted value back with
 * localInputToInstant (src/domain/local-time-input.ts) in the same zone.
 */
export function zonedDateInput(o: {
  name: string;
  label: string;
  timeZone: string;
  value?: string | null;
  problem?: FormProblem | null;
  required?: boolean;
  hint?: string;
  raw?: string | null;
}): string {
  const value = o.raw ?? (o.value ? instantToLocalInput(o.value, o.timeZone) : '');
  return inputField({
    name: o.name,
    label: `${o.label} (${o.timeZone})`,
    type: 'datetime-local',
    value,
    problem: o.problem,
    required: o.required,
    hint: o.hint,
  });
}
