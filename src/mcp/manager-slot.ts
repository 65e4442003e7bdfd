/**
 * A session's MCP manager, or its place while it has none. A session that starts without any MCP
 * server makes no manager (the MCP client and its SDK stay unloaded); a plugin reload can then
 * bring the first servers. Everything that reads the manager (the turn's tool pool, the resource
 * tools, the MCP prompts, `mcp_status`, the REPL's MCP view, the session's close) holds this slot
 * and reads `manager` when it needs it, or asks to be told when one comes (`whenPresent`).
 */
import type { McpManager } from './manager';

type Adopt = (manager: McpManager) => void | Promise<void>;

export class McpManagerSlot {
  private current: McpManager | undefined;
  private making: Promise<McpManager> | undefined;
  private readonly adopters: Adopt[] = [];

  constructor(
    manager: McpManager | undefined,
    /** Makes an empty, started manager (it loads the MCP client). */
    private readonly make: () => Promise<McpManager>,
  ) {
    this.current = manager;
  }

  get manager(): McpManager | undefined {
    return this.current;
  }

  /** Runs `adopt` on the manager there is, or, once, on the one `ensure` makes later. */
  async whenPresent(adopt: Adopt): Promise<void> {
    this.adopters.push(adopt);
    if (this.current) await adopt(this.current);
  }

  /**
   * The manager, made now if there is none. It is handed out only once every `whenPresent`
   * reader has taken it, so a server started on it is never one those readers cannot see.
   */
  ensure(): Promise<McpManager> {
    if (this.current) return Promise.resolve(this.current);
    this.making ??= (async () => {
      const made = await this.make();
      try {
        for (const adopt of this.adopters) await adopt(made);
      } catch (error) {
        await made.close();
        throw error;
      } finally {
        this.making = undefined;
      }
      this.current = made;
      return made;
    })();
    return this.making;
  }
}
