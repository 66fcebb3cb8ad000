import { prose } from './prose';

/** What the operations of src/api/routes/slos.ts do, as their OpenAPI descriptions say it. */
export const descriptions = {
  listSlos: prose('Newest first, each with its attainment now.'),
  createSlo: prose(
    'An objective over one metric or one service (the worst of its metrics at each instant), ',
    'computed from the stored status history.',
  ),
  deleteSlo: prose(
    'Soft delete; repeating it answers 200. 409 `in_use` (with `referenced_by`) while a status page ',
    'shows the SLO.',
  ),
};
