import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { User } from '../../db/entities/index.ts';
import type { Em, Orm } from '../../db/orm.ts';
import { AppError } from '../../domain/problems.ts';

export interface LearnerLanguages { targetLanguage: string; nativeLanguage: string }

/** The reusable 428 guard: capture, translation and work need both languages first. */
export async function requireLanguages(em: Em, userId: string): Promise<LearnerLanguages> {
  const user = await em.findOne(User, { id: userId }, { fields: ['targetLanguage', 'nativeLanguage'] });
  if (!user?.targetLanguage || !user.nativeLanguage) {
    throw new AppError('language_setup_required', 'Set your target and native languages first: PUT /api/settings/language.');
  }
  return { targetLanguage: user.targetLanguage, nativeLanguage: user.nativeLanguage };
}

declare module 'fastify' {
  interface FastifyRequest {
    languages: LearnerLanguages | null;
  }
}

export const languageGuardPlugin = fp(
  async (app: FastifyInstance, { orm }: { orm: Orm }) => {
    app.decorateRequest('languages', null);
    app.addHook('preValidation', async (request) => {
      if (!request.routeOptions.config.requiresLanguages || !request.principal) return;
      request.languages = await requireLanguages(orm.em.fork(), request.principal.userId);
    });
  },
  { name: 'language-guard', dependencies: ['auth'] },
);
