// The skill set kept current: loaded at start, refreshed after a change (a watched folder, a setting, a periodic
// rescan), and after each refresh that changed something, `openclaw.skills.changed` published and the prompt block
// set again when its text changed. The block is sent again when the kernel reports the plugin ready, in case the
// kernel dropped what was sent while the plugin was starting.
import type { PluginContext } from '../../plugin-host';
import { formatDuration } from '../../protocol/format';
import { PromptBlockRequest } from '../../protocol/prompt';
import { FolderWatch } from './folder-watch';
import type { OpenclawPolicy } from './policy';
import { buildPromptBlock, type PromptBlock } from './prompt-block';
import { Refresher } from './refresher';
import { readSettings } from './settings';
import { SkillSet } from './skill-set';
import { toSummary } from './views';
import { planWatch } from './watch-plan';

/** `openclaw.skills.changed`'s data. */
export interface SkillsChangedEvent {
  ready: number;
  total: number;
}

export class LiveSkills {
  readonly set: SkillSet;
  private readonly refresher: Refresher;
  private readonly watch: FolderWatch;
  private rescan: NodeJS.Timeout | undefined;
  private rescanMs = 0;
  private summaries = '';
  private misses = -1;
  private problems = '';
  private block: PromptBlock = { text: '', tokens: 0, listed: 0, cut: false };
  private sent: string | undefined;

  constructor(
    private readonly ctx: PluginContext,
    private readonly policy: OpenclawPolicy,
    toolsRoot: string,
  ) {
    this.set = new SkillSet(toolsRoot);
    this.refresher = new Refresher(() => this.refresh(), policy);
    this.watch = new FolderWatch(() => this.refresher.poke(), policy.maxWatches);
  }

  /** The first load (during the handshake); the periodic rescan runs from now on, whatever the load gave. */
  start(): Promise<void> {
    this.rescanEvery(this.policy.rescanMs);
    return this.refresher.now();
  }

  /** Something may have changed: refresh soon. */
  poke(): void {
    this.refresher.poke();
  }

  /** Refreshes now and resolves once done (after a change the caller made itself). */
  refreshNow(): Promise<void> {
    return this.refresher.now();
  }

  /** The kernel reports this plugin ready: the block is set again. */
  kernelIsReady(): void {
    this.sent = undefined;
    void this.sendBlock();
  }

  async stop(): Promise<void> {
    clearInterval(this.rescan);
    await this.refresher.stop();
    this.watch.close();
  }

  private async refresh(): Promise<void> {
    try {
      const settings = await readSettings(this.ctx);
      this.logProblems(settings.problems);
      const state = await this.set.load(settings);
      const summaries = JSON.stringify([state.catalog.skills.map(toSummary), state.catalog.shadowed.map((entry) => [entry.file, entry.shadowedBy])]);
      if (summaries !== this.summaries || this.set.cache.stats.misses !== this.misses) {
        this.summaries = summaries;
        this.misses = this.set.cache.stats.misses;
        const ready = state.catalog.skills.filter((entry) => entry.status.status === 'ready').length;
        const data: SkillsChangedEvent = { ready, total: state.catalog.skills.length };
        this.ctx.events.publish('skills.changed', data);
      }
      const offered = state.catalog.skills.filter((entry) => entry.status.status === 'ready' && entry.skill && !entry.skill.disableModelInvocation);
      this.block = buildPromptBlock(
        offered.map((entry) => ({ name: entry.name, description: entry.skill?.description ?? '' })),
        settings.promptBudget,
      );
      this.followFolders();
      await this.sendBlock();
    } catch (error) {
      this.ctx.log.error('cannot refresh the skills', { error: (error as Error).message });
    }
  }

  private followFolders(): void {
    const outcome = this.watch.follow(planWatch(this.set.current, this.set.toolsRoot));
    // A folder walked before its watch began may have changed in between: look once more.
    if (outcome.added > 0) this.refresher.poke();
    const every = outcome.unwatched > 0 ? this.policy.busyRescanMs : this.policy.rescanMs;
    if (outcome.unwatched > 0 && every !== this.rescanMs) {
      this.ctx.log.warn(`${outcome.unwatched} skill folders are past the ${this.policy.maxWatches} watched; they are rescanned every ${formatDuration(every)}`);
    }
    this.rescanEvery(every);
  }

  private rescanEvery(ms: number): void {
    if (ms === this.rescanMs) return;
    clearInterval(this.rescan);
    this.rescanMs = ms;
    this.rescan = setInterval(() => this.refresher.poke(), ms);
    this.rescan.unref();
  }

  private async sendBlock(): Promise<void> {
    const text = this.block.text;
    if (text === this.sent) return;
    try {
      await this.ctx.kernel.call(PromptBlockRequest, { text });
      this.sent = text;
    } catch (error) {
      this.ctx.log.warn('the kernel did not take the skills block', { error: (error as Error).message, chars: text.length });
    }
  }

  private logProblems(problems: string[]): void {
    const text = problems.join('; ');
    if (text !== this.problems && text !== '') this.ctx.log.warn(`some openclaw settings are not used: ${text}`);
    this.problems = text;
  }
}
