/**
 * `lcs mcp`: the service's tools for an agent, over stdio with the official MCP SDK, configured
 * by LCS_URL and LCS_TOKEN (or `lcs login`). A read-scope token is offered the read tools only.
 * A failure is a tool result with `isError` that names the catalog code and says what to do.
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { resolveConnection } from '../config.ts';
import { CliError } from '../context.ts';
import { EXIT } from '../exit.ts';
import { connect, ServiceError } from '../service.ts';
import { tools } from './tools.ts';

export async function serveMcp(): Promise<void> {
  const connection = await resolveConnection();
  if (!connection) throw new CliError("No token: set LCS_TOKEN (and LCS_URL) in the MCP client's configuration, or run `lcs login`.", EXIT.auth);
  // An agent decides itself whether to wait: a 429 is reported with its Retry-After, not slept through.
  const api = connect(connection, { rateLimitRetries: 0 });
  const me = await api.call((c) => c.GET('/api/me'));

  const server = new McpServer({ name: 'language-capture', version: '0.1.0' });
  for (const [name, tool] of Object.entries(tools)) {
    if (tool.writes && me.access === 'read') continue;
    server.registerTool(
      name,
      {
        description: tool.description,
        inputSchema: tool.inputSchema,
        outputSchema: tool.outputSchema,
        annotations: { readOnlyHint: !tool.writes, openWorldHint: false },
      },
      async (input: unknown) => {
        try {
          const { structured, text } = await tool.run(api, input);
          return { structuredContent: structured, content: [{ type: 'text' as const, text }] };
        } catch (error) {
          if (!(error instanceof ServiceError)) throw error;
          return { isError: true, content: [{ type: 'text' as const, text: toolErrorText(error) }] };
        }
      },
    );
  }
  await server.connect(new StdioServerTransport());
}

/** `code: detail`, and what an agent should do about the codes it can act on. */
export function toolErrorText(error: ServiceError): string {
  const advice: Record<string, string> = {
    insufficient_credits: 'The learner has no credits left this period.',
    language_setup_required: "The learner must set their target and native languages in the web app's settings first.",
    rate_limited: `Wait ${error.retryAfterSeconds ?? 'a few'} seconds before calling again.`,
    read_only_token: 'This token may only read.',
  };
  const wait = error.retryAfterSeconds !== null && error.code !== 'rate_limited' ? ` Try again in ${error.retryAfterSeconds} seconds.` : '';
  return `${error.code}: ${error.message}${advice[error.code] ? ` ${advice[error.code]}` : ''}${wait}`;
}
