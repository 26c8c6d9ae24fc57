import { expect, vi } from 'vitest';
import { bodyOf, type Api } from './api.ts';

/** The import once it has completed (within two minutes: every card prepared by the fake provider). */
export function importCompleted(client: Api, importId: string) {
  return vi.waitFor(
    async () => {
      const view = bodyOf(await client.GET('/api/library/imports/{importId}', { params: { path: { importId } } }), 200).import;
      expect(view.state, JSON.stringify(view)).toBe('completed');
      return view;
    },
    { timeout: 120_000, interval: 300 },
  );
}
