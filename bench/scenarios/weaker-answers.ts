// Issue 34, "Measure (bench)": the share of cards a weaker answer used to fail that now end ready.
// The fake provider's invalid answers to a capture's preparation are replayed through both
// readers: today's, and the one before 262932b ("answers that degrade"), which failed the card
// (provider_output_invalid) on any invalid optional part. The old reader is read from git at run
// time (bench/at-commit.ts: git show 262932b~1:… into a temp dir), not copied: its files are the
// commit's own. Each answer is taken through the path each version read it by: the model client's
// answer check (validatedAnswer before, judgedAnswer now: content, finish_reason, JSON, the
// request's zod schema) and then finalisePreparation, as src/features/library/preparation.ts does.
// The answers are the fake's own HTTP answers (src/model/fake-provider/server.ts, in this process):
// its capture_preparation responder's answer, made weaker, and its own invalid modes and quirks.
// A repair (now) or a second ask (before) of a deterministic answer gets the same answer, so one
// read decides the card in both versions. Needs nothing of the stack;
// `sh bin/with-toolchain.sh tsx bench/scenarios/weaker-answers.ts` prints the same on its own.
import { pathToFileURL } from 'node:url';
import type { ZodType } from 'zod';
import { OUTPUT_TOKEN_LIMITS } from '../../src/domain/model-budget.ts';
import { locateExpression } from '../../src/features/library/contexts.ts';
import * as current from '../../src/features/library/preparation-rules.ts';
import { libraryResponders } from '../../src/model/fake-provider/responders/library.ts';
import { type FakeQuirks, startFakeProvider } from '../../src/model/fake-provider/server.ts';
import { strictJsonSchema } from '../../src/model/model-client.ts';
import { schemaInstructions } from '../../src/model/output-modes.ts';
import { judgedAnswer } from '../../src/model/structured-answer.ts';
import { importAtCommit } from '../at-commit.ts';
import type { BenchContext } from '../support.ts';

/** The commit whose reader is "before": the parent of 262932b. */
const BEFORE = '262932b~1';
const RULES = 'src/features/library/preparation-rules.ts';
const ANSWER = 'src/model/structured-answer.ts';
const TASK = current.PREPARATION_TASK;

type Context = { text: string; start: number; end: number } | null;

/** One way an answer's optional part is invalid or missing, and where that shape comes from. */
interface Weakening {
  name: string;
  /** The part it spoils: two weakenings of one part are not combined. */
  part: 'register' | 'guidance' | 'examples' | 'usage' | 'focuses' | 'correction' | 'sense';
  /** Only with a context, only without, or either. */
  when: 'context' | 'no context' | 'any';
  spoil(answer: any, text: string): void;
}

// own-model: test/integration/library/own-model.test.ts, "a weaker answer loses the parts it got wrong" (the fake's responder there).
// rules: test/unit/features/library/preparation-rules.test.ts, "keeps the card despite …" and the sense cases.
// issue: issue 34's list ("a sense whose cue is the expression", "a preparation without a context … a `sense` object").
const WEAKENINGS: Weakening[] = [
  // own-model
  { name: 'a register not allowed (posh)', part: 'register', when: 'any', spoil: (a) => (a.usage.register = 'posh') },
  { name: 'no guidance', part: 'guidance', when: 'any', spoil: (a) => (a.usage.guidance = '') },
  // rules
  { name: 'no examples', part: 'examples', when: 'any', spoil: (a) => (a.usage.examples = []) },
  // rules ("four examples: the first three valid ones")
  { name: 'five examples, one empty', part: 'examples', when: 'any', spoil: (a, t) => (a.usage.examples = [`${t}.`, '', `A ${t}.`, `B ${t}.`, `C ${t}.`]) },
  // own-model
  { name: 'an example without the expression', part: 'examples', when: 'any', spoil: (a) => a.usage.examples.push('Nothing to do with it.') },
  // rules ("no usage at all"), and a usage left out
  { name: 'usage null', part: 'usage', when: 'any', spoil: (a) => (a.usage = null) },
  { name: 'usage left out', part: 'usage', when: 'any', spoil: (a) => delete a.usage },
  // rules
  { name: 'no focus', part: 'focuses', when: 'any', spoil: (a) => (a.focuses = []) },
  // own-model: five focuses, one of a kind that does not exist
  {
    name: 'five focuses, one of an unknown kind',
    part: 'focuses',
    when: 'any',
    spoil: (a) =>
      (a.focuses = [
        { kind: 'meaning', note: 'One.' },
        { kind: 'vibes', note: 'Not a kind.' },
        { kind: 'grammar', note: 'Two.' },
        { kind: 'idiom', note: 'Three.' },
        { kind: 'spelling', note: 'Four.' },
      ]),
  },
  // rules ("an unknown focus kind"), the only focus
  { name: 'the only focus of an unknown kind', part: 'focuses', when: 'any', spoil: (a) => (a.focuses = [{ kind: 'vibes', note: 'x' }]) },
  // own-model
  {
    name: 'a correction that is a rewrite',
    part: 'correction',
    when: 'any',
    spoil: (a) => Object.assign(a, { correctedText: 'Something else entirely, rewritten', correctionNote: 'Rewritten.' }),
  },
  // rules ("a missing correctedText")
  { name: 'correctedText left out', part: 'correction', when: 'any', spoil: (a) => delete a.correctedText },
  {
    name: 'a correction note without a correction',
    part: 'correction',
    when: 'any',
    spoil: (a) => Object.assign(a, { correctedText: null, correctionNote: 'x' }),
  },
  // issue, rules ("a sense without a context"), own-model
  { name: 'a sense without a context', part: 'sense', when: 'no context', spoil: (a) => (a.sense = { gloss: 'a sense', cue: 'nothing' }) },
  // issue ("harpooned" for "harpoon"), rules (cue "bank" for "bank")
  { name: 'a sense whose cue is the expression', part: 'sense', when: 'context', spoil: (a, t) => (a.sense = { gloss: 'a sense', cue: t }) },
  // rules (cue "mountain")
  { name: 'a sense whose cue is not in the sentence', part: 'sense', when: 'context', spoil: (a) => (a.sense = { gloss: 'a sense', cue: 'mountain' }) },
  // rules (sense null with a context)
  { name: 'no sense with a context', part: 'sense', when: 'context', spoil: (a) => (a.sense = null) },
  { name: 'a sense without a gloss', part: 'sense', when: 'context', spoil: (a) => (a.sense = { ...a.sense, gloss: '' }) },
];

/** An answer no reader can make a card of: the translation is missing or invalid, or there is no answer to read. */
interface Unusable {
  name: string;
  spoil?: (answer: any) => void;
  /** The fake's own invalid answers: a mode (server.ts: `malformed`, `schema_violation`) or a quirk. */
  mode?: 'malformed' | 'schema_violation';
  quirks?: Partial<FakeQuirks>;
  /** Asked in json_object mode without a `schema` member (what `bareJsonObjectIsEmpty` answers `{}` to). */
  bareJsonObject?: boolean;
}

const UNUSABLE: Unusable[] = [
  // own-model ("only a translation that stays missing fails the card")
  { name: 'an empty translation', spoil: (a) => (a.translation = '') },
  // rules ("rejects …")
  { name: 'no translation member', spoil: (a) => delete a.translation },
  { name: 'a translation that is no string', spoil: (a) => (a.translation = 42) },
  { name: 'a translation of spaces', spoil: (a) => (a.translation = '   ') },
  { name: 'a translation over 1,000 characters', spoil: (a) => (a.translation = 'x'.repeat(1001)) },
  // own-model's weak answer, its translation emptied too: the rest cannot save it
  {
    name: 'an empty translation and every part weaker',
    spoil: (a) => {
      for (const w of WEAKENINGS.filter((w) => w.when === 'any')) w.spoil(a, 'x');
      a.translation = '';
    },
  },
  // the fake's modes and quirks (server.ts)
  { name: 'not JSON (mode malformed)', mode: 'malformed' },
  { name: '{"unexpected": true} (mode schema_violation)', mode: 'schema_violation' },
  { name: '{} (quirk bareJsonObjectIsEmpty)', quirks: { bareJsonObjectIsEmpty: true }, bareJsonObject: true },
  { name: 'cut off at the token limit (quirk tokenLimit 10)', quirks: { tokenLimit: 10 } },
  { name: 'no translation, in a code fence (quirk wraps)', spoil: (a) => delete a.translation, quirks: { wraps: 'fence' } },
];

/** The expressions captured: with no context, and with the sentence each was met in. */
const CAPTURES: { text: string; context: string | null }[] = [
  { text: 'break a leg', context: null },
  { text: 'I recieve it', context: null }, // one of the fake's corrections
  { text: 'bank', context: 'We fished from the muddy bank of the river.' },
  { text: 'bank', context: 'She opened a savings account at the bank.' },
];

interface Case {
  kind: 'control' | 'single' | 'pair' | 'all at once' | 'wrapped' | 'unusable';
  name: string;
  text: string;
  context: Context;
  spoil: (answer: any) => void;
  mode?: 'malformed' | 'schema_violation';
  quirks?: Partial<FakeQuirks>;
  bareJsonObject?: boolean;
}

function markOf(text: string, sentence: string | null): Context {
  if (sentence === null) return null;
  const mark = locateExpression(sentence, text);
  if (!mark) throw new Error(`"${text}" is not in "${sentence}"`);
  return { text: sentence, ...mark };
}

/** Every weakening alone, every pair of two parts, every part at once, the fake's wrapped JSON, and the unusable ones. */
export function corpus(): Case[] {
  const cases: Case[] = [];
  for (const { text, context: sentence } of CAPTURES) {
    const context = markOf(text, sentence);
    const base = { text, context };
    const fits = WEAKENINGS.filter((w) => w.when === 'any' || (w.when === 'context') === (context !== null));
    const spoiling = (ws: Weakening[]) => (a: any) => ws.forEach((w) => w.spoil(a, text));
    // The fake's own answer, unspoiled: ready in both, or the replay itself is wrong (not counted).
    cases.push({ ...base, kind: 'control', name: 'the fake’s answer as it is', spoil: () => undefined });
    for (const w of fits) cases.push({ ...base, kind: 'single', name: w.name, spoil: spoiling([w]) });
    for (const [i, a] of fits.entries()) {
      for (const b of fits.slice(i + 1)) {
        if (a.part !== b.part) cases.push({ ...base, kind: 'pair', name: `${a.name} + ${b.name}`, spoil: spoiling([a, b]) });
      }
    }
    const onePerPart = [...new Map(fits.map((w) => [w.part, w])).values()].filter((w) => w.part !== 'usage');
    cases.push({ ...base, kind: 'all at once', name: onePerPart.map((w) => w.name).join(' + '), spoil: spoiling(onePerPart) });
    // The fake's quirk `wraps` (server.ts): its JSON in prose or a code fence, as is and with every part weaker.
    for (const wraps of ['prose', 'fence'] as const) {
      cases.push({ ...base, kind: 'wrapped', name: `in ${wraps}`, spoil: () => undefined, quirks: { wraps } });
      cases.push({ ...base, kind: 'wrapped', name: `in ${wraps}, every part weaker`, spoil: spoiling(onePerPart), quirks: { wraps } });
    }
    for (const u of UNUSABLE) cases.push({ ...base, ...u, kind: 'unusable', spoil: u.spoil ?? (() => undefined) });
  }
  return cases;
}

/** How a reader ended a card: ready, or failed with the reason it stored. */
type Verdict = { ready: true } | { ready: false; reason: string };

interface Reader {
  read(body: Record<string, unknown>, text: string, context: Context): Verdict;
}

const spend = { recordUnbilled: () => undefined };
const MODEL = 'fake/model';

function request<T>(schema: ZodType<T>) {
  return { task: TASK, schema, system: '', input: null, maxTokens: OUTPUT_TOKEN_LIMITS.capture_preparation };
}

/** Today's reader: judgedAnswer, then finalisePreparation. */
const currentReader: Reader = {
  read(body, text, context) {
    const verdict = judgedAnswer(body, request(current.preparationSchemaFor(context)), '0', MODEL, undefined, spend);
    if (!verdict.ok) return { ready: false, reason: verdict.error.message };
    const card = current.finalisePreparation(text, verdict.result.data);
    return card.translation ? { ready: true } : { ready: false, reason: 'no translation stored' };
  },
};

/** The reader before 262932b: validatedAnswer (it throws), then finalisePreparation, from git. */
async function readerBefore(): Promise<{ reader: Reader; commit: string; fromCommit: string[] }> {
  const { modules, commit, fromCommit } = await importAtCommit(BEFORE, [RULES, ANSWER]);
  const rules = modules[RULES] as typeof current;
  const answer = modules[ANSWER] as { validatedAnswer: (...args: unknown[]) => { data: current.PreparationOutput } };
  if (typeof answer.validatedAnswer !== 'function' || typeof rules.finalisePreparation !== 'function') {
    throw new Error(`${BEFORE} has no validatedAnswer/finalisePreparation: not the reader before 262932b`);
  }
  const reader: Reader = {
    read(body, text, context) {
      try {
        const result = answer.validatedAnswer(body, request(rules.preparationSchemaFor(context)), MODEL, undefined, spend);
        const card = rules.finalisePreparation(text, result.data);
        return card.translation ? { ready: true } : { ready: false, reason: 'no translation stored' };
      } catch (error) {
        return { ready: false, reason: (error as Error).message };
      }
    },
  };
  return { reader, commit, fromCommit };
}

/** The fake's HTTP answer (the whole chat completions body) to one case's preparation request. */
async function fakeAnswers(cases: Case[]): Promise<Record<string, unknown>[]> {
  const fake = await startFakeProvider();
  const bodies: Record<string, unknown>[] = [];
  try {
    for (const c of cases) {
      fake.reset();
      if (c.mode) fake.setMode(c.mode);
      if (c.quirks) fake.setQuirks(c.quirks);
      fake.setResponder(TASK, (input, meta) => {
        const answer = structuredClone(libraryResponders[TASK]!(input, meta) as object);
        c.spoil(answer);
        return answer;
      });
      const { system, input } = current.preparationRequest(c.text, 'fr', c.context?.text ?? null);
      const schema = strictJsonSchema(current.preparationSchemaFor(c.context));
      const format = c.bareJsonObject ? { type: 'json_object' } : { type: 'json_schema', json_schema: { name: TASK, strict: true, schema } };
      const res = await fetch(`${fake.baseUrl}/chat/completions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: 'Bearer bench' },
        body: JSON.stringify({
          model: MODEL,
          messages: [
            { role: 'system', content: c.bareJsonObject ? system + schemaInstructions(TASK, schema) : system },
            { role: 'user', content: JSON.stringify(input) },
          ],
          response_format: format,
          max_tokens: OUTPUT_TOKEN_LIMITS.capture_preparation,
        }),
      });
      if (res.status !== 200) throw new Error(`the fake answered ${res.status} to "${c.name}": ${await res.text()}`);
      bodies.push((await res.json()) as Record<string, unknown>);
    }
  } finally {
    await fake.close();
  }
  return bodies;
}

export interface Replay {
  commit: string;
  fromCommit: string[];
  rows: { c: Case; before: Verdict; now: Verdict }[];
}

export async function replay(): Promise<Replay> {
  const cases = corpus();
  const bodies = await fakeAnswers(cases);
  const { reader, commit, fromCommit } = await readerBefore();
  const rows = cases.map((c, i) => ({ c, before: reader.read(bodies[i]!, c.text, c.context), now: currentReader.read(bodies[i]!, c.text, c.context) }));
  const control = rows.filter((r) => r.c.kind === 'control' && !(r.before.ready && r.now.ready));
  if (control.length > 0) throw new Error(`the fake's own answer did not end ready: ${JSON.stringify(control.map((r) => [r.c.text, r.before, r.now]))}`);
  // The guard: an answer without a usable translation never makes a card, in either version.
  const leaked = rows.filter((r) => r.c.kind === 'unusable' && (r.before.ready || r.now.ready));
  if (leaked.length > 0) throw new Error(`unusable answers ended ready: ${leaked.map((r) => `${r.c.name} (${r.c.text})`).join('; ')}`);
  return { commit, fromCommit, rows };
}

const pct = (n: number, of: number) => (of === 0 ? '—' : `${((100 * n) / of).toFixed(1)} %`);
const count = (rows: Replay['rows'], pick: (r: Replay['rows'][number]) => boolean) => rows.filter(pick).length;

/** The figures: (metric, value, figure) as the summary table takes them. */
export function figures({ rows, commit, fromCommit }: Replay): [string, string, { floor?: string; goal?: string; met?: boolean }?][] {
  const weaker = rows.filter((r) => r.c.kind !== 'unusable' && r.c.kind !== 'control');
  const unusable = rows.filter((r) => r.c.kind === 'unusable');
  const kinds = ['single', 'pair', 'all at once', 'wrapped'] as const;
  const failedBefore = weaker.filter((r) => !r.before.ready);
  const rescued = count(failedBefore, (r) => r.now.ready);
  const lost = count(weaker, (r) => r.before.ready && !r.now.ready);
  const byKind = kinds.map((k) => {
    const of = weaker.filter((r) => r.c.kind === k);
    const failed = of.filter((r) => !r.before.ready);
    return `${k} ${count(failed, (r) => r.now.ready)}/${failed.length}`;
  });
  return [
    [
      'answers in the corpus',
      `${weaker.length} weaker (${kinds.map((k) => `${count(weaker, (r) => r.c.kind === k)} ${k}`).join(', ')}) + ${unusable.length} unusable, ` +
        `over ${CAPTURES.length} captures (${CAPTURES.filter((c) => c.context !== null).length} with a context)`,
    ],
    [
      'the reader before 262932b',
      `git ${commit.slice(0, 9)}: ${fromCommit.length} files from that commit (${fromCommit.map((f) => f.split('/').pop()).join(', ')})`,
    ],
    [
      'weaker answers ready before 262932b',
      `${count(weaker, (r) => r.before.ready)} of ${weaker.length} (${pct(
        count(weaker, (r) => r.before.ready),
        weaker.length,
      )})`,
    ],
    [
      'weaker answers ready now',
      `${count(weaker, (r) => r.now.ready)} of ${weaker.length} (${pct(
        count(weaker, (r) => r.now.ready),
        weaker.length,
      )})`,
    ],
    [
      'weaker answers failed before that now end ready',
      `${rescued} of ${failedBefore.length} (${pct(rescued, failedBefore.length)}); by kind: ${byKind.join(', ')}`,
      { floor: `before: ${weaker.length - failedBefore.length} of ${weaker.length} ready`, goal: '100 %', met: rescued === failedBefore.length },
    ],
    ['weaker answers ready before that fail now', `${lost}`, { goal: '0', met: lost === 0 }],
    [
      'unusable answers that end ready',
      `before ${count(unusable, (r) => r.before.ready)}, now ${count(unusable, (r) => r.now.ready)} of ${unusable.length}`,
      { goal: '0: each still fails', met: unusable.every((r) => !r.before.ready && !r.now.ready) },
    ],
  ];
}

/** Each single weakening and unusable answer: how each version ended it, over the captures it applies to. */
export function detail({ rows }: Replay): string[] {
  const names = [
    ...new Set(rows.filter((r) => r.c.kind === 'single' || r.c.kind === 'wrapped' || r.c.kind === 'unusable').map((r) => `${r.c.kind}: ${r.c.name}`)),
  ];
  return names.map((name) => {
    const of = rows.filter((r) => `${r.c.kind}: ${r.c.name}` === name);
    const reason = of.find((r) => !r.before.ready)?.before;
    return (
      `${name}: ready before ${count(of, (r) => r.before.ready)}/${of.length}, now ${count(of, (r) => r.now.ready)}/${of.length}` +
      (reason && !reason.ready ? ` (before: ${reason.reason.replace(/^The model answer for \w+ was rejected: /, '')})` : '')
    );
  });
}

export default async function weakerAnswers(ctx: BenchContext): Promise<void> {
  const result = await replay();
  for (const line of detail(result)) console.log(line);
  for (const [metric, value, figure] of figures(result)) ctx.report('weaker-answers', metric, value, figure);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const result = await replay();
  for (const line of detail(result)) console.log(line);
  console.log('');
  for (const [metric, value, figure] of figures(result))
    console.log(
      `${metric}: ${value}${figure?.floor ? ` (floor ${figure.floor})` : ''}${figure?.goal ? ` (goal ${figure.goal}: ${figure.met ? 'met' : 'NOT MET'})` : ''}`,
    );
}
