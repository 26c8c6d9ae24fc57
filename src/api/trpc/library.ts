import { decodeCursor } from '../../domain/library-listing.ts';
import { captureCard, deleteCard, getCardForUser, listCards, preparationDispatch, refreshEnrichment } from '../../features/library/service.ts';
import { z } from 'zod';
import { captureSchema, cardIdSchema, listQuerySchema, refreshSchema } from '../../features/library/schemas.ts';
import { authedProcedure, modelProcedure, router, type TrpcContext } from './init.ts';

const dispatchOf = ({ deps, request }: TrpcContext) => preparationDispatch(deps, request.log);

/** The library for the web page: the same schemas and services as /api/library. */
export const libraryRouter = router({
  capture: modelProcedure.input(captureSchema).mutation(({ ctx, input }) => captureCard(ctx.em, dispatchOf(ctx), ctx.principal.userId, input.text)),
  list: authedProcedure.input(listQuerySchema).query(({ ctx, input }) =>
    listCards(ctx.em, ctx.principal.userId, { query: input.query, cursor: input.cursor ? decodeCursor(input.cursor) : null, limit: input.limit })),
  get: authedProcedure.input(z.object({ cardId: cardIdSchema })).query(async ({ ctx, input }) => ({ card: await getCardForUser(ctx.em, ctx.principal.userId, input.cardId) })),
  refresh: modelProcedure.input(refreshSchema).mutation(async ({ ctx, input }) => ({ card: await refreshEnrichment(ctx.em, dispatchOf(ctx), ctx.principal.userId, input.cardId) })),
  delete: authedProcedure.input(z.object({ cardId: cardIdSchema })).mutation(async ({ ctx, input }) => {
    await deleteCard(ctx.em, dispatchOf(ctx), ctx.principal.userId, input.cardId);
    return { deleted: true as const };
  }),
});
