/** Subject access and erasure routes (docs/privacy.md; actions `privacy.*` in access/actions.ts). */
import { Type } from 'typebox';
import type { Deps } from '../../deps.js';
import { type RoutedRequest, routeCtx } from '../../http/authorize.js';
import { EventIdParam, errorResponses } from '../../http/schema-helpers.js';
import type { Api } from '../../http/typed.js';
import { registrationInEvent } from '../notes/notes.service.js';
import {
  CONFIRM_MISMATCH,
  eraseForStaff,
  exportForStaff,
  exportOwn,
  NOT_ALL_YOURS,
} from './privacy.service.js';

const tags = ['privacy'];
const Params = Type.Object({
  event_id: EventIdParam,
  participant_event_id: Type.String({ pattern: '^[0-9]{1,9}$', description: 'participant_event_id' }),
});
const WHO =
  'Global admins and the event’s safeguarding leads; every other user 403 `You do not have access to this event`; API keys 403. `{event_id}`: numeric id, UUID or slug. A `{participant_event_id}` that is not a registration of this event → 404 `Participant not found for this event` (checked before the body).';
const ZIP =
  'A ZIP (`application/zip`, `Cache-Control: no-store`): `muster-data.json` (`{generated_at, scope: "whole"|"events_you_lead", subject: {person_id, user_id}, tables: {<table>: row[]}, jobs: row[]}`, every stored row that names the person, columns as stored), `muster-data.pdf` (the same, readable), `uploads/…` (stored files the record points to) and `README.txt`. Audited as `person.exported` (counts per table only).';
const ZipResponse = Type.Unsafe<Buffer>({ type: 'string', format: 'binary', description: 'The ZIP file' });
const EraseBody = Type.Object(
  {
    confirm_email: Type.String({
      minLength: 1,
      maxLength: 320,
      description: 'The person’s email address, typed again to confirm (case-insensitive)',
    }),
  },
  { additionalProperties: false },
);
const EraseResponse = Type.Object({
  erased: Type.Object({
    person_id: Type.Integer(),
    tables: Type.Record(Type.String(), Type.Integer(), { description: 'Rows changed or deleted, per table' }),
  }),
});

const sendZip = <R extends { header: (k: string, v: string) => R }>(reply: R, name: string) =>
  reply
    .header('Content-Type', 'application/zip')
    .header('Content-Disposition', `attachment; filename="${name}"`)
    .header('Cache-Control', 'no-store');

export function privacyRoutes(app: Api, deps: Deps): void {
  const url = '/events/:event_id/participants/:participant_event_id';
  const registrationFirst = async (
    request: RoutedRequest<'privacy.erase'> & { params: { participant_event_id: string } },
  ) => {
    await registrationInEvent(routeCtx(deps, request), request.params.participant_event_id);
  };

  app.get(
    `${url}/data-export`,
    {
      config: { action: 'privacy.export' },
      schema: {
        tags,
        summary: 'Subject access: everything Muster holds about the person (ZIP)',
        description: `The person holding this registration. A global admin gets the whole person (every event, their account, sessions, sign-in requests, emails sent to them, pending jobs); a safeguarding lead gets only the person’s registrations at events they lead (\`scope: "events_you_lead"\`). ${ZIP} ${WHO}`,
        params: Params,
        produces: ['application/zip'],
        response: { 200: ZipResponse, ...errorResponses(401, 403, 404) },
      },
    },
    async (request, reply) => {
      const zip = await exportForStaff(routeCtx(deps, request), request.params.participant_event_id);
      return sendZip(reply, `muster-data-${request.params.participant_event_id}.zip`).send(zip);
    },
  );

  app.post(
    `${url}/erase`,
    {
      config: { action: 'privacy.erase' },
      preValidation: registrationFirst,
      schema: {
        tags,
        summary: 'Erase the person holding this registration, across every event',
        description: `Anonymises the person everywhere (docs/privacy.md “Erasure”): name, email, phone, birth date and address overwritten; medical, dietary, accessibility, safeguarding, accommodation, emergency-contact, travel and note rows deleted; guardians’ contact details on their registrations removed; sessions and tokens revoked; pending jobs naming them deleted. Registrations, statuses, scans and consent statuses stay, so counts and check-in statistics do not change. The ban list is kept. \`confirm_email\` must be the person’s address (else 422 \`${CONFIRM_MISMATCH}\`, nothing changed). A safeguarding lead may erase only a person registered solely at events they lead (else 403 \`${NOT_ALL_YOURS}\`, nothing changed). 200 \`{erased: {person_id, tables}}\`; audited as \`person.erased\` with the counts. ${WHO}`,
        params: Params,
        body: EraseBody,
        response: { 200: EraseResponse, ...errorResponses(400, 401, 403, 404, 422) },
      },
    },
    async (request) =>
      eraseForStaff(routeCtx(deps, request), request.params.participant_event_id, request.body),
  );

  app.get(
    '/me/data-export',
    {
      config: { action: 'privacy.own_export' },
      schema: {
        tags,
        summary: 'Subject access: your own data (ZIP)',
        description: `Everything Muster holds about the calling user: their account, participant record and every registration (\`scope: "whole"\`). ${ZIP} Any signed-in user (mobile or global token); API keys 403. The participant pages offer the same file at \`GET /my-data\`.`,
        produces: ['application/zip'],
        response: { 200: ZipResponse, ...errorResponses(401, 403) },
      },
    },
    async (request, reply) => {
      const zip = await exportOwn(routeCtx(deps, request));
      return sendZip(reply, 'muster-data.zip').send(zip);
    },
  );
}
