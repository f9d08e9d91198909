// The Knowledge page's upload: the file's bytes are written into the plugin's data folder, handed to the kernel's
// knowledge/add by path (the kernel copies it into the knowledge folder and indexes it), and the copy is deleted.
import { randomUUID } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { KnowledgeAddRequest, type KnowledgeFile } from '../../protocol';
import type { KernelClient } from '../../plugin-host';

/** The largest file the page uploads. */
export const MAX_UPLOAD_BYTES = 8 * 1024 * 1024;

/** Adds an uploaded file to the knowledge base under `name`. */
export type KnowledgeUpload = (name: string, body: Buffer, replace: boolean) => Promise<{ file: KnowledgeFile }>;

/** Writes each upload under <pluginData>/uploads/ (0700), adds it by path, and removes it whatever the answer. */
export function knowledgeUploader(kernel: KernelClient, pluginData: string): KnowledgeUpload {
  return async (name, body, replace) => {
    const dir = path.join(pluginData, 'uploads', randomUUID());
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    try {
      const file = path.join(dir, 'upload');
      fs.writeFileSync(file, body, { mode: 0o600 });
      return await kernel.call(KnowledgeAddRequest, { path: file, name, replace });
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  };
}
