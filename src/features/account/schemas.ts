import { z } from 'zod';
import { canonicalLanguage } from '../../domain/languages.ts';
import { isoDate } from '../shared-schemas.ts';

const newPassword = z.string().min(10, 'at least 10 characters').max(256);

export const credentialsSchema = z.object({
  email: z.string().trim().toLowerCase().max(254).pipe(z.email()),
  password: newPassword,
});

const revokeTokens = z.boolean().default(false).meta({ description: 'Also revoke every personal token (for a suspected leak). Tokens stay valid otherwise.' });

/** The body is optional: no body (or `null`) means `{}`. */
export const signOutEverywhereSchema = z.preprocess((body) => body ?? {}, z.object({ revokeTokens }));

export const changePasswordSchema = z.object({
  currentPassword: z.string().min(1).max(256),
  newPassword,
  revokeTokens,
});

export const sessionsEndedSchema = z
  .object({ sessionsEnded: z.number().int(), tokensRevoked: z.number().int() })
  .meta({ id: 'SessionsEnded' });

export const accountSchema = z
  .object({
    userId: z.string(),
    email: z.string(),
    plan: z.enum(['free', 'paid']),
    targetLanguage: z.string().nullable(),
    nativeLanguage: z.string().nullable(),
  })
  .meta({ id: 'Account' });

const languageTag = z
  .string()
  .transform((tag, ctx) => {
    const canonical = canonicalLanguage(tag);
    if (!canonical) {
      ctx.addIssue({ code: 'custom', message: `unsupported language "${tag}"; see GET /api/languages` });
      return z.NEVER;
    }
    return canonical;
  });

export const languageSettingsSchema = z.object({ targetLanguage: languageTag, nativeLanguage: languageTag });

export const languagesResponseSchema = z.object({
  languages: z.array(z.object({ tag: z.string(), name: z.string() })),
  sourceOnly: z.array(z.string()),
});

export const createTokenSchema = z.object({
  name: z.string().trim().min(1).max(100),
  scope: z.enum(['read', 'write']),
  expiresInDays: z.number().int().min(1).max(3650).optional(),
});

export const tokenSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    scope: z.enum(['read', 'write']),
    createdAt: isoDate,
    expiresAt: isoDate.nullable(),
    lastUsedAt: isoDate.nullable(),
    revokedAt: isoDate.nullable(),
  })
  .meta({ id: 'Token' });

export const createdTokenSchema = tokenSchema.extend({ token: z.string().meta({ description: 'Shown once, never again.' }) });

export const tokenListSchema = z.object({ items: z.array(tokenSchema) });
export const tokenIdSchema = z.object({ id: z.uuid() });

export type Account = z.infer<typeof accountSchema>;
export type SessionsEnded = z.infer<typeof sessionsEndedSchema>;
export type TokenView = z.infer<typeof tokenSchema>;
export type TokenScope = TokenView['scope'];
