import type { ConfigDef } from '../../protocol';
import { DEFAULT_INSTALL_LIMITS as D, LIMIT_KEYS as K } from './limits';

const MIB = 1024 * 1024;

function intDef(key: string, value: number, min: number, max: number, zh: string, en: string): ConfigDef {
  return { key, type: 'int', category: 'packages', default: value, min, max, description: { zh, en } };
}

/** The package installer's limits (`core.packages.*`); the kernel registers them in the core table. */
export const PACKAGE_DEFS: readonly ConfigDef[] = [
  intDef(K.maxArchiveBytes, D.maxArchiveBytes / MIB, 1, 4095, '.hmap 插件包文件本身的最大大小（MiB）。', 'Largest .hmap package file accepted, in MiB.'),
  intDef(K.maxEntries, D.maxEntries, 1, 65535, '插件包中最多允许的条目数（含文件夹）。', 'Most entries (folders included) a package may hold.'),
  intDef(
    K.maxEntryBytes,
    D.maxEntryBytes / MIB,
    1,
    4095,
    '插件包中单个文件解压后的最大大小（MiB）。',
    'Largest uncompressed size of one file in a package, in MiB.',
  ),
  intDef(
    K.maxTotalBytes,
    D.maxTotalBytes / MIB,
    1,
    65535,
    '插件包中所有文件解压后的总大小上限（MiB）。',
    'Largest uncompressed size of all files of a package together, in MiB.',
  ),
  intDef(
    K.maxRatio,
    D.maxRatio,
    2,
    100000,
    '单个文件解压后与压缩后大小之比的上限（超过宽限大小的文件适用），用于拦截压缩炸弹。',
    'Highest uncompressed:compressed ratio of one file past the grace size; catches zip bombs.',
  ),
  intDef(
    K.ratioGraceBytes,
    D.ratioGraceBytes / MIB,
    0,
    4095,
    '不超过此大小（MiB）的文件不检查压缩比。',
    'Files up to this size, in MiB, are not held to the ratio limit.',
  ),
  intDef(K.maxDepth, D.maxDepth, 1, 256, '插件包内路径的最大层数（含文件本身）。', 'Most levels of a path inside a package, the file itself included.'),
  intDef(K.maxNameBytes, D.maxNameBytes, 1, 255, '路径中单个名称的最大字节数（UTF-8）。', 'Longest single name in a path, in UTF-8 bytes.'),
  intDef(K.maxPathBytes, D.maxPathBytes, 1, 4096, '插件包内完整路径的最大字节数（UTF-8）。', 'Longest whole path inside a package, in UTF-8 bytes.'),
];
