// Takes value flags (`--flag VALUE` or `--flag=VALUE`) out of a command line, before `--`, leaving the rest.

/** One flag found, as written, with its value (undefined when the command line ended first). */
export interface TakenFlag {
  flag: string;
  value: string | undefined;
}

/** The flags named in `names`, in the order given, and every other argument. */
export function takeValueFlags(argv: readonly string[], names: readonly string[]): { taken: TakenFlag[]; rest: string[] } {
  const taken: TakenFlag[] = [];
  const rest: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    if (arg === '--') {
      rest.push(...argv.slice(i));
      break;
    }
    const eq = arg.startsWith('-') ? arg.indexOf('=') : -1;
    const flag = eq > 0 ? arg.slice(0, eq) : arg;
    if (!names.includes(flag)) {
      rest.push(arg);
      continue;
    }
    taken.push({ flag, value: eq > 0 ? arg.slice(eq + 1) : argv[++i] });
  }
  return { taken, rest };
}
