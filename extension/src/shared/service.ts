/**
 * The service as the extension reaches it: the shared typed REST client (clients/rest), built
 * from the stored settings, and the plain words each failure is shown in.
 */
import { createRestClient, type Problem, type RestClient } from '../../../clients/rest/client.ts';
import { loadSettings } from './settings.ts';

export type { RestClient };

/** A client for the stored service address and token (read afresh: the options may have changed). */
export async function serviceClient(): Promise<{ api: RestClient; serviceUrl: string }> {
  const { serviceUrl, token } = await loadSettings();
  // A fetch looked up per call: the service worker's global, never one captured at import time.
  return { api: createRestClient({ baseUrl: serviceUrl, token, fetch: (request) => fetch(request) }), serviceUrl };
}

/** Why a call failed, in words a learner can act on; `openOptions` when the fix is in the options page. */
export function plainReason(status: number, problem?: Partial<Problem> | string): { message: string; openOptions?: boolean } {
  const code = typeof problem === 'object' ? problem?.code : undefined;
  switch (status) {
    case 401:
      return { message: 'The service did not accept the token. Paste a current token in the extension options.', openOptions: true };
    case 402:
      return { message: 'Your credits are used up for this period, so nothing more can be saved or translated until they renew.' };
    case 403:
      return {
        message:
          code === 'read_only_token'
            ? 'This token can only read. Create a write token and paste it in the extension options.'
            : 'The service refused this request.',
        openOptions: code === 'read_only_token',
      };
    case 428:
      return { message: 'Set your languages first (the one you learn and your own) in the service’s language settings.', openOptions: true };
    case 429:
      return { message: 'The service asks to slow down; try again in a moment.' };
    case 400:
      return {
        message:
          typeof problem === 'object' && problem?.detail ? `The service could not take this: ${problem.detail}` : 'The service could not take this text.',
      };
    default:
      return { message: status >= 500 ? 'The service is having trouble right now; try again later.' : `The service answered ${status}.` };
  }
}

export function unreachable(serviceUrl: string): { message: string; openOptions: boolean } {
  return { message: `The service at ${serviceUrl} cannot be reached. Is it running, and is the address in the options right?`, openOptions: true };
}

/** Seconds the answer asks to wait (Retry-After), or `fallback`. */
export function retryAfterSeconds(response: Response | undefined, fallback: number): number {
  const value = Number(response?.headers.get('retry-after'));
  return Number.isFinite(value) && value >= 0 ? Math.min(value, 120) : fallback;
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
