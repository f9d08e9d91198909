// A sub-agent's turn runs in a session of its own, named after its parent's (`cli:ann/child`, nested
// `cli:ann/child/child`), so its messages never mix with the conversation; what concerns the person (a question
// about one of its tool calls) goes to the session the person is in.

const CHILD_SUFFIX = '/child';

/** The session a sub-agent of `parent` runs in. */
export function childSessionOf(parent: string): string {
  return `${parent}${CHILD_SUFFIX}`;
}

/** Whether a session is a sub-agent's. */
export function isChildSession(session: string): boolean {
  return session.endsWith(CHILD_SUFFIX);
}

/** The person's session above any depth of sub-agents (the session itself when it is no sub-agent's). */
export function personSessionOf(session: string): string {
  let root = session;
  while (isChildSession(root)) root = root.slice(0, -CHILD_SUFFIX.length);
  return root;
}
