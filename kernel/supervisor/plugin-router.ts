// The supervisor's answers to the agent's routing questions: which plugins handle a stage, which tools
// are offered, and where an output goes. Each answer reads the plugins' state at the moment it is asked.
import type { Logger } from 'pino';
import { OutputNotification, type LogLevel, type StageName } from '../../protocol';
import { OFFERED_STATES } from './plugin-availability';
import type { PluginToolRef } from '../agent/tool-router';
import type { OutputEvent } from '../io/io-manager';
import { splitOutput } from '../io/output-pieces';
import { hasPermission } from './grants';
import type { StageHandlerRef } from '../stages/stage-host';
import type { Supervisor } from './supervisor';

/** Routes stages, tool offers and outputs to the supervised plugins. */
export class PluginRouter {
  constructor(
    private readonly supervisor: Supervisor,
    private readonly log: Logger,
  ) {}

  /**
   * Plugins that declared a stage at their last handshake, with the permission to handle it, unless their owner
   * stopped or disabled them. One that is not ready is not called: the stage skips it at once (a guard: denies).
   */
  stageHandlers(stage: StageName): StageHandlerRef[] {
    const refs: StageHandlerRef[] = [];
    for (const plugin of this.supervisor.plugins.values()) {
      if (plugin.state === 'stopped' || plugin.state === 'disabled') continue;
      if (!plugin.declaration?.stages.includes(stage) || !hasPermission(plugin, 'stages')) continue;
      const state = () => plugin.state;
      refs.push({ plugin: plugin.name, priority: plugin.record.manifest.priority ?? 0, channel: plugin.process?.channel, state });
    }
    return refs;
  }

  /** Tools plugins declared at their last handshake, with the permission to offer them, in start order; each knows its plugin's state. */
  offeredTools(): PluginToolRef[] {
    const refs: PluginToolRef[] = [];
    for (const plugin of this.supervisor.inStartOrder()) {
      if (!plugin.declaration || !hasPermission(plugin, 'tools')) continue;
      const channel = plugin.process?.channel;
      const state = () => plugin.state;
      const permissions = plugin.record.manifest.permissions ?? [];
      const note = (level: LogLevel, msg: string) => plugin.note(level, msg);
      for (const decl of plugin.declaration.tools) refs.push({ plugin: plugin.name, decl, channel, state, permissions, note });
    }
    return refs;
  }

  /**
   * The blocks plugins put in the system prompt, in plugin-name order: those of plugins that run or are coming
   * back by themselves (the rule tools are offered by), with the permission to have one.
   */
  promptBlocks(): string[] {
    const blocks: { name: string; text: string }[] = [];
    for (const plugin of this.supervisor.plugins.values()) {
      if (plugin.promptBlock === '' || !OFFERED_STATES.has(plugin.state) || !hasPermission(plugin, 'prompt')) continue;
      blocks.push({ name: plugin.name, text: plugin.promptBlock });
    }
    return blocks.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)).map((block) => block.text);
  }

  /** Sends an output to its plugin, in pieces when its text is too big for one wire message; a plugin that is not ready is logged, not waited for. */
  deliver(output: OutputEvent): void {
    const { target, ...params } = output;
    const plugin = this.supervisor.plugins.get(target);
    const proc = plugin?.process;
    if (!plugin || !proc || plugin.state !== 'ready') {
      const state = plugin ? plugin.state : 'not installed';
      if (params.kind !== 'delta')
        this.log.warn(
          { plugin: target, session: params.session, kind: params.kind },
          `output not delivered: plugin "${target}" is ${state}; the turn is kept in its session`,
        );
      return;
    }
    try {
      for (const piece of splitOutput(params)) proc.channel.notify(OutputNotification, piece);
    } catch (error) {
      this.log.warn(
        { plugin: target, session: params.session, kind: params.kind },
        `output not delivered: ${(error as Error).message}; the turn is kept in its session`,
      );
    }
  }
}
