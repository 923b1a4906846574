// Type check (not run): applypatch/mcp's server is the MCP SDK's, and the tool
// definitions and handlers fit the Vercel AI SDK's tools, through the package's published types.
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { jsonSchema, type Tool, tool } from 'ai';
import { type ToolDefinition, type ToolName, toolDefinitions } from 'applypatch';
import { createServer } from 'applypatch/mcp';
import { createToolHandlers, type ToolHandlers, type ToolResult } from 'applypatch/node';

const server = createServer({ root: '.', readOnly: true });
const connected: Promise<void> = server.connect(new StdioServerTransport());
const handlers: ToolHandlers = createToolHandlers({ root: '.' });
const result: Promise<ToolResult> = handlers.edit_file({ path: 'a.txt', edits: [{ oldText: 'a', newText: 'b' }] });
const asMcp = async (): Promise<CallToolResult> => handlers.read_file({ path: 'a.txt' });
const names: ToolName[] = toolDefinitions.map((d: ToolDefinition) => d.name);
const tools: Record<string, Tool> = Object.fromEntries(
  toolDefinitions.map((d) => [
    d.name,
    tool({ description: d.description, inputSchema: jsonSchema(d.inputSchema), execute: async (input) => handlers[d.name](input) }),
  ]),
);

export { asMcp, connected, names, result, tools };
