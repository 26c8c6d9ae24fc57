import { z } from 'zod';

/** Exactly one of cardId or sentenceId: each alternative forbids the other's member. */
export const audioRequestSchema = z
  .xor([z.object({ cardId: z.uuid(), sentenceId: z.never().optional() }), z.object({ sentenceId: z.uuid(), cardId: z.never().optional() })], {
    error: 'send exactly one of cardId or sentenceId',
  })
  .meta({ id: 'AudioRequest' });

const audioSchema = z
  .object({
    audioId: z.uuid(),
    status: z.enum(['pending', 'ready', 'failed']),
    contentType: z.string().nullable().meta({ description: 'Known once ready, e.g. audio/mpeg or audio/wav.' }),
    url: z.string().meta({ description: 'Where the bytes are served (supports HTTP range requests).' }),
  })
  .meta({ id: 'Audio' });

export const audioEnvelopeSchema = z.object({ audio: audioSchema });
export const audioParamsSchema = z.object({ audioId: z.uuid() });
export type AudioRequest = z.infer<typeof audioRequestSchema>;
export type AudioView = z.infer<typeof audioSchema>;
