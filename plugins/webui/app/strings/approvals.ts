// The approval dialog's words.
import { defineStrings } from '../i18n';

export default defineStrings({
  en: {
    'approvals.allowOnce': 'Allow once',
    'approvals.deny': 'Deny',
    'approvals.always': 'Always allow',
    'approvals.session': 'Conversation {session}',
    'approvals.expires': 'Denied at {time} unless answered.',
    'approvals.more': '{count} more waiting',
    'approvals.failed': 'Could not answer: {error}',
    'approvals.timeLocale': 'en',
    'approvals.longCall': 'Allow this call of {count} characters? Read it whole before you answer:',
    'approvals.ownerCommand': 'To allow it always, run on the machine running homed:',
  },
  zh: {
    'approvals.allowOnce': '允许一次',
    'approvals.deny': '拒绝',
    'approvals.always': '总是允许',
    'approvals.session': '会话 {session}',
    'approvals.expires': '若在 {time} 前未回答，将被拒绝。',
    'approvals.more': '还有 {count} 个问题在等待',
    'approvals.failed': '无法回答：{error}',
    'approvals.timeLocale': 'zh-CN',
    'approvals.longCall': '允许这个长达 {count} 个字符的调用吗？请读完整内容再回答：',
    'approvals.ownerCommand': '若要总是允许，请在运行 homed 的机器上执行：',
  },
});
