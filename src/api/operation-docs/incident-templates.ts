import { prose } from './prose';

/** What the operations of src/api/routes/incident-templates.ts do, as their OpenAPI descriptions say it. */
export const descriptions = {
  listIncidentTemplates: prose('Newest first.'),
  createIncidentTemplate: prose(
    'A service named in `service_impacts` is affected too; affected services without an impact ',
    'follow the severity.',
  ),
  updateIncidentTemplate: prose('Changes only the fields sent; `body: null` removes the first message.'),
  deleteIncidentTemplate: prose('Soft delete; repeating it answers 200 with the same deleted template.'),
};
