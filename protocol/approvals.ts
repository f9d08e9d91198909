// Asking the person: a plugin (the approvals guard) puts a question to whoever owns a session's client, the kernel
// holds it until a client answers it (approvals/answer), its time runs out, or nobody can be asked; and the
// approvals plugin's own client methods (approvals/list|allow|revoke) with their shapes.
import { objectSchema, request } from './descriptor';
import { PATH_FIELD, SESSION_FIELD, stringField, wholeNumberField } from './fields';
import { MAX_SESSION_CHARS } from './limits';
import { OWNER_FIELD, ownerClaim, type OwnerParams } from './owner';

/**
 * Longest question, in characters: it holds an exec command line (up to 100,000 characters) with its folder and
 * variables, quoted. A question is never cut (a cut one hides what follows); a call whose question is longer is refused.
 */
export const MAX_QUESTION_CHARS = 250_000;
/** Most choices one question offers. */
export const MAX_CHOICES = 8;
/** Longest a question may wait for its answer (10 min); the asker's own timeout is bounded by it. */
export const MAX_ASK_TIMEOUT_MS = 600_000;

/** Who settled a question: a person through a client, its time running out, nobody to ask, or the asker going away. */
export const ASK_SETTLERS = ['person', 'timeout', 'no-client', 'withdrawn'] as const;
export type AskSettler = (typeof ASK_SETTLERS)[number];

/** The choices of a question that only the owner may give, and what a person offered none of them can do instead. */
export interface OwnerChoices {
  /**
   * Choices that widen what the agent may do (`always` adds a rule): only an answer that is the owner's own (waiter or
   * homectl on the admin socket) may give one; a client that is not the owner's is not offered them.
   */
  ownerChoices?: string[];
  /** The command that does the same at the machine, for a person not offered them, e.g. `homectl approvals allow exec --exact 'git status'`. */
  ownerCommand?: string;
}

export interface AskParams extends OwnerChoices {
  /** The conversation whose person is asked. */
  session: string;
  /** The question, whole, e.g. `Allow exec "rm -r old/" in /home/lin?`. */
  question: string;
  /** The answers a person may give, e.g. `yes`, `no`, `always`; `no` among them: it is the choice of a question nobody answers. */
  choices: string[];
  /** How long to wait for an answer; then the question is settled `timeout` with choice `no`. */
  timeoutMs: number;
}
export interface AskResult {
  /** The choice given; `no` when nobody answered (timeout, no client, withdrawn). */
  choice: string;
  /** Who settled it. */
  by: AskSettler;
  /** Why nobody answered, for the record and the model (absent when a person did). */
  reason?: string;
  /** The plugin whose client answered (`cli`, `webui`), when a person did. */
  via?: string;
}
/** plugin → kernel (needs `ask`): puts a question to the person of a session; answered once it is settled. Cancelling the request withdraws the question. */
export const AskRequest = request<AskParams, AskResult>('approvals/ask', {
  aliases: ['approval/ask'],
  params: objectSchema(
    {
      session: SESSION_FIELD,
      question: stringField(MAX_QUESTION_CHARS),
      choices: { type: 'array', minItems: 2, maxItems: MAX_CHOICES, uniqueItems: true, items: { type: 'string', pattern: '^[a-z][a-z0-9_-]{0,31}$' } },
      timeoutMs: wholeNumberField(1, MAX_ASK_TIMEOUT_MS),
      ownerChoices: { type: 'array', maxItems: MAX_CHOICES, uniqueItems: true, items: { type: 'string', maxLength: 32 } },
      ownerCommand: stringField(MAX_QUESTION_CHARS),
    },
    ['session', 'question', 'choices', 'timeoutMs'],
  ),
  permission: 'ask',
  crossCheck: (params) => {
    if (!params.choices.includes('no')) return 'choices must include "no", the answer of a question nobody answers';
    const strays = (params.ownerChoices ?? []).filter((choice) => choice === 'no' || !params.choices.includes(choice));
    return strays.length === 0 ? undefined : `ownerChoices must be among the choices and not "no" (${strays.join(', ')})`;
  },
});

/** A question waiting for its answer, as clients see it (approvals/pending, the `approval.asked` event). */
export interface PendingAsk extends OwnerChoices {
  /** Id to answer it with, e.g. `q-3fa9c1d2`. */
  id: string;
  /** The conversation whose person is asked. */
  session: string;
  question: string;
  choices: string[];
  /** The plugin that asks (`approvals`). */
  asker: string;
  /** The plugin whose client was shown the question (the session's owner), if one was. */
  shownVia?: string;
  /** When it was asked and when it is settled `no` unless answered, ISO 8601 UTC. */
  askedAt: string;
  expiresAt: string;
}

/** What the `approval.answered` event carries. */
export interface AnsweredAsk extends AskResult {
  /** The question's id. */
  id: string;
  session: string;
}

/** Events the kernel publishes about questions (reserved: a plugin's events are `<plugin>.<name>`). */
export const ApprovalEvents = {
  /** A question waits for an answer; data: PendingAsk. */
  Asked: 'approval.asked',
  /** A question was settled; data: AnsweredAsk. */
  Answered: 'approval.answered',
} as const;

const ASK_ID_FIELD = stringField(64);

/** `owner`: the answer is the owner's own, which alone may give one of the question's ownerChoices. */
export interface AnswerParams extends OwnerParams {
  /** The question's id (approvals/pending, the `approval.asked` event). */
  id: string;
  /** One of its choices. */
  choice: string;
  /**
   * Set by a client that could not put the question to a person (waiter without a terminal), saying why; the choice
   * must then be `no`, and the question is settled `no-client` with this reason, not as a person's answer.
   */
  unasked?: string;
}
export interface AnswerResult {
  /** The question as it was asked. */
  answered: PendingAsk;
}
/** plugin → kernel (admin: a client protocol server): answers a pending question on behalf of its client. */
export const AnswerRequest = request<AnswerParams, AnswerResult>('approvals/answer', {
  aliases: ['approval/answer'],
  params: objectSchema({ id: ASK_ID_FIELD, choice: stringField(32), unasked: stringField(500), owner: OWNER_FIELD }, ['id', 'choice']),
  permission: 'admin',
  paramPermission: ownerClaim('approvals/answer'),
});

export interface PendingParams {
  /** Only this conversation's questions. */
  session?: string;
}
export interface PendingResult {
  /** Questions waiting, the oldest first. */
  pending: PendingAsk[];
}
/** plugin → kernel (admin): the questions waiting for an answer. */
export const PendingRequest = request<PendingParams, PendingResult>('approvals/pending', {
  aliases: ['approval/pending'],
  params: objectSchema({ session: stringField(MAX_SESSION_CHARS) }),
  permission: 'admin',
});

/** What a rule does with a call it matches. */
export type RuleAction = 'allow' | 'deny';

/** A rule of `approvals:rules`: a tool, and at most one of prefix, command, glob, path; none matches every call of the tool. */
export interface ApprovalRule {
  /** Id to revoke it with, e.g. `r-1a2b3c`. */
  id: string;
  /** The tool it is about. */
  tool: string;
  /** exec: the command's first words (`git status` matches `git status -s`; never a line with shell operators). */
  prefix?: string;
  /** exec: this exact command line. */
  command?: string;
  /** File tools: a glob on the path (picomatch, e.g. `/home/lin/notes/**`). */
  glob?: string;
  /** File tools: this exact path. */
  path?: string;
  /** Only calls in this working folder (`.`: a call that names none, which runs in the tool's default); absent: any folder. */
  cwd?: string;
  /** An allow rule covers a call's variables only when listed here with the same value; absent: a call that sets none. */
  env?: Record<string, string>;
  action: RuleAction;
  /** When and how it was added (`always` in a question, `homectl`), ISO 8601 UTC. */
  added_at: string;
  added_by: string;
}

/** Who made a decision: a rule, the tool's policy, a person, the clock, nobody to ask, or the guard itself. */
export type DecisionBy = 'rule' | 'policy' | 'person' | 'timeout' | 'no-client' | 'withdrawn';

/** One recorded decision. */
export interface ApprovalDecision {
  /** Row id. */
  id: number;
  /** ISO 8601 UTC. */
  at: string;
  session: string;
  tool: string;
  /** The call's arguments, shortened. */
  args: string;
  decision: 'allow' | 'deny';
  by: DecisionBy;
  /** The rule that decided, or the answer given, or why nobody answered. */
  detail?: string;
}

/** `approvals/list` params. */
export interface ApprovalsListParams {
  /** Only this conversation's decisions. */
  session?: string;
  /** Newest decisions returned (default 50). */
  limit?: number;
}
/** `approvals/list` → the rules and the newest decisions, newest first. */
export interface ApprovalsListResult {
  rules: ApprovalRule[];
  decisions: ApprovalDecision[];
}

/** `approvals/allow` params: one of prefix, command, glob, path, or none for the whole tool. */
export interface ApprovalsAllowParams {
  tool: string;
  prefix?: string;
  command?: string;
  glob?: string;
  path?: string;
  /** Only calls in this working folder. */
  cwd?: string;
  /** Variables the allowed calls may set, with their values (never one that changes what a program runs). */
  env?: Record<string, string>;
  /** `deny` adds a rule that refuses the calls it matches. */
  action?: RuleAction;
}
export interface ApprovalsAllowResult {
  rule: ApprovalRule;
}

export interface ApprovalsRevokeParams {
  /** A rule's id. */
  id: string;
}
export interface ApprovalsRevokeResult {
  revoked: ApprovalRule;
}

/** A part of a rule. */
const RULE_TEXT_FIELD = stringField(1000);

/** The approvals plugin's client methods (homectl approvals, the web page): the rules and the record. A rule changes what runs unasked, so only the owner's own client adds or revokes one. */
export const ApprovalsApi = {
  /** The rules and the newest decisions. */
  List: request<ApprovalsListParams, ApprovalsListResult>('approvals/list', {
    params: objectSchema({ session: SESSION_FIELD, limit: wholeNumberField(1, 10_000) }),
    permission: null,
  }),
  /** Adds a rule (to the `rules` setting, as `always` in a question does). */
  Allow: request<ApprovalsAllowParams, ApprovalsAllowResult>('approvals/allow', {
    params: objectSchema(
      {
        tool: stringField(100),
        prefix: RULE_TEXT_FIELD,
        command: RULE_TEXT_FIELD,
        glob: RULE_TEXT_FIELD,
        path: RULE_TEXT_FIELD,
        cwd: PATH_FIELD,
        env: { type: 'object', maxProperties: 100, additionalProperties: { type: 'string', maxLength: 10_000 } },
        action: { enum: ['allow', 'deny'] },
      },
      ['tool'],
    ),
    permission: null,
    owner: true,
  }),
  /** Revokes a rule by id. */
  Revoke: request<ApprovalsRevokeParams, ApprovalsRevokeResult>('approvals/revoke', {
    params: objectSchema({ id: stringField(64) }, ['id']),
    permission: null,
    owner: true,
  }),
} as const;
