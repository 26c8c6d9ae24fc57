import { z } from 'zod';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH, TOKEN_NAME_MAX } from '../../domain/limits.ts';
import { trimmedLengthPattern } from '../../domain/normalise.ts';
import { codePointString, isoDate, languageTag, languageTagOutput } from '../shared-schemas.ts';

const newPassword = codePointString(PASSWORD_MIN_LENGTH, PASSWORD_MAX_LENGTH);

/**
 * zod's email pattern, narrowed to what JSON Schema's `email` format also accepts (a local part of
 * at most 64 characters, domain labels of at most 63 that do not end in `-`), so that the document
 * can state both and mean the same addresses as the server.
 */
const EMAIL_PATTERN =
  /^(?=[^@]{1,64}@)(?:[A-Za-z0-9_'+-]+\.)*[A-Za-z0-9_'+-]*[A-Za-z0-9_+-]@(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)+[A-Za-z]{2,63}$/;

/** Compared in lower case, surrounding spaces ignored; the document states the address's own form. */
const email = z
  .preprocess((value) => (typeof value === 'string' ? value.trim().toLowerCase() : value), z.email({ pattern: EMAIL_PATTERN }).max(254))
  .meta({ description: 'An email address; case-insensitive, surrounding spaces ignored.' });

export const credentialsSchema = z.object({ email, password: newPassword });

/** Signing in checks the password itself; only a new password has a minimum length. */
export const loginSchema = z.object({ email, password: codePointString(1, PASSWORD_MAX_LENGTH) });

const revokeTokens = z.boolean().default(false).meta({ description: 'Also revoke every personal token (for a suspected leak). Tokens stay valid otherwise.' });

/** The body is optional: no body (or `null`) means `{}`. */
export const signOutEverywhereSchema = z.preprocess((body) => body ?? {}, z.object({ revokeTokens }));

export const changePasswordSchema = z.object({
  currentPassword: codePointString(1, PASSWORD_MAX_LENGTH),
  newPassword,
  revokeTokens,
});

export const sessionsEndedSchema = z.object({ sessionsEnded: z.number().int(), tokensRevoked: z.number().int() }).meta({ id: 'SessionsEnded' });

export const accountSchema = z
  .object({
    userId: z.uuid(),
    email: z.string(),
    plan: z.enum(['free', 'paid']),
    targetLanguage: languageTagOutput.nullable(),
    nativeLanguage: languageTagOutput.nullable(),
  })
  .meta({ id: 'Account' });

/** GET /api/me: the account, and what the caller's credential may do (a tool hides its writes from a read token). */
export const meSchema = accountSchema
  .extend({
    access: z.enum(['session', 'read', 'write']).meta({ description: "`session` for a signed-in page, else the personal token's scope." }),
    languageModel: z
      .object({
        host: z.string().meta({ description: 'The host that receives the text you capture, translate or ask a draft for.' }),
        model: z.string(),
        ownModel: z
          .boolean()
          .meta({ description: 'True when it is the deployment’s own endpoint rather than the router (which requires zero data retention).' }),
        statement: z.string().meta({ description: 'The same in a sentence, as the settings page shows it.' }),
      })
      .meta({ description: 'Where your text goes: the deployment’s language model.' }),
  })
  .meta({ id: 'Me' });

export const languageSettingsSchema = z.object({ targetLanguage: languageTag, nativeLanguage: languageTag });

export const languagesResponseSchema = z.object({
  languages: z.array(z.object({ tag: languageTagOutput, name: z.string() })),
  sourceOnly: z.array(z.literal('auto')),
});

export const createTokenSchema = z.object({
  name: z.string().regex(trimmedLengthPattern(TOKEN_NAME_MAX), `1..${TOKEN_NAME_MAX} characters, not only spaces`).trim(),
  scope: z.enum(['read', 'write']),
  expiresInDays: z.number().int().min(1).max(3650).optional(),
});

const tokenSchema = z
  .object({
    id: z.uuid(),
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

/** What the service builds: stored language tags are plain strings until the answer is checked. */
export type Account = z.input<typeof accountSchema>;
export type SessionsEnded = z.infer<typeof sessionsEndedSchema>;
export type TokenView = z.infer<typeof tokenSchema>;
export type TokenScope = TokenView['scope'];
