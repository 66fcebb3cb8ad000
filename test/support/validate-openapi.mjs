// Validates an OpenAPI document read from stdin with @seriousme/openapi-schema-validator (ESM-only,
// so it runs here in plain Node rather than inside jest). Prints { valid, version, errors }.
import { Validator } from '@seriousme/openapi-schema-validator';

let input = '';
process.stdin.setEncoding('utf8');
for await (const chunk of process.stdin) input += chunk;
const validator = new Validator();
const res = await validator.validate(JSON.parse(input));
process.stdout.write(JSON.stringify({ valid: res.valid, version: validator.version, errors: res.errors ?? null }));
