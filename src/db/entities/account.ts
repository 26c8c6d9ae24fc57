import { defineEntity, p } from '@mikro-orm/postgresql';

export const User = defineEntity({
  name: 'User',
  tableName: 'users',
  properties: {
    id: p.uuid().primary(),
    email: p.string(),
    passwordHash: p.string(),
    plan: p.enum(['free', 'paid'] as const),
    targetLanguage: p.string().nullable(),
    nativeLanguage: p.string().nullable(),
    createdAt: p.datetime(),
  },
});

export const Session = defineEntity({
  name: 'Session',
  tableName: 'sessions',
  properties: {
    idHash: p.string().primary(),
    userId: p.uuid(),
    createdAt: p.datetime(),
    expiresAt: p.datetime(),
  },
});

export const ApiToken = defineEntity({
  name: 'ApiToken',
  tableName: 'api_tokens',
  properties: {
    id: p.uuid().primary(),
    userId: p.uuid(),
    name: p.string(),
    scope: p.enum(['read', 'write'] as const),
    tokenHash: p.string(),
    createdAt: p.datetime(),
    expiresAt: p.datetime().nullable(),
    revokedAt: p.datetime().nullable(),
    lastUsedAt: p.datetime().nullable(),
  },
});
