import { z } from 'zod';

export const audioRequestSchema = z
  .object({
    cardId: z.uuid().optional(),
    sentenceId: z.uuid().optional(),
  })
  .superRefine((body, ctx) => {
    const given = [body.cardId, body.sentenceId].filter((v) => v !== undefined).length;
    if (given !== 1) ctx.addIssue({ code: 'custom', path: [], message: 'send exactly one of cardId or sentenceId' });
  })
  .meta({ id: 'AudioRequest' });

export const audioSchema = z
  .object({
    audioId: z.string(),
    status: z.enum(['pending', 'ready', 'failed']),
    contentType: z.string().nullable().meta({ description: 'Known once ready, e.g. audio/mpeg or audio/wav.' }),
    url: z.string().meta({ description: 'Where the bytes are served (supports HTTP range requests).' }),
  })
  .meta({ id: 'Audio' });

export const audioEnvelopeSchema = z.object({ audio: audioSchema });
export const audioParamsSchema = z.object({ audioId: z.uuid() });
export type AudioRequest = z.infer<typeof audioRequestSchema>;
export type AudioView = z.infer<typeof audioSchema>;
