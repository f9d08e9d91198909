// Whether the provider answers: a real 1-token llm/complete through the kernel, timed.
import type { KernelClient } from '../../../plugin-host';
import { LlmCompleteRequest, type HealthFinding } from '../../../protocol';
import { formatDuration } from '../../../protocol/format';

/** Asks the default provider for one token within `timeoutMs`. */
export async function providerFinding(kernel: KernelClient, timeoutMs: number): Promise<HealthFinding> {
  const started = performance.now();
  const abort = new AbortController();
  const timer = setTimeout(() => abort.abort(), timeoutMs);
  try {
    await kernel.call(LlmCompleteRequest, { messages: [{ role: 'user', content: 'Reply with the single word: ok' }], maxTokens: 1 }, abort.signal);
    const ms = Math.round(performance.now() - started);
    return { check: 'provider', severity: 'ok', title: 'the provider answers', detail: `a 1-token completion took ${ms} ms` };
  } catch (error) {
    const ms = Math.round(performance.now() - started);
    const why = abort.signal.aborted ? `no answer within ${formatDuration(timeoutMs)}` : (error as Error).message;
    if (!abort.signal.aborted && (error as { data?: { kind?: unknown } }).data?.kind === 'config') {
      // Nothing to reach: the kernel's message says how to set a provider up, so that is the fix.
      const [lead = why, ...setup] = why.split('\n');
      return {
        check: 'provider',
        severity: 'error',
        title: 'no LLM provider is set up',
        detail: lead,
        fix: setup.length > 0 ? setup.map((line) => line.trim()).join('\n') : 'see README, Choosing an LLM',
      };
    }
    return {
      check: 'provider',
      severity: 'error',
      title: 'the provider does not answer',
      detail: `a 1-token completion failed after ${ms} ms: ${why}`,
      fix: 'homectl config list --all | grep llm.; homectl config set llm.provider.NAME.base_url URL (see README, Choosing an LLM)',
    };
  } finally {
    clearTimeout(timer);
  }
}
