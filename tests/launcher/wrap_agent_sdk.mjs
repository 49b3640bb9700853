// Drives the npm Agent SDK (@anthropic-ai/claude-agent-sdk) through multi-cursor-claude as the
// VS Code extension does: pathToClaudeCodeExecutable = the wrapper, executableArgs = [the real
// Claude Code]. Prints one JSON line: the models and agents the session offers, and the result.
// Environment: AGENT_SDK (the package's folder), WRAPPER, CLAUDE, MODEL, MODE, PROMPT.
import path from "node:path";
import { pathToFileURL } from "node:url";

const { query } = await import(pathToFileURL(path.join(process.env.AGENT_SDK, "sdk.mjs")).href);
const session = query({
  prompt: process.env.PROMPT,
  options: {
    pathToClaudeCodeExecutable: process.env.WRAPPER,
    executableArgs: [process.env.CLAUDE],
    model: process.env.MODEL,
    permissionMode: process.env.MODE,
    allowDangerouslySkipPermissions: process.env.MODE === "bypassPermissions",
    cwd: process.cwd(),
    stderr: (text) => process.stderr.write(text),
  },
});
const models = (await session.supportedModels()).map((m) => m.value);
const agents = (await session.supportedAgents()).map((a) => a.name);
let result = null;
for await (const message of session) {
  if (message.type === "result") {
    result = { is_error: message.is_error, result: message.result ?? null, subtype: message.subtype };
  }
}
console.log(JSON.stringify({ models, agents, result }));
