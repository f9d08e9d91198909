import type { YauzlApi } from './yauzl-api';

// yauzl ships no types; yauzl-api.d.ts describes the part of it used here.
/** The yauzl module (ZIP reading). */
export const yauzl = require('yauzl') as YauzlApi;
