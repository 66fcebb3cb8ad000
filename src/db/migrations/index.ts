import { Migration20261122000000Foundation } from './Migration20261122000000Foundation';
import { Migration20261122010000ChangeNotifications } from './Migration20261122010000ChangeNotifications';
import { Migration20261122020000ChangeEvents } from './Migration20261122020000ChangeEvents';
import { Migration20261122030000Incidents } from './Migration20261122030000Incidents';
import { Migration20261122040000Maintenances } from './Migration20261122040000Maintenances';
import { Migration20261122050000Webhooks } from './Migration20261122050000Webhooks';
import { Migration20261122060000Agents } from './Migration20261122060000Agents';
import { Migration20261122070000Metrics } from './Migration20261122070000Metrics';
import { Migration20261122080000Slos } from './Migration20261122080000Slos';
import { Migration20261122090000StatusPages } from './Migration20261122090000StatusPages';
import { Migration20261122100000HotUpdates } from './Migration20261122100000HotUpdates';
import { Migration20261123000000EmailRunsAtDispatch } from './Migration20261123000000EmailRunsAtDispatch';
import { Migration20261124000000ChangeEventScopes } from './Migration20261124000000ChangeEventScopes';
import { Migration20261124200000ConfigKeys } from './Migration20261124200000ConfigKeys';
import { Migration20261124210000Console } from './Migration20261124210000Console';
import { Migration20261124120000SlaStatements } from './Migration20261124120000SlaStatements';
import { Migration20261125000000AgentSessions } from './Migration20261125000000AgentSessions';
import { Migration20261126000000ReasonClasses } from './Migration20261126000000ReasonClasses';
import { Migration20261126010000StatementCoverage } from './Migration20261126010000StatementCoverage';
import { Migration20261126090000Confirmation } from './Migration20261126090000Confirmation';
import { Migration20261126100000Locations } from './Migration20261126100000Locations';
import { Migration20261126200000Alerting } from './Migration20261126200000Alerting';

/** Every migration, in order. Listed explicitly so compiled and test runs see the same set. */
export const MIGRATIONS = [
  { name: 'Migration20261122000000Foundation', class: Migration20261122000000Foundation },
  { name: 'Migration20261122010000ChangeNotifications', class: Migration20261122010000ChangeNotifications },
  { name: 'Migration20261122020000ChangeEvents', class: Migration20261122020000ChangeEvents },
  { name: 'Migration20261122030000Incidents', class: Migration20261122030000Incidents },
  { name: 'Migration20261122040000Maintenances', class: Migration20261122040000Maintenances },
  { name: 'Migration20261122050000Webhooks', class: Migration20261122050000Webhooks },
  { name: 'Migration20261122060000Agents', class: Migration20261122060000Agents },
  { name: 'Migration20261122070000Metrics', class: Migration20261122070000Metrics },
  { name: 'Migration20261122080000Slos', class: Migration20261122080000Slos },
  { name: 'Migration20261122090000StatusPages', class: Migration20261122090000StatusPages },
  { name: 'Migration20261122100000HotUpdates', class: Migration20261122100000HotUpdates },
  { name: 'Migration20261123000000EmailRunsAtDispatch', class: Migration20261123000000EmailRunsAtDispatch },
  { name: 'Migration20261124000000ChangeEventScopes', class: Migration20261124000000ChangeEventScopes },
  { name: 'Migration20261124120000SlaStatements', class: Migration20261124120000SlaStatements },
  { name: 'Migration20261124200000ConfigKeys', class: Migration20261124200000ConfigKeys },
  { name: 'Migration20261124210000Console', class: Migration20261124210000Console },
  { name: 'Migration20261125000000AgentSessions', class: Migration20261125000000AgentSessions },
  { name: 'Migration20261126000000ReasonClasses', class: Migration20261126000000ReasonClasses },
  { name: 'Migration20261126010000StatementCoverage', class: Migration20261126010000StatementCoverage },
  { name: 'Migration20261126090000Confirmation', class: Migration20261126090000Confirmation },
  { name: 'Migration20261126100000Locations', class: Migration20261126100000Locations },
  { name: 'Migration20261126200000Alerting', class: Migration20261126200000Alerting },
];
