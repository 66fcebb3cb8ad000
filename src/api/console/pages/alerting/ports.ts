import { ProblemError } from '../../../../domain/error-catalog';
import type { AlertControl, ChannelTester } from '../../../../usecases/alerting/alerts';
import type { ConsoleViewer } from '../../context';
import type { ConsoleDeps } from '../../deps';

const unavailable = (): never => {
  throw new ProblemError(
    'alert_busy',
    'This console was started without alert workflows (Temporal), so nothing was done; try again once the worker is running.',
  );
};

/** The alert workflows and channel tester the console was given, or ones that answer 503 alert_busy. */
export function alertPorts(deps: ConsoleDeps): { control: AlertControl; tester: ChannelTester } {
  return deps.alerts ?? { control: { act: async () => unavailable() }, tester: { test: async () => unavailable() } };
}

/** Who acted, as an alert's timeline shows it (the API writes `API key "name"`). */
export const consoleActor = (v: ConsoleViewer): string => `console user ${v.session.user.email}`;

/** Who made a record, as the API stores it (`api_key:<id>` for keys). */
export const consoleCreator = (v: ConsoleViewer): string => `console:${v.session.user.id}`;
