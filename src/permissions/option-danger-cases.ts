/**
 * The dangerous options of the read-only commands, one row each, shared by the permission corpus
 * (each must ask in default mode with no rules) and the calibration suite (each is run for real in
 * a scratch project to prove the effect the check blocks). The scratch layout: the command runs in
 * `proj/`; `../outside/secret.txt` holds a secret (its atime is set back, so a read shows), with
 * `../outside/list0` (its absolute path, NUL-terminated), `../outside/list` (newline-terminated)
 * and `../outside/dir/` beside it. `proj/x` holds a few lines, `proj/prog` is a script that
 * touches `ran`, and a git row's project is a repository with one commit.
 */

export type DangerEffect =
  /** A file appears (or, with `gone`, disappears) in the project. */
  | 'writes'
  /** A program runs: it touches `ran` in the project. */
  | 'runs'
  /** `../outside/secret.txt` is read (its atime moves, or its text is printed). */
  | 'reads-outside'
  /** A system call that changes the machine is made (seen with strace). */
  | 'changes-system';

export type DangerCase = {
  cmd: string;
  effect: DangerEffect;
  /** Prepares the scratch project (runs in `proj/` before the command). */
  setup?: string;
  /** `writes`: the path (relative to `proj/`) that must appear; default `pwned`. */
  marker?: string;
  /** `writes`: the path (relative to `proj/`) that must be gone afterwards instead. */
  gone?: string;
  /** `writes`: the file (relative to `proj/`) whose content must change instead. */
  changed?: string;
  /** `reads-outside`: the file in `../outside` that is read (default `secret.txt`). */
  reads?: string;
  /** `reads-outside`: output that proves it (for reads of names or metadata, which move no atime). */
  output?: RegExp;
  /** `changes-system`: the system call strace must see. */
  syscall?: string;
  /** A harmless spelling of `cmd` with the same effect, for the rows that would change the machine. */
  calibrate?: string;
  /** What the command reads on standard input in the calibration run. */
  stdin?: string;
  /** Run under a pseudo-terminal (pagers only start on a terminal). */
  tty?: boolean;
  /** The program the row needs, when it is not the command's first word. */
  needs?: string;
};

/** A repository with one commit and a change in `x`, whose config the row may extend. */
export const GIT_REPO = 'git init -q && git add -A && git commit -qm init && echo more >> x';
/** A commit with a (bogus) signature: showing it verifies the signature with gpg.program. */
const SIGNED_COMMIT = `${GIT_REPO} && git config gpg.program "$PWD/prog" && printf 'tree %s\nauthor a <a@b> 0 +0000\ncommitter a <a@b> 0 +0000\ngpgsig -----BEGIN PGP SIGNATURE-----\n \n -----END PGP SIGNATURE-----\n\nsigned\n' "$(git write-tree)" | git hash-object -t commit -w --stdin | xargs git update-ref HEAD`;
/** A diff driver whose textconv program touches `ran`. */
const TEXTCONV = `${GIT_REPO} && git config diff.t.textconv 'touch ran; cat' && echo 'x diff=t' > .gitattributes`;
const TEXTCONV_COMMITTED = `${TEXTCONV} && git add -A && git commit -qm two`;
/** Lines that, run as a shell script, touch `ran`; enough of them to make sort spill to temp files. */
/** A jq module and a JSON file outside the project. */
const JQ_MODULE = 'echo \'def f: "SECRET";\' > ../outside/m.jq';
const DATA_JSON = 'echo \'{"SECRET":1}\' > ../outside/data.json';
const SH_LINES = 'for i in $(seq 3000); do echo "touch ran"; done > big';

export const DANGER_CASES: DangerCase[] = [
  // sort (coreutils 9.1)
  { cmd: 'sort -o pwned x', effect: 'writes' },
  { cmd: 'sort --output=pwned x', effect: 'writes' },
  { cmd: 'sort --ou=pwned x', effect: 'writes' },
  { cmd: 'sort x -opwned', effect: 'writes' },
  { cmd: 'sort --compress-program=sh -S 1 big', effect: 'runs', setup: SH_LINES },
  { cmd: 'sort --compress-prog=sh -S 1 big', effect: 'runs', setup: SH_LINES },
  { cmd: 'sort --compress-p=./prog -S 1 big', effect: 'runs', setup: SH_LINES },
  {
    cmd: 'sort -T tmpdir -S 1 big',
    effect: 'writes',
    setup: `${SH_LINES} && mkdir tmpdir`,
    marker: 'tmpdir/',
  },
  { cmd: 'sort --files0-from=../outside/list0', effect: 'reads-outside' },
  { cmd: 'sort -R --random-source=../outside/secret.txt x', effect: 'reads-outside' },
  // uniq: a second operand is the output file.
  { cmd: 'uniq x pwned', effect: 'writes' },
  { cmd: 'uniq -- x pwned', effect: 'writes' },
  { cmd: 'uniq -c x pwned', effect: 'writes' },
  // wc, du, cat, head and friends read a list of names from a file, or read outside.
  { cmd: 'wc --files0-from=../outside/list0', effect: 'reads-outside' },
  { cmd: 'wc -l --files0-f=../outside/list0', effect: 'reads-outside' },
  { cmd: 'du --files0-from=../outside/list0', effect: 'reads-outside', output: /secret\.txt/ },
  { cmd: 'du -X ../outside/secret.txt x', effect: 'reads-outside' },
  { cmd: 'cat ../outside/secret.txt', effect: 'reads-outside' },
  { cmd: 'head -n 1 ../outside/secret.txt', effect: 'reads-outside' },
  // checksums: -c reads the files named in the list.
  {
    cmd: 'md5sum -c ../outside/sums.md5',
    effect: 'reads-outside',
    setup: 'cd ../outside && md5sum "$PWD/secret.txt" > sums.md5',
  },
  {
    cmd: 'sha1sum --check ../outside/sums.sha1',
    effect: 'reads-outside',
    setup: 'cd ../outside && sha1sum "$PWD/secret.txt" > sums.sha1',
  },
  {
    cmd: 'sha256sum -c ../outside/sums.sha256',
    effect: 'reads-outside',
    setup: 'cd ../outside && sha256sum "$PWD/secret.txt" > sums.sha256',
  },
  {
    cmd: 'sha512sum -c ../outside/sums.sha512',
    effect: 'reads-outside',
    setup: 'cd ../outside && sha512sum "$PWD/secret.txt" > sums.sha512',
  },
  {
    cmd: 'cksum -c ../outside/sums.ck',
    effect: 'reads-outside',
    setup: 'cd ../outside && cksum -a sha256 "$PWD/secret.txt" > sums.ck',
  },
  // date and hostname change the machine; calibrated by setting what is already set.
  {
    cmd: 'date -s 2030-01-01',
    effect: 'changes-system',
    syscall: 'clock_settime',
    calibrate: 'date -s "@$(date +%s)"',
  },
  {
    cmd: 'date --set=2030-01-01',
    effect: 'changes-system',
    syscall: 'clock_settime',
    calibrate: 'date --set="@$(date +%s)"',
  },
  {
    cmd: 'date 010100002030',
    effect: 'changes-system',
    syscall: 'clock_settime',
    calibrate: 'date "$(date +%m%d%H%M%Y.%S)"',
  },
  { cmd: 'date -f ../outside/secret.txt', effect: 'reads-outside' },
  {
    cmd: 'hostname evil',
    effect: 'changes-system',
    syscall: 'sethostname',
    calibrate: 'hostname "$(hostname)"',
  },
  {
    cmd: 'hostname -F name.txt',
    effect: 'changes-system',
    syscall: 'sethostname',
    setup: 'hostname > name.txt',
  },
  // file: -C writes magic.mgc, -p resets access times, -f/-m read lists.
  {
    cmd: 'file -C -m magic',
    effect: 'writes',
    marker: 'magic.mgc',
    setup: 'printf "0 string SECRET secret\\n" > magic',
  },
  { cmd: 'file -p x', effect: 'changes-system', syscall: 'utimensat' },
  { cmd: 'file -f ../outside/list', effect: 'reads-outside' },
  { cmd: 'file -m ../outside/secret.txt x', effect: 'reads-outside' },
  // tree (2.1): -o writes its listing, -R writes 00Tree.html into each folder.
  { cmd: 'tree -o pwned', effect: 'writes' },
  { cmd: 'tree -R -L 1 -H . sub', effect: 'writes', marker: 'sub/d/00Tree.html', setup: 'mkdir -p sub/d/e' },
  { cmd: 'tree --gitfile=../outside/secret.txt', effect: 'reads-outside' },
  // grep: patterns or excludes from a file outside, a recursive search outside.
  { cmd: 'grep -f ../outside/secret.txt x', effect: 'reads-outside' },
  { cmd: 'grep -f../outside/secret.txt x', effect: 'reads-outside' },
  { cmd: 'grep --exclude-from=../outside/secret.txt -r foo .', effect: 'reads-outside' },
  { cmd: 'grep -r SECRET ../outside', effect: 'reads-outside' },
  { cmd: 'grep -d recurse SECRET ../outside', effect: 'reads-outside' },
  // ripgrep
  { cmd: 'rg --pre ./prog b x', effect: 'runs', needs: 'rg' },
  { cmd: 'rg --pre=./prog --pre-glob "*" b x', effect: 'runs', needs: 'rg' },
  { cmd: 'rg -f ../outside/secret.txt', effect: 'reads-outside', needs: 'rg' },
  { cmd: 'rg --ignore-file ../outside/secret.txt x', effect: 'reads-outside', needs: 'rg' },
  { cmd: 'rg SECRET ../outside', effect: 'reads-outside', needs: 'rg' },
  // the silver searcher: the pager only starts on a terminal.
  { cmd: "ag --pager='touch ran' b x", effect: 'runs', tty: true, needs: 'ag' },
  { cmd: 'ag -p ../outside/secret.txt b', effect: 'reads-outside', needs: 'ag' },
  // fd
  { cmd: 'fdfind -x touch ran', effect: 'runs', needs: 'fdfind' },
  { cmd: 'fdfind --exec-batch touch ran', effect: 'runs', needs: 'fdfind' },
  {
    cmd: 'fdfind --base-directory ../outside secret',
    effect: 'reads-outside',
    output: /secret\.txt/,
    needs: 'fdfind',
  },
  { cmd: 'fdfind --ignore-file ../outside/secret.txt', effect: 'reads-outside', needs: 'fdfind' },
  // find: actions that run, write or delete; folders read from a list.
  { cmd: 'find . -name x -exec touch ran \\;', effect: 'runs' },
  { cmd: 'find . -name x -execdir touch ran \\;', effect: 'runs' },
  { cmd: 'find . -name x -ok touch ran \\;', effect: 'runs', stdin: 'y\n' },
  { cmd: 'find . -name x -okdir touch ran \\;', effect: 'runs', stdin: 'y\n' },
  { cmd: 'find . -name victim -delete', effect: 'writes', gone: 'victim', setup: 'touch victim' },
  { cmd: 'find . -fprint pwned', effect: 'writes' },
  { cmd: 'find . -fprint0 pwned', effect: 'writes' },
  { cmd: 'find . -fls pwned', effect: 'writes' },
  { cmd: 'find . -fprintf pwned "%p"', effect: 'writes' },
  { cmd: 'find -files0-from ../outside/list0 -name "*"', effect: 'reads-outside', output: /secret\.txt/ },
  { cmd: 'find ../outside -name secret.txt -exec cat {} +', effect: 'reads-outside' },
  // sed: commands and flags in every position.
  { cmd: "sed 'w pwned' x", effect: 'writes' },
  { cmd: "sed -n '1w pwned' x", effect: 'writes' },
  { cmd: "sed -n 'p;w pwned' x", effect: 'writes' },
  { cmd: "sed -n '1{w pwned\n}' x", effect: 'writes' },
  { cmd: "sed -n '/b/I,+1W pwned' x", effect: 'writes' },
  { cmd: "sed -n '0~1!d;w pwned' x", effect: 'writes' },
  { cmd: "sed -n ':a;w pwned' x", effect: 'writes' },
  { cmd: "sed -n ':a w pwned' x", effect: 'writes' },
  { cmd: "sed -n 'v;w pwned' x", effect: 'writes' },
  { cmd: "sed -n 'bx;w pwned\n:x' x", effect: 'writes' },
  { cmd: "sed 's/a/b/w pwned' x", effect: 'writes' },
  { cmd: "sed 's|a|b|gw pwned' x", effect: 'writes' },
  { cmd: "sed 's/[/]/b/ w pwned' x", effect: 'writes' },
  { cmd: "sed -e p -e 'w pwned' x", effect: 'writes' },
  { cmd: "sed --expression='w pwned' x", effect: 'writes' },
  { cmd: "sed '1e touch ran' x", effect: 'runs' },
  { cmd: "sed -n '$!{e touch ran\n}' x", effect: 'runs' },
  { cmd: "sed 's/.*/touch ran/e' x", effect: 'runs' },
  { cmd: "sed '\\%b%s/.*/touch ran/e' x", effect: 'runs' },
  { cmd: "sed '1r ../outside/secret.txt' x", effect: 'reads-outside' },
  { cmd: "sed -n 'R ../outside/secret.txt' x", effect: 'reads-outside' },
  { cmd: "sed '$ r ../outside/secret.txt' x", effect: 'reads-outside' },
  { cmd: 'sed -f script x', effect: 'writes', setup: 'echo "w pwned" > script' },
  { cmd: "sed -i 's/b/c/' x", effect: 'writes', changed: 'x' },
  { cmd: "sed --in-place=.bak 's/b/c/' x", effect: 'writes', marker: 'x.bak' },
  { cmd: "sed 's/b/c/' x -i", effect: 'writes', changed: 'x' },
  // jq: files and modules outside.
  { cmd: "jq -n --rawfile s ../outside/secret.txt '$s'", effect: 'reads-outside' },
  {
    cmd: "jq -n --slurpfile s ../outside/data.json '$s'",
    effect: 'reads-outside',
    reads: 'data.json',
    setup: DATA_JSON,
  },
  { cmd: 'jq -n \'include "../outside/m"; f\'', effect: 'reads-outside', reads: 'm.jq', setup: JQ_MODULE },
  {
    cmd: 'jq -n -L ../outside \'import "m" as m; m::f\'',
    effect: 'reads-outside',
    reads: 'm.jq',
    setup: JQ_MODULE,
  },
  { cmd: 'jq . ../outside/data.json', effect: 'reads-outside', reads: 'data.json', setup: DATA_JSON },
  // xxd writes its second operand; xargs and env read outside or run with input words.
  { cmd: 'xxd x pwned', effect: 'writes' },
  { cmd: 'xxd -r hex pwned', effect: 'writes', setup: 'xxd x > hex' },
  { cmd: 'xxd -c 8 x pwned', effect: 'writes' },
  { cmd: 'xargs -a ../outside/secret.txt echo', effect: 'reads-outside' },
  { cmd: 'xargs -a../outside/secret.txt echo', effect: 'reads-outside' },
  { cmd: 'xargs --arg-file=../outside/list cat', effect: 'reads-outside' },
  { cmd: 'xargs cat', effect: 'reads-outside', stdin: '../outside/secret.txt\n' },
  { cmd: 'xargs grep SECRET', effect: 'reads-outside', stdin: '../outside/secret.txt\n' },
  {
    cmd: 'xargs -0 wc -c',
    effect: 'reads-outside',
    stdin: '--files0-from=../outside/list0',
    output: /secret\.txt/,
  },
  { cmd: 'xargs -I{} cat {}', effect: 'reads-outside', stdin: '../outside/secret.txt\n' },
  { cmd: 'xargs env', effect: 'runs', stdin: 'touch ran\n' },
  { cmd: 'xargs timeout 5', effect: 'runs', stdin: 'touch ran\n' },
  // PATH=0 in the child's environment: `ls` is then the planted ./0/ls.
  { cmd: 'xargs --process-slot-var=PATH ls', effect: 'runs', stdin: '\n', setup: 'mkdir 0 && cp prog 0/ls' },
  { cmd: 'env -C ../outside cat secret.txt', effect: 'reads-outside' },
  { cmd: 'env -C../outside cat secret.txt', effect: 'reads-outside' },
  { cmd: 'env --chdir=../outside cat secret.txt', effect: 'reads-outside' },
  {
    cmd: 'time -o pwned ls',
    effect: 'writes',
    calibrate: '/usr/bin/time -o pwned ls',
    needs: '/usr/bin/time',
  },
  { cmd: '/usr/bin/time --output=pwned ls', effect: 'writes' },
  { cmd: 'timeout 60 cat ../outside/secret.txt', effect: 'reads-outside' },
  { cmd: 'nice -n 5 cat ../outside/secret.txt', effect: 'reads-outside' },
  // printf -v with a subscript evaluates it.
  { cmd: "printf -v 'a[$(touch ran)]' x", effect: 'runs' },
  { cmd: "printf -v'a[$(touch ran)]' x", effect: 'runs' },
  // strings reads more arguments from @FILE.
  { cmd: 'strings @../outside/list', effect: 'reads-outside' },
  // diff: paths and exclude lists outside.
  { cmd: 'diff x ../outside/secret.txt', effect: 'reads-outside' },
  { cmd: 'diff -r . ../outside', effect: 'reads-outside', output: /secret\.txt/ },
  { cmd: 'diff --from-file=../outside/secret.txt x', effect: 'reads-outside' },
  { cmd: 'diff -X ../outside/secret.txt -r . .', effect: 'reads-outside' },
  { cmd: 'cmp x ../outside/secret.txt', effect: 'reads-outside' },
  {
    cmd: 'hexdump -f ../outside/fmt x',
    effect: 'reads-outside',
    reads: 'fmt',
    setup: 'echo \'"%x"\' > ../outside/fmt',
  },
  // git: global options that switch repository or configuration.
  {
    cmd: 'git -C ../outside/repo status',
    effect: 'runs',
    setup:
      'git init -q ../outside/repo && git -C ../outside/repo config core.fsmonitor "touch $PWD/ran; false"',
  },
  { cmd: "git -c core.fsmonitor='touch ran; false' status", effect: 'runs', setup: GIT_REPO },
  {
    cmd: 'git --git-dir=../outside/repo/.git log',
    effect: 'reads-outside',
    output: /SECRET-TOKEN/,
    setup:
      'git init -q ../outside/repo && git -C ../outside/repo commit -q --allow-empty -m "$(cat ../outside/secret.txt)"',
  },
  {
    cmd: 'git --work-tree=../outside diff',
    effect: 'reads-outside',
    setup: `${GIT_REPO} && echo old > secret.txt && git add secret.txt && git commit -qm s`,
  },
  {
    cmd: 'git --config-env=core.pager=PAGER_CMD -p log',
    effect: 'runs',
    tty: true,
    setup: GIT_REPO,
    calibrate: "PAGER_CMD='touch ran; cat' git --config-env=core.pager=PAGER_CMD -p log",
  },
  {
    cmd: 'git -p log',
    effect: 'runs',
    tty: true,
    setup: `${GIT_REPO} && git config core.pager 'touch ran; cat'`,
  },
  {
    cmd: 'git --paginate status',
    effect: 'runs',
    tty: true,
    setup: `${GIT_REPO} && git config core.pager 'touch ran; cat'`,
  },
  // git subcommands: options that write, run filters, pagers or gpg, or read outside.
  { cmd: 'git log --output=pwned', effect: 'writes', setup: GIT_REPO },
  { cmd: 'git archive -o pwned HEAD', effect: 'writes', setup: GIT_REPO },
  { cmd: 'git archive --output=pwned HEAD -- x', effect: 'writes', setup: GIT_REPO },
  { cmd: 'git archive --add-file=../outside/secret.txt HEAD', effect: 'reads-outside', setup: GIT_REPO },
  {
    cmd: "git archive --remote=. --exec='touch ran; git-upload-archive' HEAD",
    effect: 'runs',
    setup: GIT_REPO,
  },
  { cmd: 'git diff --output pwned', effect: 'writes', setup: GIT_REPO },
  { cmd: 'git show --output=pwned', effect: 'writes', setup: GIT_REPO },
  { cmd: 'git diff --textconv', effect: 'runs', setup: TEXTCONV },
  { cmd: 'git log -p --textconv', effect: 'runs', setup: TEXTCONV_COMMITTED },
  {
    cmd: 'git diff --ext-diff',
    effect: 'runs',
    setup: `${GIT_REPO} && git config diff.external 'touch ran; true'`,
  },
  { cmd: "git grep -O'touch ran' more", effect: 'runs', setup: GIT_REPO },
  { cmd: "git grep --open-files-in-pager='touch ran' more", effect: 'runs', setup: GIT_REPO },
  { cmd: "git grep --open-files='touch ran' more", effect: 'runs', setup: GIT_REPO },
  { cmd: 'git grep --textconv b', effect: 'runs', setup: TEXTCONV },
  { cmd: 'git grep -f ../outside/secret.txt', effect: 'reads-outside', setup: GIT_REPO },
  { cmd: 'git diff --no-index x ../outside/secret.txt', effect: 'reads-outside', setup: GIT_REPO },
  { cmd: 'git diff x ../outside/secret.txt', effect: 'reads-outside', setup: GIT_REPO },
  { cmd: 'git diff -O../outside/secret.txt', effect: 'reads-outside', setup: GIT_REPO },
  { cmd: 'git blame --contents ../outside/secret.txt x', effect: 'reads-outside', setup: GIT_REPO },
  { cmd: 'git blame --ignore-revs-file ../outside/secret.txt x', effect: 'reads-outside', setup: GIT_REPO },
  { cmd: 'git cat-file --textconv HEAD:x', effect: 'runs', setup: TEXTCONV_COMMITTED },
  {
    cmd: 'git cat-file --filters HEAD:x',
    effect: 'runs',
    setup: `${GIT_REPO} && git config filter.f.smudge 'touch ran; cat' && echo 'x filter=f' > .gitattributes`,
  },
  { cmd: 'git log --show-signature', effect: 'runs', setup: SIGNED_COMMIT },
  { cmd: "git log --format='%G?'", effect: 'runs', setup: SIGNED_COMMIT },
  { cmd: 'git show --pretty=format:%GS', effect: 'runs', setup: SIGNED_COMMIT },
  { cmd: 'git config --file ../outside/secret.txt --list', effect: 'reads-outside' },
  { cmd: 'git config alias.x "!touch ran"', effect: 'writes', changed: '.git/config', setup: 'git init -q' },
  {
    cmd: 'git config --edit',
    effect: 'runs',
    setup: `${GIT_REPO} && git config core.editor 'touch ran; true'`,
  },
  { cmd: 'git branch pwned', effect: 'writes', marker: '.git/refs/heads/pwned', setup: GIT_REPO },
  {
    cmd: 'git branch --edit-description',
    effect: 'runs',
    setup: `${GIT_REPO} && git config core.editor 'touch ran; true'`,
  },
  { cmd: 'git tag pwned', effect: 'writes', marker: '.git/refs/tags/pwned', setup: GIT_REPO },
  { cmd: 'git tag -d x', effect: 'writes', gone: '.git/refs/tags/x', setup: `${GIT_REPO} && git tag x` },
  { cmd: 'git stash', effect: 'writes', marker: '.git/refs/stash', setup: GIT_REPO },
  { cmd: 'git remote add o ../outside', effect: 'writes', changed: '.git/config', setup: GIT_REPO },
  {
    cmd: 'git reflog expire --expire=now --all',
    effect: 'writes',
    changed: '.git/logs/HEAD',
    setup: GIT_REPO,
  },
  { cmd: 'git worktree add ../outside/wt', effect: 'writes', marker: '.git/worktrees/wt', setup: GIT_REPO },
];
