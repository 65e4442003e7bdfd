import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { CLAUDE_CODE_PERMISSIONS_KEYS, CLAUDE_CODE_SETTINGS_KEYS } from './claude-settings-keys';

/** The property names of the installed Agent SDK's `Settings` interface, and of its `permissions`. */
function sdkSettingsKeys(): { top: string[]; permissions: string[] } {
  const file = join(import.meta.dirname, '../../node_modules/@anthropic-ai/claude-agent-sdk/sdk.d.ts');
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  const settings = source.statements.find(
    (node): node is ts.InterfaceDeclaration =>
      ts.isInterfaceDeclaration(node) && node.name.text === 'Settings',
  );
  if (!settings) throw new Error('sdk.d.ts has no Settings interface');
  const name = (member: ts.PropertySignature) =>
    ts.isIdentifier(member.name) || ts.isStringLiteral(member.name)
      ? member.name.text
      : member.name.getText();
  const top = settings.members.filter(ts.isPropertySignature);
  const permissions = top.find((member) => name(member) === 'permissions')?.type;
  if (!permissions || !ts.isTypeLiteralNode(permissions))
    throw new Error('Settings.permissions is not an object');
  return { top: top.map(name), permissions: permissions.members.filter(ts.isPropertySignature).map(name) };
}

describe('CLAUDE_CODE_SETTINGS_KEYS', () => {
  it("is the Agent SDK's Settings interface, key for key", () => {
    const sdk = sdkSettingsKeys();
    expect(CLAUDE_CODE_SETTINGS_KEYS).toEqual(sdk.top);
    expect(CLAUDE_CODE_PERMISSIONS_KEYS).toEqual(sdk.permissions);
  });

  it('holds every key compat-surface §3.2 lists', () => {
    for (const key of [
      'sandbox',
      'statusLine',
      'enabledPlugins',
      'outputStyle',
      'worktree',
      'claudeMdExcludes',
    ])
      expect(CLAUDE_CODE_SETTINGS_KEYS).toContain(key);
    expect(CLAUDE_CODE_PERMISSIONS_KEYS).toContain('denyInsteadOfPrompting');
  });
});
