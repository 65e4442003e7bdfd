/**
 * Links a command line makes for itself. `ln -s .git/config c; echo x > c` writes .git/config,
 * `cp -P planted-link b; echo x >> b` too, and `for …; do echo x > c; ln -sf .git/config c; done`
 * does on its second round — yet when the line is judged, `c` does not exist or is a plain file.
 * So a path at or below one that another command of the same line may turn into a link (ln, mv,
 * or a cp that copies links as links) is only known when the line runs. Order does not matter:
 * loops and pipelines run commands in any order. A `mv` or `cp` of plain files makes no link and
 * is left out. Calibrated in red-team-calibration.test.ts.
 */
import type { PathFs } from './real-paths';
import type { TouchedPath } from './shell-paths';
import { allUnits, type ShellUnit } from './shell-unit';

/** cp options that copy a symlink as a symlink or make links: -P -d -a -R -r -s -l and their long forms. */
const CP_LINK_LETTERS = /^-[^-]*[PdaRrsl]/;
const CP_LINK_LONG =
  /^--(no-dereference|archive|recursive|symbolic-link|link|preserve=\S*links|preserve$|parents)/;

/** Whether `name args` may leave a link (or a moved link) at the paths it writes. */
export function mayCreateLinks(name: string, args: readonly string[]): boolean {
  if (name === 'ln' || name === 'mv') return true;
  if (name !== 'cp') return false;
  return args.some((arg) => arg !== '--' && (CP_LINK_LETTERS.test(arg) || CP_LINK_LONG.test(arg)));
}

/**
 * Whether a `mv` or `cp` unit moves or copies something that is or may hold a link: a source
 * that is a link or passes through one, a folder (links may be inside), or one only known when
 * it runs. `mv a.ts b.ts` of a plain file leaves a plain file.
 */
function movesLinks(unit: ShellUnit, fs: PathFs): boolean {
  const words = unit.argv.slice(1);
  // `ln` and `cp -s`/`-l` make links of whatever they are given.
  if (unit.name === 'ln' || words.some((w) => /^-[^-]*[sl]|^--(symbolic-link|link)/.test(w.value)))
    return true;
  if (words.some((w) => w.dynamic || w.glob || /^-[^-]*t|^--target/.test(w.value))) return true;
  const positional = words.filter((w) => !w.value.startsWith('-'));
  const sources = new Set(positional.slice(0, -1).map((w) => w.text));
  return unit.reads.some((read) => {
    if (!sources.has(read.text)) return false;
    if (!read.resolved) return true;
    return read.resolved.links.length > 0 || fs.kind(read.resolved.real) !== 'file';
  });
}

const isAtOrBelow = (path: string, top: string) =>
  path === top || path.startsWith(top.endsWith('/') ? top : `${top}/`);

/**
 * Makes every path of `units` that lies at or below a path another unit may turn into a link an
 * unknown one, with the reason. A path spelt with `..` may leave through such a link, so it is
 * unknown too once the line makes any.
 */
export function markPathsBehindNewLinks(units: readonly ShellUnit[], fs: PathFs): void {
  const creators: Array<{ unit: ShellUnit; paths: string[] }> = [];
  for (const unit of allUnits(units)) {
    if (unit.kind !== 'command' || !unit.name) continue;
    const args = unit.argv.slice(1).map((w) => w.value);
    if (!mayCreateLinks(unit.name, args) || !movesLinks(unit, fs)) continue;
    const paths = unit.writes
      .filter((w) => !w.viaRedirect && w.path !== undefined)
      .map((w) => w.path as string);
    if (paths.length > 0) creators.push({ unit, paths });
  }
  if (creators.length === 0) return;
  for (const unit of allUnits(units)) {
    const others = creators.filter((c) => c.unit !== unit);
    const mark = (touched: TouchedPath) => {
      const { path } = touched;
      if (path === undefined) return;
      const creator = others.find(
        (c) => c.paths.some((top) => isAtOrBelow(path, top)) || /(^|\/)\.\.(\/|$)/.test(touched.text),
      );
      if (!creator) return;
      delete touched.path;
      delete touched.resolved;
      touched.unknownBecause = `\`${creator.unit.text}\` in the same line may make it a link`;
    };
    for (const touched of [...unit.reads, ...unit.writes]) mark(touched);
  }
}
