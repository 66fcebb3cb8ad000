import { prose } from './prose';

/** What the operations of src/api/routes/config.ts do, as their OpenAPI descriptions say it. */
export const descriptions = {
  applyConfig: prose(
    'The body is the document itself, as JSON or YAML (`Content-Type: application/yaml`); its JSON ',
    'Schema is served at `/v1/config/schema.json`.\n',
    '\n',
    'The whole document is checked first: every problem at once as 400 `config_invalid` with its ',
    'path into the document (`metrics[3].thresholds.healthy_value`; with YAML also its line), and ',
    'nothing is written.\n',
    '\n',
    'Then it is applied in one transaction: items are matched by `config_key`, created, updated and ',
    '(with `prune=true`) deleted when they carry a config_key the document no longer names, in the ',
    'sections it has. Items created outside config as code are left alone; an entry with their `id` ',
    'adopts one.\n',
    '\n',
    '`dry_run=true` answers the same plan and writes nothing. Applying a document twice changes ',
    'nothing the second time (`changed: false`). Applies of one organization run one at a time; one ',
    'that waits 30 s for another answers 409 `config_busy`.\n',
    '\n',
    'Changing contracts also takes `write:sla`.',
  ),
  exportConfig: prose(
    'Every item with a config_key, references by config_key, every section present: applying the ',
    'export changes nothing. `include_unmanaged=true` adds the items created outside config as code, ',
    'each with a key made from its name and its `id`, so that applying the export adopts them. ',
    'Contracts are included for a key with `read:sla`. YAML with `format=yaml` or `Accept: ',
    'application/yaml`.',
  ),
};
