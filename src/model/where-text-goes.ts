import type { Config } from '../config.ts';

/**
 * Which host receives the learners' text for preparation, translation and drafts, in a sentence:
 * the API reference (/docs) and the web app's settings say it, so that nobody has to guess
 * whether a deployment uses the router or a model of its own.
 */
export function whereTextGoes(config: Pick<Config['model'], 'provider' | 'baseUrl' | 'model'>): {
  host: string;
  model: string;
  ownModel: boolean;
  statement: string;
} {
  const host = new URL(config.baseUrl).host;
  if (config.provider === 'openai-compatible') {
    // Without MODEL_NAME the endpoint names its model at the first call (endpoint-model.ts); until then, what it serves.
    const model = config.model || 'the one it serves';
    return {
      host,
      model,
      ownModel: true,
      statement:
        `The text you capture, translate or ask a draft for is sent to this deployment's own language model, ${model} at ${host}. ` +
        'What that host keeps of it is its operator’s policy, not a router’s: no zero-data-retention routing applies.',
    };
  }
  return {
    host,
    model: config.model,
    ownModel: false,
    statement:
      `The text you capture, translate or ask a draft for is sent to the model router at ${host} (model ${config.model}), ` +
      'which must route it to a provider that keeps nothing (zero data retention) and collects nothing.',
  };
}
