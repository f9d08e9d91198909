// Every SKILL.md in ../shared/corpus/skills (20 bundled OpenClaw 2026.9.6 skills) parses to the name, description,
// requirements and install entries OpenClaw's rules give; the values below were read off each file by hand.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { parseSkill } from '../../../../plugins/openclaw/skills/parse';
import type { InstallSpec, SkillRequires } from '../../../../plugins/openclaw/skills/types';

/** The repository root (this file runs from dist/test/plugins/openclaw/skills). */
const REPO_ROOT = path.resolve(__dirname, '..', '..', '..', '..', '..');
const CORPUS = path.resolve(REPO_ROOT, '..', 'shared', 'corpus', 'skills');
const SKIP = fs.existsSync(CORPUS) ? false : `the shared SKILL.md corpus is not present (${CORPUS}); parse.test.ts covers each rule with generated files`;

interface Expected {
  description: string;
  userInvocable?: boolean;
  homepage?: string;
  /** Absent: no metadata block at all. */
  metadata?: { emoji?: string; os?: string[]; primaryEnv?: string; requires?: Partial<SkillRequires>; install?: InstallSpec[] };
}

const brew = (id: string, formula: string, bin: string, label: string): InstallSpec => ({ kind: 'brew', id, label, bins: [bin], formula });
const node = (id: string, pkg: string, bin: string, label: string): InstallSpec => ({ kind: 'node', id, label, bins: [bin], package: pkg });
const go = (id: string, module: string, bin: string, label: string): InstallSpec => ({ kind: 'go', id, label, bins: [bin], module });
const SHERPA = 'https://github.com/k2-fsa/sherpa-onnx/releases/download/';
const runtime = (id: string, os: string, file: string, sha256: string, label: string): InstallSpec => ({
  kind: 'download',
  id,
  label,
  os: [os],
  url: `${SHERPA}v1.13.6/${file}`,
  sha256,
  archive: 'tar.bz2',
  extract: true,
  stripComponents: 1,
  targetDir: 'runtime',
});

const EXPECTED: Record<string, Expected> = {
  clawhub: {
    description: 'Search ClawHub for skills when a requested capability is not already available; install, verify, update, uninstall, publish, or sync skills.',
  },
  'coding-agent': {
    description: 'Delegate coding work to Codex, Claude Code, or OpenCode as background workers; not simple edits or read-only code lookup.',
    metadata: {
      emoji: '🧩',
      requires: { anyBins: ['claude', 'codex', 'opencode'], config: ['skills.entries.coding-agent.enabled'] },
      install: [
        node('node-claude', '@anthropic-ai/claude-code', 'claude', 'Install Claude Code CLI (npm)'),
        node('node-codex', '@openai/codex', 'codex', 'Install Codex CLI (npm)'),
      ],
    },
  },
  'control-ui': {
    description:
      'Operate and troubleshoot the OpenClaw Control UI: navigate connected clients, organize sessions, build session dashboards, and handle direct or Tailscale-hosted Gateways.',
    userInvocable: true,
  },
  'diagram-maker': { description: 'Create SVG/HTML or Excalidraw diagrams for concepts, architecture, flows, and whiteboards.', metadata: { emoji: '🧭' } },
  'gh-issues': {
    description: 'Fetch GitHub issues, select candidates, spawn background fix agents, open PRs, and optionally process PR review comments.',
    userInvocable: true,
    metadata: { primaryEnv: 'GH_TOKEN', requires: { bins: ['git', 'gh'] }, install: [brew('brew', 'gh', 'gh', 'Install GitHub CLI (brew)')] },
  },
  gifgrep: {
    description: 'Search GIF providers with CLI/TUI, download results, and extract stills/sheets.',
    homepage: 'https://gifgrep.com',
    metadata: {
      emoji: '🧲',
      requires: { bins: ['gifgrep'] },
      install: [
        brew('brew', 'steipete/tap/gifgrep', 'gifgrep', 'Install gifgrep (brew)'),
        go('go', 'github.com/steipete/gifgrep/cmd/gifgrep@latest', 'gifgrep', 'Install gifgrep (go)'),
      ],
    },
  },
  'model-usage': {
    description: 'Summarize CodexBar local cost logs by model for Codex or Claude, including current or full breakdowns.',
    metadata: {
      emoji: '📊',
      os: ['darwin', 'linux'],
      requires: { bins: ['codexbar'] },
      install: [brew('brew-cask', 'steipete/tap/codexbar', 'codexbar', 'Install CodexBar CLI (Homebrew)')],
    },
  },
  'nano-pdf': {
    description: 'Edit PDFs with natural-language instructions using the nano-pdf CLI.',
    homepage: 'https://pypi.org/project/nano-pdf/',
    metadata: {
      emoji: '📄',
      requires: { bins: ['nano-pdf'] },
      install: [{ kind: 'uv', id: 'uv', label: 'Install nano-pdf (uv)', bins: ['nano-pdf'], package: 'nano-pdf' }],
    },
  },
  notion: {
    description: 'Notion CLI/API for pages, Markdown content, data sources, files, comments, search, Workers, and raw API calls.',
    homepage: 'https://developers.notion.com/cli/get-started/overview',
    metadata: {
      emoji: '📝',
      primaryEnv: 'NOTION_API_TOKEN',
      requires: { anyBins: ['ntn', 'curl'] },
      install: [node('node', 'ntn', 'ntn', 'Install official Notion CLI (npm)')],
    },
  },
  obsidian: {
    description: 'Work with Obsidian vaults using the official obsidian CLI: read/search/create/edit notes, tasks, links, properties, plugins.',
    homepage: 'https://obsidian.md/cli',
    metadata: { emoji: '💎', requires: { bins: ['obsidian'] } },
  },
  'openai-whisper-api': {
    description: 'OpenAI Audio Transcriptions API via curl; gpt-4o-transcribe, mini, diarize, or whisper-1.',
    homepage: 'https://platform.openai.com/docs/guides/speech-to-text',
    metadata: {
      emoji: '🌐',
      primaryEnv: 'OPENAI_API_KEY',
      requires: { bins: ['curl', 'node'], env: ['OPENAI_API_KEY'] },
      install: [brew('brew', 'curl', 'curl', 'Install curl (brew)')],
    },
  },
  'python-debugpy': {
    description: 'Debug Python with pdb, breakpoint(), post-mortem inspection, and debugpy remote attach.',
    metadata: { requires: { bins: ['python3'] } },
  },
  'sherpa-onnx-tts': {
    description: 'Local text-to-speech via sherpa-onnx (offline, no cloud)',
    metadata: {
      emoji: '🔉',
      os: ['darwin', 'linux', 'win32'],
      requires: { env: ['SHERPA_ONNX_RUNTIME_DIR', 'SHERPA_ONNX_MODEL_DIR'] },
      install: [
        runtime(
          'download-runtime-macos',
          'darwin',
          'sherpa-onnx-v1.13.6-osx-universal2-shared.tar.bz2',
          '05ed5839bbdfb2da36bb9095961e6b4cfa470d55e29a9795100627dbc36df2ba',
          'Download sherpa-onnx runtime (macOS)',
        ),
        runtime(
          'download-runtime-linux-x64',
          'linux',
          'sherpa-onnx-v1.13.6-linux-x64-shared.tar.bz2',
          '58cc7d360fdedf9702954e8b585eb400bbee8668484bf25e4461d5d22ba439d8',
          'Download sherpa-onnx runtime (Linux x64)',
        ),
        runtime(
          'download-runtime-win-x64',
          'win32',
          'sherpa-onnx-v1.13.6-win-x64-shared-MD-Release.tar.bz2',
          '27efaed17a64a40fd3059ac24195dcf4ec0521c999906d288cc5107cbbf4cedc',
          'Download sherpa-onnx runtime (Windows x64)',
        ),
        {
          kind: 'download',
          id: 'download-model-lessac',
          label: 'Download Piper en_US lessac (high)',
          url: `${SHERPA}tts-models/vits-piper-en_US-lessac-high.tar.bz2`,
          archive: 'tar.bz2',
          extract: true,
          targetDir: 'models',
        },
      ],
    },
  },
  'skill-creator': { description: 'Author or review AgentSkills: create, repair, validate, or restructure SKILL.md files and bundled resources.' },
  'spotify-player': {
    description: 'Terminal Spotify playback/search via spogo (preferred) or spotify_player.',
    homepage: 'https://www.spotify.com',
    metadata: {
      emoji: '🎵',
      requires: { anyBins: ['spogo', 'spotify_player'] },
      // Both entries keep the id "brew"; the unknown key `tap` is ignored.
      install: [brew('brew', 'spogo', 'spogo', 'Install spogo (brew)'), brew('brew', 'spotify_player', 'spotify_player', 'Install spotify_player (brew)')],
    },
  },
  taskflow: {
    description: 'Run resumable approval workflows and coordinated subagent recipes with TaskFlow, Swarm, and optional Workboard claims.',
    metadata: { emoji: '🪝' },
  },
  'things-mac': {
    description: 'Add, update, list, search, or inspect Things 3 todos, inbox, today, projects, areas, and tags on macOS.',
    homepage: 'https://github.com/ossianhempel/things3-cli',
    metadata: {
      emoji: '✅',
      os: ['darwin'],
      requires: { bins: ['things'] },
      install: [go('go', 'github.com/ossianhempel/things3-cli/cmd/things@latest', 'things', 'Install things3-cli (go)')],
    },
  },
  visualize: { description: 'Create inline visuals for code and explanations, or author persistent OpenClaw dashboard widgets with show_widget.' },
  weather: {
    description: 'Current weather and forecasts with web_fetch, falling back to wttr.in curl for locations, rain, temperature, travel planning.',
    homepage: 'https://wttr.in/:help',
    metadata: { emoji: '☔', install: [brew('brew', 'curl', 'curl', 'Install curl (brew)')] },
  },
  xurl: {
    description: 'xurl CLI for authenticated X posts, replies, reads/search, DMs, media upload, followers, auth status, or raw v2 API calls.',
    metadata: {
      emoji: '🐦',
      requires: { bins: ['xurl'] },
      install: [brew('brew', 'xdevplatform/tap/xurl', 'xurl', 'Install xurl (brew)'), node('npm', '@xdevplatform/xurl', 'xurl', 'Install xurl (npm)')],
    },
  },
};

test('the corpus holds exactly the 20 skills listed here', { skip: SKIP }, () => {
  const dirs = fs
    .readdirSync(CORPUS, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort();
  assert.deepEqual(dirs, Object.keys(EXPECTED).sort());
});

for (const [dir, expected] of Object.entries(EXPECTED)) {
  test(`corpus skill ${dir} parses to OpenClaw's values`, { skip: SKIP }, () => {
    const parsed = parseSkill(fs.readFileSync(path.join(CORPUS, dir, 'SKILL.md'), 'utf8'), dir);
    assert.ok(parsed.ok, parsed.ok ? '' : parsed.message);
    const skill = parsed.skill;
    assert.equal(skill.name, dir);
    assert.equal(skill.description, expected.description);
    assert.equal(skill.userInvocable, expected.userInvocable ?? true);
    assert.equal(skill.disableModelInvocation, false);
    assert.equal(skill.homepage, expected.homepage);
    assert.deepEqual(skill.warnings, []);
    assert.ok(skill.body.trim().length > 0, 'the body follows the frontmatter');
    if (!expected.metadata) {
      assert.equal(skill.metadata, undefined);
      return;
    }
    const metadata = skill.metadata;
    assert.ok(metadata, 'a metadata.openclaw block');
    assert.equal(metadata.key, 'openclaw');
    assert.equal(metadata.emoji, expected.metadata.emoji);
    assert.equal(metadata.primaryEnv, expected.metadata.primaryEnv);
    assert.equal(metadata.always, undefined);
    assert.deepEqual(metadata.os, expected.metadata.os ?? []);
    assert.deepEqual(metadata.requires, { bins: [], anyBins: [], env: [], config: [], ...expected.metadata.requires });
    assert.deepEqual(metadata.install, expected.metadata.install ?? []);
  });
}
