// A real terminal for interactive programs: a private tmux server, keys in, the screen out.
import { execFileSync, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { makeTempDir } from './homed';
import { waitFor } from './wait';

/** Whether tmux can be run here (CI installs it; see .ci/run). */
export function tmuxAvailable(): boolean {
  return spawnSync('tmux', ['-V'], { stdio: 'ignore' }).status === 0;
}

/** One tmux window running one command, on a tmux server of its own (never the user's). */
export class TmuxPane {
  private constructor(
    private readonly dir: string,
    private readonly socket: string,
  ) {}

  /** Starts `command` (argv) with `env` in a width×height terminal; once it exits, `[exit N]` shows on the screen. */
  static start(command: string[], env: Record<string, string> = {}, size = { width: 100, height: 30 }): TmuxPane {
    const dir = makeTempDir('tmux-');
    const socket = path.join(dir, 'tmux.sock');
    const conf = path.join(dir, 'tmux.conf');
    fs.writeFileSync(conf, 'set -g remain-on-exit on\nset -g status off\nset -g history-limit 2000\n');
    const vars = Object.entries(env).map(([key, value]) => `${key}=${value}`);
    const pane = new TmuxPane(dir, socket);
    // The exit status is printed by a shell around the command: tmux's own pane_dead_status is not
    // reliable here (some sandboxes leave the dead command unreaped, so tmux never learns it).
    const wrapper = ['sh', '-c', '"$@"; echo "[exit $?]"', 'sh', 'env', ...vars, ...command];
    pane.tmux(['-f', conf, 'new-session', '-d', '-s', 'test', '-x', String(size.width), '-y', String(size.height), ...wrapper]);
    return pane;
  }

  /** Types text literally (no Enter). */
  type(text: string): void {
    this.tmux(['send-keys', '-t', 'test', '-l', text]);
  }

  /** Presses keys by tmux name: Enter, C-c, C-d, Up. */
  press(...keys: string[]): void {
    this.tmux(['send-keys', '-t', 'test', ...keys]);
  }

  /** The visible screen, each line trimmed at its end, trailing empty lines removed. */
  screen(): string {
    const text = this.tmux(['capture-pane', '-p', '-t', 'test']);
    return text
      .split('\n')
      .map((line) => line.trimEnd())
      .join('\n')
      .trimEnd();
  }

  /** The last non-empty line of the screen. */
  lastLine(): string {
    return this.screen().split('\n').pop() ?? '';
  }

  /** Waits until the screen matches `pattern`; answers the screen. */
  waitForScreen(pattern: RegExp, what: string, timeoutMs = 10_000): Promise<string> {
    let last = '';
    return waitFor(
      () => {
        last = this.screen();
        return pattern.test(last) ? last : undefined;
      },
      { what: `${what} (screen so far:\n${last})`, timeoutMs },
    ).catch((error: Error) => {
      throw new Error(`${error.message}\n--- screen ---\n${this.screen()}`);
    });
  }

  /** The exit status of the command once it has ended, else undefined. */
  exitStatus(): number | undefined {
    const match = /\[exit (\d+)\]/.exec(this.screen());
    return match ? Number(match[1]) : undefined;
  }

  /** Ends the tmux server and removes its folder. */
  close(): void {
    spawnSync('tmux', ['-S', this.socket, 'kill-server'], { stdio: 'ignore' });
    fs.rmSync(this.dir, { recursive: true, force: true });
  }

  private tmux(args: string[]): string {
    return execFileSync('tmux', ['-S', this.socket, ...args], { encoding: 'utf8' });
  }
}
