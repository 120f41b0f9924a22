/** The parts of oidc-provider (no bundled types) that the sign-in tests use (test/signin/provider.ts). */
declare module 'oidc-provider' {
  import type { IncomingMessage, ServerResponse } from 'node:http';

  export interface Interaction {
    uid: string;
    prompt: { name: string; details: Record<string, unknown> };
    params: Record<string, unknown>;
    session?: { accountId: string };
  }

  export interface Grant {
    addOIDCScope(scope: string): void;
    save(): Promise<string>;
  }

  export type ClientMetadata = Record<string, unknown>;

  export interface AccessToken {
    accountId: string;
    scope?: string;
  }

  export default class Provider {
    constructor(issuer: string, configuration: Record<string, unknown>);
    callback(): (req: IncomingMessage, res: ServerResponse) => void;
    interactionDetails(req: IncomingMessage, res: ServerResponse): Promise<Interaction>;
    interactionFinished(
      req: IncomingMessage,
      res: ServerResponse,
      result: Record<string, unknown>,
      options?: { mergeWithLastSubmission?: boolean },
    ): Promise<void>;
    Grant: new (options: {
      accountId: string;
      clientId: string;
    }) => Grant;
    AccessToken: { find(token: string): Promise<AccessToken | undefined> };
    on(event: string, listener: (...args: unknown[]) => void): this;
  }
}
