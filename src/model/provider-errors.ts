import { AppError } from '../domain/problems.ts';
import { isRecord } from './exact-json.ts';

/**
 * The provider-error taxonomy: every way a provider call can fail, as a catalog error and whether
 * asking again within the same call may help.
 */
export interface ProviderFailure {
  retryable: boolean;
  /** The provider's own `Retry-After`, when it sent one. */
  retryAfterMs?: number;
  error: AppError;
}

export const NO_PROVIDER_MESSAGE =
  'No model provider is configured: set OPENROUTER_API_KEY, or MODEL_BASE_URL to your own OpenAI-compatible endpoint ' +
  '(or MODEL_PROVIDER=fake for local testing)';

/**
 * The endpoint refused the request itself (HTTP 400 or 422): with an OpenAI-compatible server,
 * most often a `response_format` it does not take, which a weaker output mode may get past
 * (src/model/output-modes.ts). Still `service_unavailable` to every caller.
 */
export class RequestRefused extends AppError {}

const REFUSED_REQUEST_STATUSES = new Set([400, 422]);

/**
 * llama-cpp-python's server answers a request its schema refuses (`response_format.type:
 * json_schema` among them) with HTTP 500 and the validation error as the message: a refusal that
 * asking again cannot change, not an outage (npm run test:local-model found it).
 */
const REFUSED_AS_SERVER_ERROR = /validation error[\s\S]*response_format/i;

const RETRYABLE_STATUSES = new Set([408, 429, 500, 502, 503, 504]);

/**
 * OpenRouter refuses a request no endpoint can serve under our routing constraints with
 * HTTP 404 "No endpoints found matching your data policy ...". Some gateways report the same
 * as 503. So: a 404 or 503 whose error message mentions the data policy, privacy, zero data
 * retention or "no endpoints found" is `privacy_routing_unavailable` and is not retried
 * (retrying cannot change the routing). Any other 404 is a plain upstream failure, and a 503
 * without such a message is transient: retried, then `service_unavailable`.
 */
const PRIVACY_REFUSAL = /data policy|no endpoints found|privacy|zero data retention/i;

/** No answer at all: the request timed out or the provider could not be reached. */
export function noAnswer(timedOutAfterMs: number | null): ProviderFailure {
  const detail = timedOutAfterMs !== null ? `The model provider did not answer within ${timedOutAfterMs} ms` : 'The model provider could not be reached';
  return { retryable: true, error: new AppError('service_unavailable', detail) };
}

/** A success status whose body is not JSON. */
export const unreadableAnswer = (): ProviderFailure => ({
  retryable: true,
  error: new AppError('service_unavailable', 'The model provider sent an unreadable response'),
});

/** An error status (or an error member in a 200), with the body's message and `Retry-After`. */
export function httpFailure(status: number, json: Record<string, unknown> | undefined, retryAfter: string | null): ProviderFailure {
  if ((status === 404 || status === 503) && PRIVACY_REFUSAL.test(errorMessage(json))) {
    return {
      retryable: false,
      error: new AppError('privacy_routing_unavailable', 'No model endpoint is available that guarantees zero data retention and no data collection'),
    };
  }
  const detail =
    status === 401 || status === 403
      ? `The model provider rejected the credentials (HTTP ${status})`
      : status === 402
        ? 'The model provider account has insufficient credit (HTTP 402)'
        : `The model provider failed (HTTP ${status})`;
  const retryAfterMs = retryAfter === null ? undefined : parseRetryAfter(retryAfter);
  const refused = REFUSED_REQUEST_STATUSES.has(status) || (status === 500 && REFUSED_AS_SERVER_ERROR.test(errorMessage(json)));
  const Kind = refused ? RequestRefused : AppError;
  return {
    retryable: !refused && RETRYABLE_STATUSES.has(status),
    ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
    error: new Kind('service_unavailable', detail),
  };
}

function errorMessage(json: Record<string, unknown> | undefined): string {
  const error = json?.error;
  if (isRecord(error) && typeof error.message === 'string') return error.message;
  return typeof json?.message === 'string' ? json.message : '';
}

function parseRetryAfter(value: string): number | undefined {
  const seconds = Number(value);
  if (value.trim() !== '' && Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}
