// Reading a value homectl must not take on its command line (an API key would show in `ps` and the shell's history):
// from the terminal without echo, or, when stdin is not a terminal, from the whole of stdin.

/** Ctrl-C, Ctrl-D, Enter (CR, LF), backspace (DEL, BS). */
const CTRL_C = '\u0003';
const CTRL_D = '\u0004';
const ENTER = new Set(['\r', '\n']);
const BACKSPACE = new Set(['\u007f', '\b']);

/** Thrown when the person ends the prompt with Ctrl-C. */
export class SecretPromptCancelled extends Error {
  override name = 'SecretPromptCancelled';
}

/**
 * Asks `question` on the terminal (on stderr, so stdout stays clean) and reads a line without echoing it; when stdin
 * is not a terminal, answers everything on stdin, one final line break removed (`printf %s "$KEY" | homectl …`).
 */
export async function readSecret(question: string, stdin: NodeJS.ReadStream = process.stdin, stderr: NodeJS.WriteStream = process.stderr): Promise<string> {
  return stdin.isTTY ? readFromTerminal(question, stdin, stderr) : readAll(stdin);
}

async function readAll(stdin: NodeJS.ReadStream): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stdin) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer));
  return Buffer.concat(chunks)
    .toString('utf8')
    .replace(/\r?\n$/, '');
}

function readFromTerminal(question: string, stdin: NodeJS.ReadStream, stderr: NodeJS.WriteStream): Promise<string> {
  stderr.write(`${question} `);
  stdin.setRawMode(true);
  stdin.setEncoding('utf8');
  stdin.resume();
  return new Promise((resolve, reject) => {
    let value = '';
    const finish = (error?: Error): void => {
      stdin.off('data', onData);
      stdin.setRawMode(false);
      stdin.pause();
      stderr.write('\n');
      if (error) reject(error);
      else resolve(value);
    };
    const onData = (text: string): void => {
      for (const char of text) {
        if (char === CTRL_C) return finish(new SecretPromptCancelled('cancelled; nothing was set'));
        if (ENTER.has(char) || char === CTRL_D) return finish();
        if (BACKSPACE.has(char)) value = [...value].slice(0, -1).join('');
        else if (char >= ' ') value += char;
      }
    };
    stdin.on('data', onData);
  });
}
