/**
 * Turns a command line into the units a permission decision is made on: every simple command the
 * shell would run (across operators, subshells, substitutions, control flow), with wrappers
 * (`timeout`, `xargs`, `find -exec`, `env`, `sudo`) opened so the command they run is a unit too,
 * and code strings (`eval`, `sh -c`) parsed for deny checks. Built on the real tree-sitter parse;
 * the units themselves are made by `ShellUnitAnalyzer`.
 */
import { parseCommand } from '../services/bash-parser';
import { isForkBomb } from './shell-danger';
import { allUnits, type ShellUnit } from './shell-unit';
import { type ShellAnalysisOptions, ShellUnitAnalyzer } from './shell-unit-analyzer';

export type ShellAnalysis = {
  source: string;
  parseError: boolean;
  units: ShellUnit[];
  hasSubstitution: boolean;
  forkBomb: boolean;
};

export async function analyzeShellCommand(
  source: string,
  options: ShellAnalysisOptions,
): Promise<ShellAnalysis> {
  const parsed = await parseCommand(source);
  let units = await new ShellUnitAnalyzer(options, source).units(parsed, 0);
  // A glob may match a planted `-o` or `--files0-from=…`: each word of it may be any option. When
  // the line creates no file at all, the files on disk now are the ones the shell will match,
  // so options are judged against those words instead (`wc -l *.ts` is then only a read).
  const hasGlob = parsed.segments.some((segment) => segment.argv.some((word) => word.glob));
  if (hasGlob) {
    const onDisk = await new ShellUnitAnalyzer({ ...options, globsOnDisk: true }, source).units(parsed, 0);
    if ([...allUnits(onDisk)].every((unit) => unit.readOnly)) units = onDisk;
  }
  return {
    source,
    parseError: parsed.parseError,
    units,
    hasSubstitution: parsed.hasCommandSubstitution || parsed.hasProcessSubstitution,
    forkBomb: isForkBomb(source),
  };
}
