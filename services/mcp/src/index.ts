export { chooseMode, type McpFlags, type McpMode, parseArguments } from './cli';
export { type McpConfig, readMcpConfig } from './config';
export { MCP_PATH, startHttpServer } from './http';
export { createMcpServer, SERVER_INFO } from './server';
export { runStdio } from './stdio';
export { drawUrl } from './tools/visualize';
