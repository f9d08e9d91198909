// The trust report of a skill package, the one every install path shows (homectl, the page's upload, pluginmgr),
// built by the openclaw plugin's skills/preview from the package as the kernel inspected it.
import { ClientCallRequest, SkillsApi, type SkillOrigin, type SkillPackageFiles, type SkillPreview, type SkillsPreviewParams } from '../protocol';
import type { KernelClient } from './sdk';

/** A skill package's report and how many items it flags; `skill` is what plugins/install's inspection answered. */
export async function reportSkillPackage(
  kernel: KernelClient,
  name: string,
  skill: { text: string } & SkillPackageFiles,
  origin: SkillOrigin,
): Promise<{ report: string; flagged: number }> {
  const { text, files, unscanned } = skill;
  const params: SkillsPreviewParams = { text, folder: name, ...(files ? { files } : {}), ...(unscanned ? { unscanned } : {}), origin };
  // client/call answers whatever the serving plugin does: SkillsApi.Preview says what that is.
  const preview = (await kernel.call(ClientCallRequest, { method: SkillsApi.Preview.method, params })) as SkillPreview;
  return { report: preview.report, flagged: preview.flagged };
}
