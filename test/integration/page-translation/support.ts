import { randomUUID } from 'node:crypto';
import type { operations } from '../../../clients/rest/schema.d.ts';
import type { Stack } from '../../support/stack.ts';

/** A page-translation request, as the document types it. */
export type TranslateRequest = operations['pageTranslation.translate']['requestBody']['content']['application/json'];

export const batchCalls = (stack: Stack) => stack.fake.requests.filter((r) => r.body?.response_format?.json_schema?.name === 'translate_batch');

/** Items sent to the provider, over every translate_batch call so far. */
export const providerItems = (stack: Stack): { id: string; text: string }[] =>
  batchCalls(stack).flatMap((r) => JSON.parse(r.body.messages.find((m: { role: string }) => m.role === 'user').content).items);

const newRequestId = () => `req-${randomUUID()}`;

/** Unique text, so that tests never share cache entries by accident. */
export const uniqueText = (label: string) => `${label} ${randomUUID().slice(0, 8)}`;

export function translateBody(items: { id: string; text: string }[], overrides: Partial<TranslateRequest> = {}): TranslateRequest {
  return { request_id: newRequestId(), target_language: 'fr', source_language: 'auto', items, ...overrides };
}

export async function pageCharges(stack: Stack, userId: string) {
  return stack.orm.em
    .fork()
    .execute<{ idempotency_key: string; amount: number }[]>(
      `SELECT idempotency_key, amount FROM ledger_entries WHERE user_id = ? AND kind = 'page_translation' ORDER BY id`,
      [userId],
    );
}
