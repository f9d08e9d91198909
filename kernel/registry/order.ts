/** Something with a name and the names it depends on. */
export interface Dependent {
  name: string;
  depends: readonly string[];
}

/**
 * Orders plugins into start levels: each level depends only on earlier ones and starts in parallel.
 * A plugin with a missing dependency, or in a cycle, is left out with the reason.
 */
export function orderByDependencies(items: readonly Dependent[]): { levels: string[][]; problems: Map<string, string> } {
  const problems = new Map<string, string>();
  const byName = new Map(items.map((item) => [item.name, item]));
  for (const item of items) {
    const missing = item.depends.filter((dep) => !byName.has(dep));
    if (missing.length > 0) problems.set(item.name, `depends on ${missing.map((m) => `"${m}"`).join(', ')}, which is not installed`);
  }
  // A plugin whose dependency is left out is left out too.
  let changed = true;
  while (changed) {
    changed = false;
    for (const item of items) {
      if (problems.has(item.name)) continue;
      const blocked = item.depends.find((dep) => problems.has(dep));
      if (blocked) {
        problems.set(item.name, `depends on "${blocked}", which cannot start`);
        changed = true;
      }
    }
  }
  const placed = new Set<string>();
  const levels: string[][] = [];
  let remaining = items.filter((item) => !problems.has(item.name));
  while (remaining.length > 0) {
    const level = remaining.filter((item) => item.depends.every((dep) => placed.has(dep))).map((item) => item.name);
    if (level.length === 0) {
      const cycle = remaining.map((item) => item.name).sort();
      for (const name of cycle) problems.set(name, `is in a dependency cycle (${cycle.join(' → ')})`);
      break;
    }
    level.sort();
    levels.push(level);
    for (const name of level) placed.add(name);
    remaining = remaining.filter((item) => !placed.has(item.name));
  }
  return { levels, problems };
}
