/**
 * The one typed REST client that every REST-speaking client of ours shares (the extension, the
 * `lcs` CLI, the MCP server): openapi-fetch over the types openapi-typescript generated from the
 * service's OpenAPI document, authenticated with a personal bearer token.
 */
import createClient, { type Client } from 'openapi-fetch';
import type { components, paths } from './schema.d.ts';

export type { components, paths };
export type RestClient = Client<paths>;
/** An RFC 9457 problem as the service answers it. */
export type Problem = components['schemas']['Problem'];

export interface RestClientOptions {
  /** The service's base address, e.g. `http://localhost:3000`. */
  baseUrl: string;
  /** A personal API token (`lcs_…`); sent as `Authorization: Bearer`. */
  token?: string;
  /** A fetch of the caller's own (tests, a service worker); the global one otherwise. */
  fetch?: typeof globalThis.fetch;
}

export function createRestClient({ baseUrl, token, fetch }: RestClientOptions): RestClient {
  return createClient<paths>({
    baseUrl: baseUrl.replace(/\/+$/, ''),
    headers: token ? { authorization: `Bearer ${token}` } : {},
    ...(fetch ? { fetch } : {}),
  });
}
