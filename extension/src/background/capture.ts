import { CAPTURE_TEXT_MAX } from '../../../src/domain/limits.ts';
import { cleanCaptureText, countCodePoints } from '../../../src/domain/normalise.ts';
import { placeContext } from '../../../src/features/library/contexts.ts';
import type { CaptureOutcome, CardProgress } from '../shared/messages.ts';
import { momentLink } from '../shared/moment-link.ts';
import { loadSettings } from '../shared/settings.ts';
import { outOfCredits, plainReason, serviceClient, sleep, unreachable } from '../shared/service.ts';
import { retryAfterSeconds } from '../shared/retry-after.ts';

/** How many times a capture waits out a 429 before it gives up and says so. */
const RATE_LIMIT_WAITS = 3;

/**
 * Captures a selection: up to CAPTURE_TEXT_MAX characters it becomes a card (POST /api/library),
 * longer ones are saved as a sentence (POST /api/sentences). Only the text is sent, and with a
 * card the sentence around it when the learner turned "Send the sentence around my selection" on.
 * A caption's capture (`moment`: the frame's address, as the browser reports the sender, and the
 * caption's second) also keeps a link back to that moment with its sentence, only when the learner
 * turned "Keep a link back to the moment" on. Nothing else of the page (its title, other text)
 * leaves it.
 */
export async function capture(selection: string, sentence?: string, moment?: { pageUrl: string | undefined; seconds: number }): Promise<CaptureOutcome> {
  const text = cleanCaptureText(selection);
  if (!text) return { state: 'failed', message: 'Select some text first.' };
  const asCard = countCodePoints(text) <= CAPTURE_TEXT_MAX;
  const [{ api, serviceUrl }, { sendContext, linkToMoment }] = await Promise.all([serviceClient(), loadSettings()]);
  const context = asCard && sendContext ? contextFor(text, sentence) : null;
  // The link is kept with the sentence it was heard in: without one, it has nowhere to go.
  const sourceUrl = context && linkToMoment && moment ? momentLink(moment.pageUrl, moment.seconds) : null;
  for (let waits = 0; ; waits++) {
    let result;
    try {
      result = asCard
        ? await api.POST('/api/library', { body: context ? { text, context, ...(sourceUrl ? { sourceUrl } : {}) } : { text } })
        : await api.POST('/api/sentences', { body: { original_text: text } });
    } catch {
      return { state: 'failed', ...unreachable(serviceUrl) };
    }
    const { response, error } = result;
    if (response.status === 429 && waits < RATE_LIMIT_WAITS) {
      await sleep(retryAfterSeconds(response, 2) * 1000);
      continue;
    }
    if (asCard && 'data' in result && result.data && 'card' in result.data) {
      const { card } = result.data;
      return response.status === 202
        ? { state: 'saved', message: 'Saved to your library. Preparing its translation…', cardId: card.cardId }
        : { state: 'already', message: withTranslation('Already in your library', card.enrichment?.translation) };
    }
    if (!asCard && response.ok && result.data && 'sentence' in result.data) {
      return { state: 'saved', message: withTranslation('Saved as a sentence', result.data.sentence.translation) };
    }
    if (!asCard && response.status === 409) return { state: 'already', message: 'Already in your sentences.' };
    if (response.status === 402) return { state: 'failed', ...(await outOfCredits(api, 'nothing more can be saved')) };
    return { state: 'failed', ...plainReason(response.status, error) };
  }
}

/**
 * The sentence as the service takes it (CONTEXT_MAX characters at most, holding the expression as
 * the service matches it), or none: a sentence the service would refuse must not cost the capture.
 */
function contextFor(text: string, sentence: string | undefined): string | null {
  if (!sentence) return null;
  const placed = placeContext(sentence, [text]);
  return 'problem' in placed ? null : placed.text;
}

const withTranslation = (said: string, translation: string | null | undefined) => (translation ? `${said}: ${translation}` : `${said}.`);

/** Where a new card's preparation stands, for the toast to follow it. */
export async function cardProgress(cardId: string): Promise<CardProgress> {
  const { api } = await serviceClient();
  try {
    const { data } = await api.GET('/api/library/{cardId}', { params: { path: { cardId } } });
    if (!data) return { status: 'gone', translation: null };
    const { enrichmentStatus: status, enrichment, enrichmentError } = data.card;
    if (status === 'failed' && enrichmentError?.code === 'insufficient_credits') {
      const { message, link } = await outOfCredits(api, 'its translation cannot be prepared');
      return { status, translation: null, failure: { message: `Saved to your library. ${message}`, ...(link ? { link } : {}) } };
    }
    return { status, translation: enrichment?.translation ?? null };
  } catch {
    return { status: 'pending', translation: null };
  }
}
