// The client methods plugins serve are declared in protocol/ like every other method: one table of descriptors per
// serving plugin. Each schema compiles strictly, and the built-in plugins serve exactly these tables, no more.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import Ajv from 'ajv';
import { ApprovalsApi, clientMethodDecl, HealthcheckApi, PERMISSIONS, SkillsApi, TimerApi, WebuiApi, type MethodDescriptor } from '../../protocol';
import { ChangesApi } from '../../protocol/changes';
import { listServedMethods } from '../security/surface-targets';

/** Every table of plugin-served methods, by the plugin that serves it. */
const TABLES: Record<string, Record<string, MethodDescriptor<never> & { readonly kind: string }>> = {
  approvals: ApprovalsApi,
  files: ChangesApi,
  healthcheck: HealthcheckApi,
  openclaw: SkillsApi,
  timer: TimerApi,
  webui: WebuiApi,
};

test("every plugin-served descriptor is a request whose schema compiles under ajv's strict mode and names real permissions", () => {
  for (const [plugin, table] of Object.entries(TABLES)) {
    for (const [key, descriptor] of Object.entries(table)) {
      const label = `${plugin} ${key} (${descriptor.method})`;
      assert.equal(descriptor.kind, 'request', label);
      assert.doesNotThrow(() => new Ajv({ strict: true, allowUnionTypes: true }).compile(descriptor.params), label);
      for (const permission of descriptor.permission) assert.ok((PERMISSIONS as readonly string[]).includes(permission), `${label} needs "${permission}"`);
      assert.equal(descriptor.paramPermission, undefined, `${label}: a check written as a function cannot cross the handshake`);
      assert.equal(descriptor.crossCheck, undefined, label);
    }
  }
});

test("the built-in plugins serve exactly the tables of protocol/, each with its descriptor's schema", async () => {
  const served = (await listServedMethods()).map((s) => ({ plugin: s.plugin, method: s.method, params: s.params }));
  const declared = Object.entries(TABLES).flatMap(([plugin, table]) => Object.values(table).map((d) => ({ plugin, method: d.method, params: d.params })));
  const byMethod = (a: { method: string }, b: { method: string }): number => a.method.localeCompare(b.method);
  assert.deepEqual(served.sort(byMethod), declared.sort(byMethod));
});

test("a declaration is its descriptor's data", () => {
  assert.deepEqual(clientMethodDecl(SkillsApi.Setup), {
    method: 'skills/setup',
    params: SkillsApi.Setup.params,
    owner: true,
    timeoutMs: SkillsApi.Setup.timeoutMs,
  });
  assert.deepEqual(clientMethodDecl(TimerApi.List), { method: 'timer/list', params: TimerApi.List.params });
});
