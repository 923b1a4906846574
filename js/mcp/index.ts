// applypatch/mcp: the MCP server, to embed (needs @modelcontextprotocol/sdk).
export { createServer, type ServerOptions, serveStdio } from './server.js';
