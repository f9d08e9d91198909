// The Chat page's command menu: typing `/` at the start of a message lists the skills a person may invoke by name
// (ready, user-invocable ones, from the openclaw plugin's skills/list); picking one writes `/name ` into the message.
// Without the openclaw plugin (disabled, or not answering) there is simply no menu.
import { h } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import htm from 'htm';
import type { Client } from '../connection';
import type { T } from '../i18n';
import { SkillsApi, type SkillSummary } from '../../../../protocol/skills';
import { matchingCommands, typedCommand } from './command-match';

const html = htm.bind(h);

interface Props {
  client: Client;
  t: T;
  draft: string;
  /** Called with the message to put in the box (`/name `). */
  choose(text: string): void;
}

/** The menu under the message box while a command is being typed. */
export function CommandMenu({ client, t, draft, choose }: Props) {
  const prefix = typedCommand(draft);
  const typing = prefix !== undefined;
  const [skills, setSkills] = useState<SkillSummary[]>([]);
  // Read afresh each time a command starts, so a skill installed meanwhile is there.
  useEffect(() => {
    if (!typing) return;
    let current = true;
    client.call(SkillsApi.List, { eligible: true }).then(
      (listed) => current && setSkills(listed.skills),
      () => current && setSkills([]),
    );
    return () => {
      current = false;
    };
  }, [typing]);
  if (prefix === undefined) return null;
  const shown = matchingCommands(skills, prefix);
  if (shown.length === 0) return null;
  return html`
    <ul class="commands" role="listbox" aria-label=${t('chat.commands')}>
      ${shown.map(
        (skill) =>
          html`<li role="option" aria-selected="false" key=${skill.name}>
            <button type="button" onClick=${() => choose(`/${skill.name} `)}>
              <strong>/${skill.name}</strong> <span>${skill.emoji ? `${skill.emoji} ` : ''}${skill.description}</span>
            </button>
          </li>`,
      )}
    </ul>
  `;
}
