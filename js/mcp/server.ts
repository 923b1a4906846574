/// <reference types="node" />
// applypatch/mcp: the Model Context Protocol server of `applypatch mcp`, on
// the official SDK (an optional peer dependency: only this entry needs it).
// It lists `toolDefinitions` and runs `createToolHandlers`: the same code
// any framework gets from the main entry and applypatch/node.
import * as nodeFs from 'node:fs';
import * as nodePath from 'node:path';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { CallToolRequestSchema, type CallToolResult, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { createToolHandlers, type ToolHandlers, type ToolHandlersOptions } from '../node/tools.js';
import { type ToolName, toolDefinitions } from './definitions.js';

export interface ServerOptions extends ToolHandlersOptions {
  /** The version the server reports (default: the package's). */
  version?: string;
}

/** What each tool does to files, for clients that show it (MCP tool annotations). */
const annotations: Record<ToolName, Record<string, boolean | string>> = {
  apply_patch: { title: 'Apply a patch', readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
  edit_file: { title: 'Edit a file', readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
  apply_unified_diff: {
    title: 'Apply a unified diff',
    readOnlyHint: false,
    destructiveHint: true,
    idempotentHint: false,
    openWorldHint: false,
  },
  read_file: { title: 'Read a file', readOnlyHint: true, openWorldHint: false },
};

function packageVersion(): string {
  try {
    // dist/cjs/mcp/server.js → the package's package.json
    const file = nodePath.join(__dirname, '..', '..', '..', 'package.json');
    return (JSON.parse(nodeFs.readFileSync(file, 'utf8')) as { version: string }).version;
  } catch {
    return '0.0.0';
  }
}

/** How many tool calls each server is running (serveStdio answers them before it closes). */
const tracked = new WeakMap<Server, { count: number }>();

/**
 * An MCP server (the SDK's `Server`) with the tools `apply_patch`,
 * `edit_file`, `apply_unified_diff` and `read_file` on the directory `root`.
 * Connect it to a transport: `await server.connect(new StdioServerTransport())`.
 */
export function createServer(options: ServerOptions): Server {
  const busy = { count: 0 };
  const { version, ...rest } = options ?? ({} as ServerOptions);
  const handlers: ToolHandlers = createToolHandlers(rest as ToolHandlersOptions);
  const server = new Server(
    { name: 'applypatch', version: version ?? packageVersion() },
    {
      capabilities: { tools: {} },
      instructions: `Edit files under ${nodePath.resolve(options.root)} with exact, all-or-nothing edits: apply_patch (Codex patches), edit_file (exact text replacements), apply_unified_diff; read_file shows a file exactly.${options.readOnly ? ' This server is read-only: edits only as dry runs.' : ''}`,
    },
  );
  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: toolDefinitions.map((t) => ({ ...t, annotations: annotations[t.name] })),
  }));
  server.setRequestHandler(CallToolRequestSchema, async (request): Promise<CallToolResult> => {
    const { name, arguments: input } = request.params;
    const handler = Object.hasOwn(handlers, name) ? handlers[name as ToolName] : undefined;
    if (handler === undefined) {
      const message = `There is no tool ${name}: the tools are ${toolDefinitions.map((t) => t.name).join(', ')}.`;
      return { content: [{ type: 'text', text: message }], isError: true };
    }
    busy.count++;
    try {
      return (await handler(input ?? {})) as CallToolResult;
    } finally {
      busy.count--;
    }
  });
  tracked.set(server, busy);
  return server;
}

/**
 * Serves the tools over standard input and output until the client closes
 * the stream (`applypatch mcp`). Logs go to `log` (standard error), never to
 * standard output, which is the protocol's.
 */
export async function serveStdio(options: ServerOptions, log: (line: string) => void): Promise<void> {
  const server = createServer(options);
  const busy = tracked.get(server) ?? { count: 0 };
  server.onerror = (e) => log(`applypatch mcp: ${e instanceof Error ? e.message : String(e)}`);
  const closed = new Promise<void>((resolve) => {
    server.onclose = () => resolve();
    // The calls already read are answered first: the stream closes after their replies.
    let ended = false;
    const end = (): void => {
      if (ended) return;
      ended = true;
      const settle = (): void => {
        if (busy.count > 0) setTimeout(settle, 5);
        else setImmediate(() => void server.close());
      };
      setImmediate(settle);
    };
    process.stdin.once('end', end);
    process.stdin.once('close', end);
  });
  await server.connect(new StdioServerTransport());
  log(`applypatch mcp: serving ${nodePath.resolve(options.root)}${options.readOnly ? ' (read-only)' : ''} on standard input/output`);
  await closed;
  log('applypatch mcp: the client closed the stream; exiting');
}
