// The shell's words: the menu, the connection, the language switch.
import { defineStrings } from '../i18n';

export default defineStrings({
  en: {
    'shell.menu': 'Menu',
    'menu.chat': 'Chat',
    'menu.plugins': 'Plugins',
    'menu.settings': 'Settings',
    'menu.memory': 'Memory',
    'menu.knowledge': 'Knowledge',
    'menu.timers': 'Timers',
    'shell.connection': 'Connection',
    'shell.connecting': 'Connecting…',
    'shell.connected': 'Connected',
    'shell.reconnecting': 'Reconnecting…',
    'shell.language': 'Language',
    'shell.kernelStatus': 'Kernel status',
    'shell.status': 'homed {version}, {ready}/{enabled} plugins ready',
    'shell.waiting': 'Waiting for homed…',
  },
  zh: {
    'shell.menu': '菜单',
    'menu.chat': '聊天',
    'menu.plugins': '插件',
    'menu.settings': '设置',
    'menu.memory': '记忆',
    'menu.knowledge': '知识库',
    'menu.timers': '定时器',
    'shell.connection': '连接',
    'shell.connecting': '正在连接…',
    'shell.connected': '已连接',
    'shell.reconnecting': '正在重新连接…',
    'shell.language': '语言',
    'shell.kernelStatus': '内核状态',
    'shell.status': 'homed {version}，{ready}/{enabled} 个插件就绪',
    'shell.waiting': '正在等待 homed…',
  },
});
