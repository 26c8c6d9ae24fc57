/**
 * The service as the extension reaches it: the shared typed REST client (clients/rest), built
 * from the stored settings, and the plain words each failure is shown in.
 */
import { createRestClient, type Problem, type RestClient } from '../../../clients/rest/client.ts';
import type { Link } from './messages.ts';
import { serviceAddressProblem } from './service-address.ts';
import { loadSettings } from './settings.ts';

export type { RestClient };

/**
 * A client for the stored service address and token (read afresh: the options may have changed).
 * An address the token must not travel to (plain http beyond this machine) gets no request at all.
 */
export async function serviceClient(): Promise<{ api: RestClient; serviceUrl: string }> {
  const { serviceUrl, token } = await loadSettings();
  const refused = serviceAddressProblem(serviceUrl);
  // A fetch looked up per call: the service worker's global, never one captured at import time.
  const send: typeof fetch = (input, init) => (refused ? Promise.reject(new Error(refused)) : fetch(input, init));
  return { api: createRestClient({ baseUrl: serviceUrl, token, fetch: send }), serviceUrl };
}

/** A failure in words a learner can act on, and where the fix lies. */
export interface Reason {
  message: string;
  link?: Link;
}

/** Why a call failed, in words a learner can act on, with the place to fix it. */
export function plainReason(status: number, problem?: Partial<Problem> | string): Reason {
  const code = typeof problem === 'object' ? problem?.code : undefined;
  switch (status) {
    case 401:
      return { message: 'The service did not accept the token. Paste a current token in the extension options.', link: 'options' };
    case 402:
      return { message: 'Your credits are used up for this period, so nothing more can be saved or translated until they renew.', link: 'credits' };
    case 403:
      return {
        message:
          code === 'read_only_token'
            ? 'This token can only read. Create a write token and paste it in the extension options.'
            : 'The service refused this request.',
        ...(code === 'read_only_token' ? { link: 'options' as const } : {}),
      };
    case 428:
      return { message: 'Set your languages first: the one you learn and your own, in the web app’s settings.', link: 'settings' };
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

export function unreachable(serviceUrl: string): Reason {
  const refused = serviceAddressProblem(serviceUrl);
  if (refused) return { message: refused, link: 'options' };
  return { message: `The service at ${serviceUrl} cannot be reached. Is it running, and is the address in the options right?`, link: 'options' };
}

/** When the learner's credits renew, as "3 December", or null when the service does not say. */
async function creditsRenewal(api: RestClient): Promise<string | null> {
  try {
    const { data } = await api.GET('/api/credits');
    return data ? new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'long' }).format(new Date(data.periodEnd)) : null;
  } catch {
    return null;
  }
}

/** The 402 sentence, with the renewal date when known. */
export async function outOfCredits(api: RestClient, what = 'nothing more can be saved or translated'): Promise<Reason> {
  const renews = await creditsRenewal(api);
  return { message: `Your credits are used up${renews ? ` until ${renews}` : ' for this period'}, so ${what} until they renew.`, link: 'credits' };
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
