import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { AppError } from '../../domain/problems.ts';
import type { Principal } from './auth.ts';

export interface LearnerLanguages {
  targetLanguage: string;
  nativeLanguage: string;
}

/**
 * The reusable 428 guard: capture, page translation and drafts need both languages first. The
 * principal carries them (read with the credentials), so the guard costs no query.
 */
export function requireLanguages(principal: Pick<Principal, 'targetLanguage' | 'nativeLanguage'>): LearnerLanguages {
  const { targetLanguage, nativeLanguage } = principal;
  if (!targetLanguage || !nativeLanguage) {
    throw new AppError('language_setup_required', 'Set your target and native languages first: PUT /api/settings/language.');
  }
  return { targetLanguage, nativeLanguage };
}

declare module 'fastify' {
  interface FastifyRequest {
    languages: LearnerLanguages | null;
  }
}

export const languageGuardPlugin = fp(
  async (app: FastifyInstance) => {
    app.decorateRequest('languages', null);
    app.addHook('preValidation', async (request) => {
      if (!request.routeOptions.config.requiresLanguages || !request.principal) return;
      request.languages = requireLanguages(request.principal);
    });
  },
  { name: 'language-guard', dependencies: ['auth'] },
);
