/** Addresses the service worker never answers: the API, tRPC, the API reference and the operator routes go to the network. */
export const NETWORK_ONLY = [/^\/api\//, /^\/trpc/, /^\/docs/, /^\/healthz/, /^\/readyz/, /^\/metrics/];
