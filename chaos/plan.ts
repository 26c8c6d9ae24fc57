/**
 * The load of one run, decided up front: distinct capture texts and async sentences spread
 * evenly over the load's duration, and page translations sent two or three times under one
 * request_id (the second send races the first; the third comes later and must be a replay).
 * Deterministic, so two runs of one size send the same things.
 */

export interface PlannedCapture {
  at: number;
  user: number;
  text: string;
  started: boolean;
}
export interface PlannedSentence {
  at: number;
  user: number;
  text: string;
  started: boolean;
}
export interface PlannedPageSend {
  at: number;
  user: number;
  requestId: string;
  items: { id: string; text: string }[];
  started: boolean;
}

export interface LoadPlan {
  captures: PlannedCapture[];
  sentences: PlannedSentence[];
  pageSends: PlannedPageSend[];
}

const VERBS = ['break', 'keep', 'take', 'bring', 'hold', 'turn', 'give', 'catch', 'spill', 'call'];
const QUALITIES = ['a quiet', 'the whole', 'an honest', 'a rough', 'the early', 'a loose', 'the hidden', 'a bright', 'the narrow', 'a stubborn'];
const THINGS = ['bargain', 'harbour', 'promise', 'thread', 'window', 'ledger', 'meadow', 'rumour', 'lantern', 'compass'];
const TAILS = ['', ' at dawn', ' by noon', ' after all', ' in time', ' for good', ' on purpose', ' at last', ' as usual', ' for once'];
const PEOPLE = [
  'My neighbour',
  'The old captain',
  'Her cousin',
  'Our teacher',
  'The night nurse',
  'His landlord',
  'A tired pilot',
  'The baker',
  'Their lawyer',
  'My sister',
];
const DEEDS = [
  'forgot the keys',
  'missed the last train',
  'fixed the bicycle',
  'lost the map',
  'painted the fence',
  'read the letter twice',
  'found a stray cat',
  'sold the piano',
  'burnt the toast',
  'planted tomatoes',
];
const WHENS = [
  'yesterday',
  'this morning',
  'last winter',
  'before lunch',
  'on Sunday',
  'after the storm',
  'in the spring',
  'at midnight',
  'last week',
  'on the way home',
];
const PAGE_TEXTS = [
  'Sign in',
  'Read more',
  'Subscribe to our newsletter',
  'Terms of service',
  'The river rose after the storm.',
  'Prices include VAT.',
  'Free shipping on orders over 50 euros.',
  'Chapter one: the harbour',
  'Leave a comment',
  'The museum is closed on Mondays.',
  'Share this article',
  'Most popular this week',
  'Your cart is empty.',
  'We use cookies to improve your experience.',
  'Forgot your password?',
  'The train to Lyon is delayed by ten minutes.',
  'Add to basket',
  'Related stories',
  'Photo: the old lighthouse at dusk',
  'Back to top',
];

/**
 * A Weyl sequence: fractions of the golden ratio, evenly spread over [0, 1) and the same for the
 * same seed. Not random, which a load plan does not need; only spread.
 */
function spreadSequence(seed: number): () => number {
  let x = (seed * 0.7548776662466927) % 1;
  return () => (x = (x + 0.6180339887498949) % 1);
}

function captureText(i: number): string {
  if (i >= 10_000) throw new Error('at most 10,000 distinct captures');
  return `${VERBS[i % 10]} ${QUALITIES[Math.floor(i / 10) % 10]} ${THINGS[Math.floor(i / 100) % 10]}${TAILS[Math.floor(i / 1000)]}`;
}

function sentenceText(i: number): string {
  if (i >= 1_000) throw new Error('at most 1,000 distinct sentences');
  return `${PEOPLE[i % 10]} ${DEEDS[Math.floor(i / 10) % 10]} ${WHENS[Math.floor(i / 100)]}.`;
}

export function buildPlan(sizes: { users: number; captures: number; sentences: number; pageSends: number; loadSeconds: number }, seed = 8): LoadPlan {
  const random = spreadSequence(seed);
  const span = sizes.loadSeconds * 1000;
  const spread = (i: number, n: number) => Math.floor((i + random()) * (span / Math.max(1, n)));
  const user = () => Math.floor(random() * sizes.users);

  const captures = Array.from({ length: sizes.captures }, (_, i) => ({ at: spread(i, sizes.captures), user: user(), text: captureText(i), started: false }));
  const sentences = Array.from({ length: sizes.sentences }, (_, i) => ({
    at: spread(i, sizes.sentences),
    user: user(),
    text: sentenceText(i),
    started: false,
  }));

  // Every request_id is sent twice, the first few a third time: 2.5 sends per id on average.
  const ids = sizes.pageSends < 2 ? sizes.pageSends : Math.max(1, Math.floor(sizes.pageSends / 2.5));
  const pageSends: PlannedPageSend[] = [];
  for (let j = 0; j < ids; j++) {
    const first = Math.floor(random() * span * 0.9);
    const count = 3 + Math.floor(random() * 6);
    const items = Array.from({ length: count }, (_, k) => ({ id: `p${k}`, text: PAGE_TEXTS[Math.floor(random() * PAGE_TEXTS.length)]! }));
    const send = { user: user(), requestId: `chaos-page-${seed}-${j}`, items, started: false };
    pageSends.push({ ...send, at: first });
    const extra = j < sizes.pageSends - 2 * ids ? 2 : 1;
    if (sizes.pageSends >= 2) pageSends.push({ ...send, at: first + Math.floor(random() * 2_000) });
    if (extra === 2) pageSends.push({ ...send, at: first + 5_000 + Math.floor(random() * 15_000) });
  }
  return { captures, sentences, pageSends: pageSends.slice(0, sizes.pageSends) };
}
