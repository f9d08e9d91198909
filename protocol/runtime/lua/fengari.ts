import type { FengariApi } from './fengari-api';

// fengari ships no types; fengari-api.d.ts describes the part of it used here.
/** The fengari module (Lua 5.3 VM in JavaScript). */
export const fengari = require('fengari') as FengariApi;
