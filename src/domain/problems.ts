/**
 * The error catalog: every failure the service reports, with a stable machine `code` and its
 * HTTP status. Handlers throw `AppError`s; the HTTP layer renders them as RFC 9457 problems.
 * A code whose cause passes by itself (a dependency away) names the wait a client should make
 * before asking again, unless the error names its own: so no 503 goes out without Retry-After,
 * wherever it is raised.
 */
export const problemCatalog = {
  invalid_request: { status: 400, title: 'Invalid request' },
  unauthenticated: { status: 401, title: 'Authentication required' },
  insufficient_credits: { status: 402, title: 'Out of credits' },
  read_only_token: { status: 403, title: 'Read-only token' },
  forbidden: { status: 403, title: 'Forbidden' },
  origin_not_allowed: { status: 403, title: 'Cross-site request refused' },
  wrong_password: { status: 403, title: 'Wrong password' },
  not_found: { status: 404, title: 'Not found' },
  method_not_allowed: { status: 405, title: 'Method not allowed' },
  conflict: { status: 409, title: 'Conflict' },
  duplicate_sentence: { status: 409, title: 'Duplicate sentence' },
  request_in_progress: { status: 409, title: 'Request in progress' },
  email_taken: { status: 409, title: 'Email already registered' },
  // A capture or import past the cards a library may hold on the learner's plan (`limit`, `cards`).
  library_full: { status: 409, title: 'Library full' },
  // A card an import saved whose preparation never started: the import was cancelled.
  import_cancelled: { status: 409, title: 'Import cancelled' },
  payload_too_large: { status: 413, title: 'Payload too large' },
  unsupported_media_type: { status: 415, title: 'Unsupported media type' },
  range_not_satisfiable: { status: 416, title: 'Range not satisfiable' },
  request_id_reused: { status: 422, title: 'request_id reused with a different body' },
  // An import file whose reading passed its thread's deadline or memory limit (`limit`: time or memory).
  import_too_costly: { status: 422, title: 'Import file too costly to read' },
  language_setup_required: { status: 428, title: 'Language setup required' },
  rate_limited: { status: 429, title: 'Too many requests' },
  audio_quota_exceeded: { status: 429, title: 'Audio generation quota used up' },
  internal_error: { status: 500, title: 'Internal error' },
  provider_output_invalid: { status: 502, title: 'Provider output failed validation' },
  // The provider's routing does not change in seconds.
  privacy_routing_unavailable: { status: 503, title: 'Privacy-preserving routing unavailable', retryAfterSeconds: 30 },
  // The database, Temporal or the model provider is away: a restart or fail-over takes seconds.
  service_unavailable: { status: 503, title: 'Service temporarily unavailable', retryAfterSeconds: 5 },
} as const satisfies Record<string, { status: number; title: string; retryAfterSeconds?: number }>;

export type ProblemCode = keyof typeof problemCatalog;

export interface FieldError {
  path: string;
  message: string;
}

export class AppError extends Error {
  readonly code: ProblemCode;
  readonly status: number;
  readonly title: string;
  /** Extra members of the problem document (e.g. `existingId`, `errors`). */
  readonly extensions: Record<string, unknown>;
  /**
   * How long to wait before asking again (whole seconds): the one way a problem says so. It is the
   * `Retry-After` header (REST and tRPC alike, src/http/plugins/problems.ts) and the document's
   * `retryAfterSeconds` member. Given by the error, else by its catalog entry.
   */
  readonly retryAfterSeconds: number | undefined;

  constructor(code: ProblemCode, detail: string, extensions: Record<string, unknown> = {}, options: { retryAfterSeconds?: number } = {}) {
    super(detail);
    this.name = 'AppError';
    this.code = code;
    this.status = problemCatalog[code].status;
    this.title = problemCatalog[code].title;
    this.extensions = extensions;
    const entry = problemCatalog[code];
    this.retryAfterSeconds = options.retryAfterSeconds ?? ('retryAfterSeconds' in entry ? entry.retryAfterSeconds : undefined);
  }
}

export const isAppError = (error: unknown): error is AppError => error instanceof AppError;

/** The RFC 9457 body for an error; `type` points into the API reference. */
export function problemBody(error: AppError, instance?: string) {
  return {
    type: `/docs#problem-${error.code}`,
    title: error.title,
    status: error.status,
    detail: error.message,
    code: error.code,
    ...(instance ? { instance } : {}),
    ...(error.retryAfterSeconds !== undefined ? { retryAfterSeconds: error.retryAfterSeconds } : {}),
    ...error.extensions,
  };
}

/** Which limit refused a request: per client address, per user (general or model), exports, sign-up, login backoff, live streams, encounters per day. */
export type RateLimitName = 'address' | 'user' | 'model' | 'export' | 'signup' | 'login' | 'streams' | 'encounters';

/** 429 `rate_limited`, naming the limit, with the whole seconds to wait (≥ 1). */
export function rateLimited(limit: RateLimitName, retryAfterMs: number): AppError {
  const retryAfterSeconds = Math.max(1, Math.ceil(retryAfterMs / 1000));
  return new AppError('rate_limited', `Too many requests; retry in ${retryAfterSeconds} s.`, { limit }, { retryAfterSeconds });
}

/** 409 `library_full`: the library holds `cards` of the `limit` its plan allows; `adding` new ones would pass it. */
export function libraryFull(limit: number, cards: number, adding = 1): AppError {
  const room = Math.max(0, limit - cards);
  const what = adding === 1 ? 'No new card fits' : `${adding.toLocaleString('en')} new cards do not fit (room for ${room.toLocaleString('en')})`;
  return new AppError(
    'library_full',
    `${what}: your library holds ${cards.toLocaleString('en')} cards of the ${limit.toLocaleString('en')} your plan allows. Delete cards you no longer need.`,
    { limit, cards, room },
  );
}
