/**
 * E-signature adapter interface (docs/decisions.md "Consents"). With a provider configured, submitting
 * a registration enqueues an `esign-request` job per consent that calls `createSigningRequest`;
 * the provider's webhook (`POST /webhooks/esign`) then drives the consent status and re-runs the
 * completion check. With none (the embedded default), consents are signed by typed signature:
 * `POST /consents/{id}/sign`.
 *
 * Selection is by configuration: each adapter registers a factory in ESIGN_ADAPTERS that returns
 * a provider when its own settings are present (the DocuSeal adapter: MUSTER_ESIGN_URL and
 * MUSTER_ESIGN_API_KEY), else null. No adapter answering → typed signatures.
 */
import type { Config } from '../config.js';
import { createDocuSealClient } from './docuseal.js';

export interface SigningRequest {
  consentId: number;
  /** waiver | freedom_waiver | code_of_conduct */
  consentType: string;
  signer: { role: 'participant' | 'guardian'; name: string; email: string };
  participantName: string;
  eventName: string;
}

export interface SigningRequestResult {
  /** The provider's id for the submission; stored in consents.esign_submission_id (webhook key). */
  submissionId: string;
  /** Where the signer signs (or the document), when the provider gives one. */
  documentUrl: string | null;
}

export interface EsignProvider {
  readonly name: string;
  /** Creates the signing request; throws on failure (the job retries). */
  createSigningRequest(request: SigningRequest): Promise<SigningRequestResult>;
}

/** A factory returns its provider when the configuration selects it, else null. */
export type EsignAdapterFactory = (config: Config) => EsignProvider | null;

/**
 * Registered adapters, asked in order. The DocuSeal-style client (integrations/docuseal.ts) is
 * selected when MUSTER_ESIGN_URL and MUSTER_ESIGN_API_KEY are set.
 */
export const ESIGN_ADAPTERS: EsignAdapterFactory[] = [
  (config) => (config.esign ? createDocuSealClient(config.esign) : null),
];

const cache = new WeakMap<Config, EsignProvider | null>();

/** The configured provider, or null for typed signatures (memoised per Config). */
export function esignProviderFor(config: Config): EsignProvider | null {
  if (cache.has(config)) return cache.get(config)!;
  let provider: EsignProvider | null = null;
  for (const factory of ESIGN_ADAPTERS) {
    provider = factory(config);
    if (provider) break;
  }
  cache.set(config, provider);
  return provider;
}
