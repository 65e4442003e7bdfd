/**
 * An organisation's limits on marketplaces, from managed policy only (a user's or a project's
 * file cannot lift or set them): `blockedMarketplaces` lists sources that may not be used, and
 * `strictKnownMarketplaces`, when set, is the only sources that may. Both hold source objects as
 * `extraKnownMarketplaces` writes them and match by the same fields (GitHub repository, git URL,
 * folder or file path). An entry that cannot be read blocks nothing and is said once — except in
 * the allow list, where it allows nothing (fail closed).
 */
import type { SettingsSource } from '../config/settings-merge';
import {
  describeMarketplaceSource,
  type MarketplaceSource,
  parseMarketplaceSource,
} from './marketplace-source';

export type MarketplacePolicy = {
  blocked: MarketplaceSource[];
  /** Undefined: no allow list. */
  allowed?: MarketplaceSource[];
  problems: string[];
};

export function marketplacePolicy(sources: readonly SettingsSource[]): MarketplacePolicy {
  const policy: MarketplacePolicy = { blocked: [], problems: [] };
  for (const { source, path, settings } of sources) {
    if (source !== 'policySettings') continue;
    const record = settings as Record<string, unknown>;
    const read = (key: string, into: MarketplaceSource[]) => {
      const list = record[key];
      if (list === undefined) return;
      if (!Array.isArray(list)) {
        policy.problems.push(`${path ?? 'managed settings'}: "${key}" must be a list of marketplace sources`);
        return;
      }
      list.forEach((entry, i) => {
        const parsed = parseMarketplaceSource(entry);
        if (typeof parsed === 'string')
          policy.problems.push(`${path ?? 'managed settings'}: "${key}[${i}]": ${parsed}`);
        else into.push(parsed);
      });
    };
    read('blockedMarketplaces', policy.blocked);
    if (record.strictKnownMarketplaces !== undefined) {
      policy.allowed ??= [];
      read('strictKnownMarketplaces', policy.allowed);
    }
  }
  return policy;
}

/** The same place: one repository, URL, folder or file (a git ref does not make it another). */
function sameSource(a: MarketplaceSource, b: MarketplaceSource): boolean {
  if (a.source === 'github' && b.source === 'github') return a.repo.toLowerCase() === b.repo.toLowerCase();
  if (a.source === 'git' && b.source === 'git') return a.url === b.url;
  if ((a.source === 'directory' || a.source === 'file') && a.source === b.source) return a.path === b.path;
  return false;
}

/** Why policy forbids `source`, or undefined when it may be used. */
export function policyRefusal(policy: MarketplacePolicy, source: MarketplaceSource): string | undefined {
  const where = describeMarketplaceSource(source);
  if (policy.blocked.some((blocked) => sameSource(blocked, source))) {
    return `the marketplace ${where} is blocked by your organisation's managed settings (blockedMarketplaces)`;
  }
  if (policy.allowed && !policy.allowed.some((allowed) => sameSource(allowed, source))) {
    return `the marketplace ${where} is not among those your organisation's managed settings allow (strictKnownMarketplaces)`;
  }
  return undefined;
}

/**
 * Why policy forbids a plugin installed from `marketplace` (undefined: a direct install), given
 * the marketplaces recorded by `yoke plugin marketplace add`. With an allow list, what cannot be
 * traced to an allowed source is refused.
 */
export function installedPluginRefusal(
  policy: MarketplacePolicy,
  marketplace: string | undefined,
  known: Readonly<Record<string, { source: MarketplaceSource }>>,
): string | undefined {
  const source = marketplace === undefined ? undefined : known[marketplace]?.source;
  if (source) return policyRefusal(policy, source);
  if (!policy.allowed) return undefined;
  return marketplace === undefined
    ? "plugins installed without a marketplace are not allowed while your organisation's managed settings list strictKnownMarketplaces"
    : `the marketplace "${marketplace}" is no longer known, so it cannot be checked against strictKnownMarketplaces`;
}
