// turndown ships no types and @types/turndown is not a dependency; this covers what WebFetch uses.
declare module 'turndown' {
  type TurndownOptions = {
    headingStyle?: 'setext' | 'atx';
    codeBlockStyle?: 'indented' | 'fenced';
    bulletListMarker?: '-' | '+' | '*';
    emDelimiter?: '_' | '*';
  };
  export default class TurndownService {
    constructor(options?: TurndownOptions);
    remove(filter: string | string[]): this;
    turndown(html: string): string;
  }
}
