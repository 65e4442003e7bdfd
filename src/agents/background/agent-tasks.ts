/**
 * The background agents of one session: ids, status (pending → running → completed / failed /
 * killed), output files, usage, progress summaries, follow-ups and the notification each run ends
 * with. One `AgentTasks` belongs to one session's SessionServices, so two sessions in one process
 * never see each other's agents. Like the background shells, entries are kept out of AppState
 * because each owns a live loop; every running agent is aborted with its session.
 *
 * The registry knows no loop: a worker is started through the `AgentLauncher` given at launch
 * (runAgent with the agent's definition bound in), which is also how a SendMessage continues a
 * finished agent with its own conversation.
 */
import { randomBytes } from 'node:crypto';
import { appendFile, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { OutputCursor } from '../../lib/output-cursor';
import type { Message } from '../../session/messages';
import { type AgentClock, systemClock } from '../types';
import { taskNotification } from './notification';
import { type AgentTasksOptions, DEFAULT_PRINT_WAIT_MS, DEFAULT_PROGRESS_INTERVAL_MS } from './options';
import { outputHeader, outputLines } from './output-log';
import { ProgressWatch } from './progress';
import type { AgentInbox, AgentLauncher, AgentRunOutcome, AgentTaskInfo } from './types';

export type LaunchAgentParams = {
  /** The worker's agent id (runAgent's); a fresh one when absent. */
  id?: string;
  name?: string;
  description: string;
  prompt: string;
  agentType: string;
  toolUseId: string;
  /** The session's folder; the output goes to `<sessionDir>/tasks/<id>.output`. */
  sessionDir: string;
  launcher: AgentLauncher;
  /**
   * Told when a run ends on its own (completed or failed), with the `<task-notification>` for the
   * parent's next turn boundary. Not called for an agent that was stopped.
   */
  onFinished(task: AgentTaskInfo, notification: string): void;
};

/** What SendMessage did with a follow-up. */
export type SendOutcome = 'queued' | 'resumed';

type Waiter = () => void;

type TaskRecord = AgentTaskInfo & {
  launcher: AgentLauncher;
  onFinished: LaunchAgentParams['onFinished'];
  messages: readonly Message[];
  controller?: AbortController;
  inbox?: AgentInbox;
  /** The current run; resolves once it has been recorded. */
  settled: Promise<void>;
  runStartedAt: number;
  stopRequested: boolean;
  cursor: OutputCursor;
  /** Appends to the output file, in order. */
  writes: Promise<void>;
  /** The current run's progress summaries. */
  progressWatch?: ProgressWatch;
  /** Set when the output file could not be written; TaskOutput says so. */
  outputProblem?: string;
};

function snapshot(record: TaskRecord): AgentTaskInfo {
  const info: AgentTaskInfo = {
    id: record.id,
    description: record.description,
    prompt: record.prompt,
    agentType: record.agentType,
    toolUseId: record.toolUseId,
    outputPath: record.outputPath,
    status: record.status,
    startedAt: record.startedAt,
    usage: { ...record.usage },
    runs: record.runs,
  };
  if (record.name !== undefined) info.name = record.name;
  if (record.endedAt !== undefined) info.endedAt = record.endedAt;
  if (record.progress !== undefined) info.progress = record.progress;
  if (record.result !== undefined) info.result = record.result;
  if (record.error !== undefined) info.error = record.error;
  return info;
}

const isRunning = (task: Pick<AgentTaskInfo, 'status'>) =>
  task.status === 'running' || task.status === 'pending';

/** The prompts a worker's last turn left unread, as one follow-up. */
function leftoverPrompt(inbox: AgentInbox | undefined): string | undefined {
  const prompts = inbox?.takePrompts() ?? [];
  const texts = prompts.map((p) => (typeof p.content === 'string' ? p.content : JSON.stringify(p.content)));
  return texts.length > 0 ? texts.join('\n\n') : undefined;
}

export class AgentTasks {
  private readonly tasks = new Map<string, TaskRecord>();
  private readonly listeners = new Set<(task: AgentTaskInfo) => void>();
  private readonly messageListeners = new Set<(task: AgentTaskInfo, message: Message) => void>();
  private readonly waiters = new Map<string, Set<Waiter>>();
  /** Woken whenever any agent stops. */
  private readonly anyEnd = new Set<Waiter>();
  private readonly clock: AgentClock;
  private disposed = false;

  constructor(private readonly options: AgentTasksOptions = {}) {
    this.clock = options.clock ?? systemClock;
  }

  /** How long `-p` waits for running agents before its final result. */
  get printWaitMs(): number {
    return this.options.printWaitMs ?? DEFAULT_PRINT_WAIT_MS;
  }

  get now(): number {
    return this.clock.now();
  }

  /** Registers the agent and starts its first run; returns at once. */
  launch(params: LaunchAgentParams): AgentTaskInfo {
    // A late call of a session that is ending must not leave a loop nobody will stop.
    if (this.disposed) throw new Error('The session has ended; no background agent can be started.');
    const id = params.id ?? `a${randomBytes(8).toString('hex')}`;
    if (this.tasks.has(id)) throw new Error(`A background agent with id ${id} exists already.`);
    if (params.name !== undefined && this.find(params.name))
      throw new Error(`The name "${params.name}" is taken by another background agent of this session.`);
    const dir = join(params.sessionDir, 'tasks');
    const outputPath = join(dir, `${id}.output`);
    const record: TaskRecord = {
      id,
      description: params.description,
      prompt: params.prompt,
      agentType: params.agentType,
      toolUseId: params.toolUseId,
      outputPath,
      status: 'pending',
      startedAt: this.clock.now(),
      usage: { totalTokens: 0, toolUses: 0, costUsd: 0, durationMs: 0 },
      runs: 0,
      launcher: params.launcher,
      onFinished: params.onFinished,
      messages: [],
      settled: Promise.resolve(),
      runStartedAt: 0,
      stopRequested: false,
      cursor: new OutputCursor(outputPath),
      writes: mkdir(dir, { recursive: true }).then(() =>
        appendFile(outputPath, outputHeader({ id, ...params })),
      ),
    };
    if (params.name !== undefined) record.name = params.name;
    record.writes = record.writes.catch((error: unknown) => this.noteOutputProblem(record, error));
    this.tasks.set(id, record);
    this.startRun(record, params.prompt);
    return snapshot(record);
  }

  /** The agent with this id, or with this name. */
  get(idOrName: string): AgentTaskInfo | undefined {
    const record = this.find(idOrName);
    return record && snapshot(record);
  }

  list(): AgentTaskInfo[] {
    return [...this.tasks.values()].map(snapshot);
  }

  /** The agents still working (pending or running). */
  running(): AgentTaskInfo[] {
    return this.list().filter(isRunning);
  }

  /** Called with a snapshot whenever an agent starts, ends or gets a new progress summary. */
  subscribe(listener: (task: AgentTaskInfo) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Called with each message of a running worker as it is produced (stream-json nests them). */
  subscribeMessages(listener: (task: AgentTaskInfo, message: Message) => void): () => void {
    this.messageListeners.add(listener);
    return () => this.messageListeners.delete(listener);
  }

  /** Output appended since the previous call for this agent (the whole file on the first). */
  async readNewOutput(idOrName: string): Promise<string> {
    const record = this.require(idOrName);
    await record.writes;
    const text = await record.cursor.readNew();
    return record.outputProblem
      ? `${text}\n(The output file could not be written: ${record.outputProblem})`
      : text;
  }

  /** Waits until the agent stops, `timeoutMs` passes or `signal` aborts; true when it stopped. */
  wait(idOrName: string, timeoutMs: number, signal: AbortSignal): Promise<boolean> {
    const record = this.require(idOrName);
    if (!isRunning(record)) return Promise.resolve(true);
    const waiters = this.waiters.get(record.id) ?? new Set<Waiter>();
    this.waiters.set(record.id, waiters);
    return this.sleep(waiters, timeoutMs, signal);
  }

  /**
   * Waits until no agent runs any more (a continuation started by a follow-up counts as running),
   * `timeoutMs` passes or `signal` aborts. True when none runs.
   */
  async waitForAll(timeoutMs: number, signal: AbortSignal): Promise<boolean> {
    const deadline = this.clock.now() + timeoutMs;
    for (;;) {
      if (this.running().length === 0) return true;
      const left = deadline - this.clock.now();
      if (left <= 0 || signal.aborted) return false;
      // One waiter for all of them (however many run), woken by whichever ends first.
      await this.sleep(this.anyEnd, left, signal);
    }
  }

  /** Resolves true when a waiter of `waiters` is woken, false on the timeout or the abort. */
  private sleep(waiters: Set<Waiter>, timeoutMs: number, signal: AbortSignal): Promise<boolean> {
    if (signal.aborted) return Promise.resolve(false);
    return new Promise((resolve) => {
      const finish = (ended: boolean) => {
        waiters.delete(onEnd);
        cancelTimer();
        signal.removeEventListener('abort', onAbort);
        resolve(ended);
      };
      const onEnd = () => finish(true);
      const onAbort = () => finish(false);
      const cancelTimer = this.clock.setTimer(() => finish(false), timeoutMs);
      waiters.add(onEnd);
      signal.addEventListener('abort', onAbort, { once: true });
    });
  }

  /** Stops the agent's loop; it ends as `killed` and sends no notification. */
  async stop(idOrName: string): Promise<AgentTaskInfo> {
    const record = this.require(idOrName);
    if (isRunning(record)) {
      record.stopRequested = true;
      record.controller?.abort();
      await record.settled;
    }
    return snapshot(record);
  }

  /**
   * A follow-up from the parent. A running agent reads it at its next turn boundary; a stopped
   * one continues its own conversation with it in a new run, which ends with a new notification.
   */
  send(idOrName: string, message: string): SendOutcome {
    if (this.disposed) throw new Error('The session has ended; no agent can be continued.');
    const record = this.require(idOrName);
    if (isRunning(record) && record.inbox) {
      record.inbox.enqueue({ kind: 'prompt', content: message });
      this.append(record, `[message from the parent] ${message.trim()}\n`);
      return 'queued';
    }
    this.startRun(record, message);
    return 'resumed';
  }

  /** Stops every agent and refuses new ones: the session is over. Safe to call more than once. */
  async dispose(): Promise<void> {
    this.disposed = true;
    await Promise.all([...this.tasks.values()].map((record) => this.stop(record.id)));
    await Promise.all([...this.tasks.values()].map((record) => record.writes));
  }

  private find(idOrName: string): TaskRecord | undefined {
    const byId = this.tasks.get(idOrName);
    if (byId) return byId;
    for (const record of this.tasks.values()) if (record.name === idOrName) return record;
    return undefined;
  }

  private require(idOrName: string): TaskRecord {
    const record = this.find(idOrName);
    if (!record) throw new Error(`No background agent with id or name ${idOrName}.`);
    return record;
  }

  private startRun(record: TaskRecord, prompt: string): void {
    const controller = new AbortController();
    record.controller = controller;
    record.status = 'running';
    record.stopRequested = false;
    record.runs += 1;
    record.runStartedAt = this.clock.now();
    delete record.endedAt;
    delete record.progress;
    if (record.runs > 1) this.append(record, `[continued] ${prompt.trim()}\n`);
    let run: ReturnType<AgentLauncher>;
    try {
      run = record.launcher({
        prompt,
        priorMessages: record.messages,
        signal: controller.signal,
        onMessage: (message) => {
          this.append(record, outputLines(message));
          if (this.messageListeners.size === 0) return;
          const info = snapshot(record);
          for (const listener of this.messageListeners) listener(info, message);
        },
      });
    } catch (error) {
      run = { inbox: { enqueue: () => {}, takePrompts: () => [] }, done: Promise.reject(error) };
    }
    record.inbox = run.inbox;
    this.startProgress(record, controller.signal);
    record.settled = run.done.then(
      (outcome) => this.finishRun(record, outcome),
      (error: unknown) =>
        this.finishRun(record, {
          status: 'failed',
          finalText: '',
          error: error instanceof Error ? error.message : String(error),
          messages: record.messages,
          usage: { totalTokens: 0, toolUses: 0, costUsd: 0 },
        }),
    );
    this.emit(record);
  }

  private finishRun(record: TaskRecord, outcome: AgentRunOutcome): void {
    record.progressWatch?.stop();
    delete record.progressWatch;
    record.usage.totalTokens += outcome.usage.totalTokens;
    record.usage.toolUses += outcome.usage.toolUses;
    record.usage.costUsd += outcome.usage.costUsd;
    record.usage.durationMs += this.clock.now() - record.runStartedAt;
    record.messages = outcome.messages;
    const leftover = leftoverPrompt(record.inbox);
    delete record.inbox;
    delete record.controller;
    if (record.stopRequested) {
      record.status = 'killed';
      record.error = 'Stopped before it finished.';
    } else {
      // A follow-up its last turn had no boundary left for starts the next run straight away.
      if (leftover !== undefined && !this.disposed) {
        this.startRun(record, leftover);
        return;
      }
      record.status = outcome.status;
      record.result = outcome.finalText;
      if (outcome.error !== undefined) record.error = outcome.error;
      else delete record.error;
    }
    record.endedAt = this.clock.now();
    this.append(record, `[${record.status}]${record.error ? ` ${record.error}` : ''}\n`);
    const info = snapshot(record);
    if (!record.stopRequested) record.onFinished(info, taskNotification(info));
    for (const waiter of [...(this.waiters.get(record.id) ?? []), ...this.anyEnd]) waiter();
    this.emit(record);
  }

  private append(record: TaskRecord, text: string): void {
    if (!text) return;
    record.progressWatch?.saw(text);
    record.writes = record.writes
      .then(() => appendFile(record.outputPath, text))
      .catch((error: unknown) => this.noteOutputProblem(record, error));
  }

  private noteOutputProblem(record: TaskRecord, error: unknown): void {
    record.outputProblem ??= error instanceof Error ? error.message : String(error);
  }

  private startProgress(record: TaskRecord, signal: AbortSignal): void {
    const intervalMs = this.options.progressIntervalMs ?? DEFAULT_PROGRESS_INTERVAL_MS;
    const { sideCalls } = this.options;
    if (!sideCalls || intervalMs <= 0) return;
    record.progressWatch = new ProgressWatch({
      sideCalls,
      clock: this.clock,
      intervalMs,
      task: record.prompt,
      signal,
      onSummary: (phrase) => {
        if (record.status !== 'running') return;
        record.progress = phrase;
        this.emit(record);
      },
    });
  }

  private emit(record: TaskRecord): void {
    const info = snapshot(record);
    for (const listener of this.listeners) listener(info);
  }
}
