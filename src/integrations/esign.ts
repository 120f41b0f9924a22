/**
 * E-signature adapter interface (contract §8 "Consents"). With a provider configured
 * (`MUSTER_ESIGN_PROVIDER`), submitting a registration enqueues an `esign-request` job per consent
 * that calls `createSigningRequest`; the provider's webhook (`POST /webhooks/esign`) then drives
 * the consent status and re-runs the completion check. With `none` (the embedded default), consents
 * are signed by typed signature: `POST /consents/{id}/sign`.
 *
 * Adapters register a factory in ESIGN_ADAPTERS under their provider name.
 */
import type { Config } from '../config.js';

export type EsignProviderName = 'none' | 'docuseal';

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
  readonly name: Exclude<EsignProviderName, 'none'>;
  /** Creates the signing request; throws on failure (the job retries). */
  createSigningRequest(request: SigningRequest): Promise<SigningRequestResult>;
}

type Factory = (config: Config) => EsignProvider;

/** Provider adapters by name (the DocuSeal adapter adds itself here). */
export const ESIGN_ADAPTERS: Partial<Record<Exclude<EsignProviderName, 'none'>, Factory>> = {};

const cache = new WeakMap<Config, EsignProvider | null>();

/** The configured provider, or null for typed signatures. Throws if the named adapter is missing. */
export function esignProviderFor(config: Config): EsignProvider | null {
  if (config.esignProvider === 'none') return null;
  if (cache.has(config)) return cache.get(config)!;
  const factory = ESIGN_ADAPTERS[config.esignProvider];
  if (!factory) throw new Error(`E-signature provider "${config.esignProvider}" has no adapter`);
  const provider = factory(config);
  cache.set(config, provider);
  return provider;
}
