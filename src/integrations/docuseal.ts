/**
 * DocuSeal-style e-signature client (docs/decisions.md "Messaging"):
 * `POST {MUSTER_ESIGN_URL}/submissions` with header `X-Auth-Token: <MUSTER_ESIGN_API_KEY>` and
 * `{template_id, send_email, submitters:[{role, name, email, external_id}]}`; the answer is the list
 * of submitters, each with `submission_id` (stored as consents.esign_submission_id, the key the
 * webhook POST /webhooks/esign matches) and `embed_src` (the signing link).
 *
 * The template comes from MUSTER_ESIGN_TEMPLATES per consent type; the template's submitter roles
 * are named `Participant` and `Guardian`. Shaped to the registration side's EsignProvider
 * (integrations/esign.ts): one `signer` or several `signers`. The API key is never logged nor put
 * in an error message.
 */
import type { EsignConfig } from '../config.js';
import { errorName, propOf, stringProp } from '../lib/narrow.js';

export interface EsignSigner {
  role: 'participant' | 'guardian';
  name: string;
  email: string;
}

export interface DocuSealSigningRequest {
  consentId: number;
  /** waiver | freedom_waiver | code_of_conduct */
  consentType: string;
  signer?: EsignSigner;
  signers?: EsignSigner[];
}

export interface DocuSealSigningResult {
  submissionId: string;
  /** The first signer's signing link, when the provider gives one. */
  documentUrl: string | null;
}

/** A failure worth retrying (network error, timeout, 429, 5xx); anything else is permanent. */
export class EsignTransientError extends Error {}
export class EsignPermanentError extends Error {}

const ROLE_NAMES = { participant: 'Participant', guardian: 'Guardian' } as const;

export interface DocuSealClient {
  readonly name: 'docuseal';
  createSigningRequest(request: DocuSealSigningRequest): Promise<DocuSealSigningResult>;
}

export function createDocuSealClient(config: EsignConfig, opts: { timeoutMs?: number } = {}): DocuSealClient {
  return {
    name: 'docuseal',
    async createSigningRequest(request) {
      const template = config.templates[request.consentType];
      if (!template)
        throw new EsignPermanentError(
          `No e-signature template configured for consent type ${request.consentType}`,
        );
      const signers = request.signers ?? (request.signer ? [request.signer] : []);
      if (signers.length === 0) throw new EsignPermanentError('A signing request needs at least one signer');
      const body = {
        template_id: /^\d+$/.test(template) ? Number(template) : template,
        send_email: true,
        external_id: `consent-${request.consentId}`,
        submitters: signers.map((s) => ({
          role: ROLE_NAMES[s.role],
          name: s.name,
          email: s.email,
          external_id: `consent-${request.consentId}-${s.role}`,
        })),
      };
      let response: Response;
      try {
        response = await fetch(`${config.url}/submissions`, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            accept: 'application/json',
            'x-auth-token': config.apiKey,
          },
          body: JSON.stringify(body),
          signal: AbortSignal.timeout(opts.timeoutMs ?? 10_000),
        });
      } catch (error) {
        throw new EsignTransientError(`E-signature provider unreachable: ${errorName(error)}`);
      }
      if (response.status === 429 || response.status >= 500)
        throw new EsignTransientError(`E-signature provider answered ${response.status}`);
      if (!response.ok)
        throw new EsignPermanentError(`E-signature provider refused the request (${response.status})`);
      const submitters: unknown = await response.json().catch(() => null);
      const first: unknown = Array.isArray(submitters) ? submitters[0] : undefined;
      const submissionId = propOf(first, 'submission_id');
      if (typeof submissionId !== 'number' && typeof submissionId !== 'string')
        throw new EsignPermanentError('E-signature provider answered without a submission id');
      const link = stringProp(first, 'embed_src') ?? null;
      return { submissionId: String(submissionId), documentUrl: link };
    },
  };
}
