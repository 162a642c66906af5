// What the extension sends to the server as settings. No `vscode` import: the protocol tests
// load this through the bundle and must build exactly what the extension builds.

/** The `packgate.*` settings the server reads (its settings contract, core/settings.py: SCHEMA and EDITOR_ONLY_KEYS). */
export const SERVER_SETTINGS = [
  'profile', 'lang', 'select', 'extendSelect', 'ignore', 'severity', 'perFileIgnores', 'contract', 'workspace.maxScripts',
  'workspace.maxFiles',
] as const;

/** The `packgate.*` settings only the extension reads. */
export const CLIENT_ONLY_SETTINGS = ['path', 'importStrategy', 'interpreter', 'trace.server'] as const;

export type ServerSettingName = (typeof SERVER_SETTINGS)[number];

/**
 * Settings that, left unset, the server derives from the client's locale (the `locale` of
 * `initialize`): sent only when the user set them, so the server can tell.
 */
export const LOCALE_DEFAULTED_SETTINGS: readonly ServerSettingName[] = ['lang'];

/** The part of `vscode.WorkspaceConfiguration` this module needs. */
export interface ConfigurationLike {
  get<T>(section: string): T | undefined;
  /** Where a value comes from (VS Code's inspect); without it every value counts as set. */
  inspect?(section: string): Record<string, unknown> | undefined;
}

/** Whether the user (or the workspace) set the setting, in any scope or language. */
function isSet(config: ConfigurationLike, name: string): boolean {
  const inspected = config.inspect?.(name);
  if (!config.inspect) {
    return true;
  }
  return Object.entries(inspected ?? {}).some(
    ([scope, value]) => scope !== 'key' && scope !== 'defaultValue' && scope !== 'languageIds' && !/^default/.test(scope) && value !== undefined,
  );
}

export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

/** The server's settings as plain JSON, from the `packgate` configuration section. */
export function serverSettings(config: ConfigurationLike): Record<string, JsonValue> {
  const result: Record<string, JsonValue> = {};
  for (const name of SERVER_SETTINGS) {
    if (LOCALE_DEFAULTED_SETTINGS.includes(name) && !isSet(config, name)) {
      continue;
    }
    const value = config.get<unknown>(name);
    if (value !== undefined) {
      result[name] = toJson(value);
    }
  }
  return result;
}

/** The initializationOptions of the language client: the settings under a `packgate` key. */
export function initializationOptions(config: ConfigurationLike): { packgate: Record<string, JsonValue> } {
  return { packgate: serverSettings(config) };
}

/** The params of workspace/didChangeConfiguration, in the same shape as the initialization. */
export function didChangeConfigurationParams(config: ConfigurationLike): {
  settings: { packgate: Record<string, JsonValue> };
} {
  return { settings: initializationOptions(config) };
}

// VS Code hands out frozen proxies for configuration values; the wire wants plain data.
function toJson(value: unknown): JsonValue {
  if (value === null || typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') {
    return value;
  }
  if (Array.isArray(value)) {
    return value.map(toJson);
  }
  if (typeof value === 'object') {
    const result: Record<string, JsonValue> = {};
    for (const key of Object.keys(value as object)) {
      result[key] = toJson((value as Record<string, unknown>)[key]);
    }
    return result;
  }
  return null;
}
