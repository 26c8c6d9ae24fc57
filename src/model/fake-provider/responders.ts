import { libraryResponders } from './responders/library.ts';
import { translationResponders } from './responders/translation.ts';
import { workResponders } from './responders/work.ts';
import type { Responder } from './responder.ts';

/**
 * Built-in answers of the fake model provider, keyed by task name (the structured output's
 * `json_schema.name`). Feature modules register theirs here so the fake gives realistic,
 * deterministic answers in local runs and integration tests; a task without an entry gets a
 * generic instance of its JSON schema.
 *
 * Example (in a feature module):
 *   builtInResponders.translate_batch = (input) => ({
 *     items: input.items.map((i: { id: string; text: string }) => ({
 *       id: i.id, text: fakeTranslate(i.text, input.target_language), detected_source_language: 'en',
 *     })),
 *   });
 */

export const builtInResponders: Record<string, Responder> = {
  ...libraryResponders,
  ...translationResponders,
  ...workResponders,
};
