// Environment variables that change what a program runs, loads or trusts. No rule covers a call that sets one: such a
// call is asked every time (refused when nobody can be asked), "always" is not offered for it, and a rule may not name
// one. The one list of them; a name ending in `*` is a prefix. Names compare without case (http_proxy, HTTP_PROXY).

/** One entry: the names it covers and why a rule may not cover them. */
interface RiskyEnv {
  names: readonly string[];
  why: string;
}

export const RISKY_ENV: readonly RiskyEnv[] = [
  { names: ['LD_*'], why: 'the dynamic loader loads the libraries they name into every program (LD_PRELOAD, LD_LIBRARY_PATH, LD_AUDIT)' },
  {
    names: [
      'GCONV_PATH',
      'GETCONF_DIR',
      'HOSTALIASES',
      'LOCALDOMAIN',
      'LOCPATH',
      'MALLOC_*',
      'NIS_PATH',
      'NLSPATH',
      'RESOLV_HOST_CONF',
      'RES_OPTIONS',
      'TMPDIR',
      'TZDIR',
    ],
    why: "glibc's list of variables unsafe for privileged programs: they load modules or data files from where they point",
  },
  { names: ['PATH', 'CDPATH'], why: 'they decide which program a command name runs, and which folder cd enters' },
  {
    names: ['BASH_ENV', 'ENV', 'BASH_FUNC_*', 'SHELLOPTS', 'BASHOPTS', 'PS4', 'PROMPT_COMMAND', 'IFS', 'GLOBIGNORE', 'ZDOTDIR', 'SHELL', 'INPUTRC'],
    why: 'shells run the files, functions and commands they name, or split and expand words differently',
  },
  {
    names: ['HOME', 'XDG_CONFIG_HOME', 'XDG_CONFIG_DIRS', 'XDG_DATA_HOME', 'XDG_DATA_DIRS'],
    why: 'programs read their configuration (aliases, hooks, helper commands) from there',
  },
  {
    names: ['GIT_*'],
    why: 'git reads configuration (GIT_CONFIG_COUNT/KEY_n/VALUE_n: core.fsmonitor, core.pager, aliases), hooks and helper commands (GIT_SSH_COMMAND, GIT_EXTERNAL_DIFF, GIT_ASKPASS, GIT_EXEC_PATH) from them',
  },
  {
    names: ['SSH_*', 'RSYNC_RSH', 'RSYNC_CONNECT_PROG', 'CVS_RSH', 'SVN_SSH', 'HGRCPATH', 'HGPLAIN'],
    why: 'they name the command a tool runs to connect, or the configuration it reads',
  },
  {
    names: ['EDITOR', 'VISUAL', 'PAGER', 'MANPAGER', 'LESSOPEN', 'LESSCLOSE', 'LESSKEY', 'BROWSER', 'FCEDIT', 'SUDO_ASKPASS', 'SYSTEMD_*'],
    why: 'programs run the command they name (less runs LESSOPEN on every file it opens)',
  },
  {
    names: ['NODE_OPTIONS', 'NODE_PATH', 'NODE_EXTRA_CA_CERTS', 'NODE_TLS_REJECT_UNAUTHORIZED', 'NODE_REPL_EXTERNAL_MODULE', 'NPM_CONFIG_*', 'YARN_*'],
    why: 'Node.js and npm load the modules, options and scripts they name (NODE_OPTIONS=--require runs code)',
  },
  {
    names: ['PYTHON*', 'PIP_*', 'VIRTUAL_ENV'],
    why: 'Python runs PYTHONSTARTUP, imports from PYTHONPATH and PYTHONHOME, calls PYTHONBREAKPOINT; pip installs from the index they name',
  },
  { names: ['PERL*'], why: 'Perl loads modules from PERL5LIB and runs the options of PERL5OPT (-M) and PERL5DB' },
  {
    names: ['RUBY*', 'GEM_*', 'BUNDLE_*'],
    why: 'Ruby takes options from RUBYOPT (-r loads code) and libraries from RUBYLIB, gems and Gemfiles from where they point',
  },
  {
    names: ['LUA_*', 'TCLLIBPATH', 'GUILE_LOAD_PATH', 'R_PROFILE', 'R_PROFILE_USER', 'R_ENVIRON', 'R_ENVIRON_USER', 'PHPRC', 'PHP_INI_SCAN_DIR'],
    why: 'interpreters run the code they name at start (LUA_INIT) or load libraries and settings from there',
  },
  {
    names: ['JAVA_TOOL_OPTIONS', '_JAVA_OPTIONS', 'JDK_JAVA_OPTIONS', 'CLASSPATH', 'JAVA_HOME'],
    why: 'the JVM takes options (-javaagent loads code) and classes from them',
  },
  {
    names: ['GO*', 'CGO_*', 'CARGO_*', 'RUSTC', 'RUSTC_WRAPPER', 'RUSTFLAGS', 'RUSTUP_*'],
    why: 'go and cargo run the tools, wrappers and toolchains they name (GOFLAGS=-toolexec, RUSTC_WRAPPER)',
  },
  {
    names: ['CC', 'CXX', 'CPP', 'LD', 'AS', 'AR', 'CFLAGS', 'CXXFLAGS', 'CPPFLAGS', 'LDFLAGS', 'MAKEFLAGS', 'MFLAGS', 'MAKEFILES', 'PKG_CONFIG_PATH'],
    why: 'make and build scripts run the compilers they name with these options, and read the extra makefiles of MAKEFILES',
  },
  {
    names: ['TAR_OPTIONS', 'GZIP', 'XZ_DEFAULTS', 'XZ_OPT', 'ZIPOPT', 'UNZIP', 'BZIP', 'BZIP2'],
    why: 'archivers take options from them (tar --to-command and --use-compress-program run commands)',
  },
  {
    names: [
      'HTTP_PROXY',
      'HTTPS_PROXY',
      'ALL_PROXY',
      'FTP_PROXY',
      'NO_PROXY',
      'CURL_HOME',
      'CURL_CA_BUNDLE',
      'WGETRC',
      'REQUESTS_CA_BUNDLE',
      'SSL_CERT_FILE',
      'SSL_CERT_DIR',
      'SSLKEYLOGFILE',
      'OPENSSL_*',
    ],
    why: 'downloads go through the proxy, configuration and certificates they name (what `curl … | sh` fetches), OpenSSL loads engines from its config, and SSLKEYLOGFILE writes the keys of every connection',
  },
  {
    names: [
      'KUBECONFIG',
      'DOCKER_HOST',
      'DOCKER_CONFIG',
      'AWS_CONFIG_FILE',
      'AWS_SHARED_CREDENTIALS_FILE',
      'GNUPGHOME',
      'KRB5_CONFIG',
      'TERMINFO',
      'TERMINFO_DIRS',
    ],
    why: 'tools read configuration that runs credential helpers or reaches other daemons from where they point',
  },
  { names: ['VIMINIT', 'EXINIT', 'MYVIMRC', 'VIMRUNTIME', 'EMACSLOADPATH'], why: 'editors run the commands and load the scripts they name' },
];

/** Whether a variable name is one no rule covers. */
export function isRiskyEnvName(name: string): boolean {
  return riskOf(name) !== undefined;
}

/** Why a variable changes what a program runs, or undefined when it is not one of RISKY_ENV. */
export function riskOf(name: string): string | undefined {
  const upper = name.toUpperCase();
  for (const entry of RISKY_ENV) {
    if (entry.names.some((pattern) => (pattern.endsWith('*') ? upper.startsWith(pattern.slice(0, -1)) : upper === pattern))) return entry.why;
  }
  return undefined;
}

/** The names of `env` that no rule covers, in the order given. */
export function riskyNames(env: Readonly<Record<string, unknown>>): string[] {
  return Object.keys(env).filter(isRiskyEnvName);
}
