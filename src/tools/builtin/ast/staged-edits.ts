/**
 * Structural rewrites ast_edit proposed and resolve has not settled: one store per session (on
 * SessionServices), so a staged edit expires with its session and no other session can accept it.
 */
export type StagedFile = {
  path: string;
  /** The file's bytes when the edit was staged: accept requires the file to still hold them. */
  before: Buffer;
  after: string;
  replacements: number;
};

export type StagedEdit = { id: string; pattern: string; rewrite: string; files: StagedFile[] };

export class StagedEdits {
  private readonly edits = new Map<string, StagedEdit>();
  /** Ids count up within the session: short for the model, and no other session can reach them. */
  private staged = 0;

  stage(edit: Omit<StagedEdit, 'id'>): StagedEdit {
    const staged = { ...edit, id: `edit_${++this.staged}` };
    this.edits.set(staged.id, staged);
    return staged;
  }

  get(id: string): StagedEdit | undefined {
    return this.edits.get(id);
  }

  /** Removes it: a resolved edit cannot be resolved again. */
  take(id: string): StagedEdit | undefined {
    const edit = this.edits.get(id);
    this.edits.delete(id);
    return edit;
  }

  ids(): string[] {
    return [...this.edits.keys()];
  }
}
