import { Type } from 'typebox';
import type { Deps } from '../../../deps.js';
import { routeCtx } from '../../../http/authorize.js';
import { errorResponses, ProblemsErrorBody } from '../../../http/schema-helpers.js';
import type { Api } from '../../../http/typed.js';
import { PathIdParam } from '../../../lib/identifiers.js';
import { SignRequest as SignConsentRequest } from '../lifecycle/registration.schemas.js';
import { PortalBody, PortalPatch } from './guardian-portal.schemas.js';
import * as service from './guardian-portal.service.js';

/** Per client IP and route; a token is 256 random bits, this only slows down noisy clients. */
export const GUARDIAN_RATE_LIMIT = { max: 30, timeWindow: '1 minute' } as const;
const tags = ['guardian portal'];
const Params = Type.Object({
  token: Type.String({ maxLength: 200, description: 'The token from the guardian’s email link' }),
});
/** The link is the credential (access/guardian-link.ts); reads and writes are separate actions. */
const read = {
  action: 'guardian_portal.read' as const,
  credential: 'guardian_link' as const,
  rateLimit: { ...GUARDIAN_RATE_LIMIT },
};
const write = { ...read, action: 'guardian_portal.write' as const };
const TOKEN = `No Authorization header is needed: the token in the path (from the guardian’s invitation email, valid 7 days) is the credential. Unknown or malformed token → 404 \`Guardian link not found\`; expired → 410; the child’s registration withdrawn or rejected → 409 (writes only). More than ${GUARDIAN_RATE_LIMIT.max} requests per ${GUARDIAN_RATE_LIMIT.timeWindow} from one IP address → 429 with \`Retry-After\`.`;

export function guardianPortalRoutes(app: Api, deps: Deps): void {
  app.get(
    '/guardian/:token',
    {
      config: read,
      attachValidation: true,
      schema: {
        tags,
        summary: 'Guardian portal: the child’s summary and what to grant',
        description: `\`{guardian, child, permissions, consents, expires_at}\`: the guardian’s own record (spec \`guardians[]\` item), a summary of the child’s registration (no medical or safeguarding detail), each permission with its label, allowed answers (\`granted\` | \`denied\`) and current value, and the consents waiting on a guardian’s signature. Read-only. ${TOKEN}`,
        security: [],
        params: Params,
        response: { 200: PortalBody, ...errorResponses(404, 410, 429) },
      },
    },
    async (request) => service.getPortal(routeCtx(deps, request)),
  );

  app.patch(
    '/guardian/:token',
    {
      config: write,
      attachValidation: true,
      schema: {
        tags,
        summary: 'Guardian portal: permissions, emergency contacts, own details',
        description: `Any subset of \`name\`, \`phone\`, \`relationship\`, the permissions (\`granted\` | \`denied\`; \`otc_medication_consent\` may be null) and \`emergency_contacts\` (replaces this guardian’s contacts). The guardian’s email is the invitation’s address and cannot change here. Invalid or unknown fields → 422 naming them (phones in international format). The first change marks the guardian \`accepted\`. Bumps the registration’s \`updated_at\`; audited \`guardians.portal.update\` (field names only). Answers the portal view. ${TOKEN}`,
        security: [],
        params: Params,
        body: PortalPatch,
        response: {
          200: PortalBody,
          ...errorResponses(400, 404, 409, 410, 413, 429),
          422: ProblemsErrorBody,
        },
      },
    },
    async (request) => service.patchPortal(routeCtx(deps, request), request.body),
  );

  app.post(
    '/guardian/:token/complete',
    {
      config: write,
      attachValidation: true,
      schema: {
        tags,
        summary: 'Guardian portal: done',
        description: `Marks the guardian \`completed\` and re-runs the registration’s completion check (the registration becomes \`complete\` when every guardian has completed, the waiver is signed and the required sections are present; docs/decisions.md "Registration lifecycle"). 422 \`Answer these permissions before completing: …\` while \`media_permission\`, \`photo_permission\`, \`travel_permission\` or \`emergency_medical_consent\` is unanswered. Idempotent. Audited \`guardians.portal.complete\`. Answers the portal view. ${TOKEN}`,
        security: [],
        params: Params,
        response: { 200: PortalBody, ...errorResponses(404, 409, 410, 422, 429) },
      },
    },
    async (request) => service.completePortal(routeCtx(deps, request)),
  );

  app.post(
    '/guardian/:token/consents/:consent_id/sign',
    {
      config: write,
      attachValidation: true,
      schema: {
        tags,
        summary: 'Guardian portal: sign a consent by typing your name',
        description: `For a consent of the child’s registration that is pending on a guardian (listed in the view’s \`consents\`), when no e-signature provider is configured: records \`signature_name\`, the time and the client IP, then re-runs the registration’s completion check. A consent of another registration, or a malformed id → 404 \`Consent not found\`; 422 \`signature_name is required\` / \`Signature name is required\` (blank) / \`This consent is already signed\` / \`This consent must be signed by the participant\` / \`This registration is withdrawn|rejected\` / \`Consents are signed through the e-signature provider\`. Audited \`consents.sign\` (signer \`guardian\`). Answers the portal view. ${TOKEN}`,
        security: [],
        params: Type.Object({
          token: Params.properties.token,
          consent_id: PathIdParam('Consent id'),
        }),
        body: SignConsentRequest,
        response: { 200: PortalBody, ...errorResponses(400, 404, 410, 413, 422, 429) },
      },
    },
    async (request) =>
      service.signPortalConsent(routeCtx(deps, request), request.params.consent_id, request.body, request.ip),
  );
}
