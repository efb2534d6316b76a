// Drives Anthropic's Agent SDK (@anthropic-ai/claude-agent-sdk) against a `claude` executable:
// one query, three user turns on one process.
//   1. "Make a file": the model calls Bash; the canUseTool callback allows it.
//   2. "Second question": interrupted with query.interrupt() once the turn has started.
//   3. "Third question": answered after the interrupt.
// usage: node query.mjs SDK_PACKAGE_DIR CLAUDE_EXECUTABLE
// stdout: one line per message the SDK yields ("MSG type/subtype"), the callback's calls
// ("CAN_USE_TOOL name input"), "INTERRUPTED", then "DONE" and a JSON summary line.
import { pathToFileURL } from 'node:url';

const [sdkDir, executable] = process.argv.slice(2);
if (!sdkDir || !executable) {
  console.error('usage: node query.mjs SDK_PACKAGE_DIR CLAUDE_EXECUTABLE');
  process.exit(2);
}
const { query } = await import(pathToFileURL(`${sdkDir}/sdk.mjs`).href);

const user = (text) => ({
  type: 'user',
  message: { role: 'user', content: text },
  parent_tool_use_id: null,
  session_id: '',
});

// the next prompt is written once the previous turn's result has arrived
let turnEnded = null;
const waitForResult = () => new Promise((resolve) => (turnEnded = resolve));
async function* prompts() {
  for (const text of ['Make a file', 'Second question', 'Third question']) {
    yield user(text);
    await waitForResult();
  }
}

const summary = { messages: [], permissionCalls: [], results: [] };
const q = query({
  prompt: prompts(),
  options: {
    pathToClaudeCodeExecutable: executable,
    cwd: process.cwd(),
    env: { ...process.env },
    canUseTool: async (toolName, input) => {
      summary.permissionCalls.push({ toolName, input });
      console.log(`CAN_USE_TOOL ${toolName} ${JSON.stringify(input)}`);
      return { behavior: 'allow', updatedInput: input };
    },
    stderr: (data) => process.stderr.write(data),
  },
});

let inits = 0;
for await (const message of q) {
  const kind = message.subtype ? `${message.type}/${message.subtype}` : message.type;
  summary.messages.push(kind);
  console.log(`MSG ${kind}`);
  if (kind === 'system/init' && ++inits === 2) {
    // the second turn is under way: interrupt it (the SDK writes a control_request)
    await q.interrupt();
    console.log('INTERRUPTED');
  }
  if (message.type === 'result') {
    summary.results.push({
      subtype: message.subtype,
      is_error: message.is_error,
      result: message.result ?? null,
      session_id: message.session_id,
    });
    if (turnEnded) {
      const resolve = turnEnded;
      turnEnded = null;
      resolve();
    }
  }
}
console.log('DONE');
console.log(JSON.stringify(summary));
