// The fake LLM as a process of its own, for a container with no network but its loopback: it answers every
// request with `echo: <last user message>` and writes its port to the file named by its argument.
import * as fs from 'node:fs';
import { lastUserText, startFakeLlm } from '../fake-llm/server';

async function main(portFile: string): Promise<void> {
  const llm = await startFakeLlm();
  llm.setDefault((request) => ({ text: `echo: ${lastUserText(request) ?? ''}` }));
  fs.writeFileSync(`${portFile}.tmp`, String(llm.port));
  fs.renameSync(`${portFile}.tmp`, portFile);
  const stop = (): void => void llm.close().then(() => process.exit(0));
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}

const portFile = process.argv[2];
if (!portFile) {
  process.stderr.write('usage: fake-llm-main PORT_FILE\n');
  process.exit(2);
}
void main(portFile);
