import { z } from 'zod';
import { LIST_LIMIT_DEFAULT, LIST_LIMIT_MAX } from '../../domain/limits.ts';
import { isoDate } from '../shared-schemas.ts';

export const walletSchema = z
  .object({
    balance: z.number().int(),
    held: z
      .number()
      .int()
      .meta({
        description:
          'Credits held by work in progress (each unit holds its maximum cost until charged). What is available is balance − held; a 402 comes only when ' +
          'nothing is.',
      }),
    plan: z.enum(['free', 'paid']),
    monthlyAllowance: z.number().int(),
    periodStart: isoDate,
    periodEnd: isoDate,
  })
  .meta({ id: 'Credits' });

export const ledgerQuerySchema = z.object({
  // At most 18 digits: always within PostgreSQL's bigint, so a huge cursor is a 400, not a 500.
  cursor: z
    .string()
    .regex(/^\d{1,18}$/, 'a cursor from a previous page')
    .optional(),
  limit: z.coerce.number().int().min(1).max(LIST_LIMIT_MAX).default(LIST_LIMIT_DEFAULT),
});

export const ledgerSchema = z.object({
  items: z.array(
    z.object({
      id: z.string(),
      kind: z.string(),
      amount: z.number().int(),
      balanceAfter: z.number().int(),
      reason: z.string(),
      ref: z.string().nullable(),
      subject: z
        .string()
        .nullable()
        .meta({
          description:
            'What the entry paid for, in the learner’s own words (at most 80 characters): the card’s expression, the sentence, or the card or sentence an ' +
            'audio clip speaks; null for grants, expiries, page translations and drafts, and once the subject is deleted.',
        }),
      createdAt: isoDate,
    }),
  ),
  nextCursor: z.string().nullable(),
});

export type LedgerPage = z.infer<typeof ledgerSchema>;
export type WalletView = z.infer<typeof walletSchema>;
