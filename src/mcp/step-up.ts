/**
 * A call refused for want of scope (HTTP 403 `insufficient_scope`) in a session. Who can widen the
 * scope decides what happens:
 * - a userless client (client_credentials) fetches a token for the union of the scopes without
 *   anyone's help (the SDK transport does, through ServiceClientProvider) and the call goes on;
 * - with a user at the keyboard (the REPL), the session's sign-in handler runs the browser sign-in
 *   of `yoke mcp login` for the union, then the call is retried;
 * - headless, no one can consent: the call fails with one line saying to run `yoke mcp login`,
 *   which then asks for the union the server named (the refusal is remembered in the user state).
 * A refusal for a scope the last authorization already asked for is final (the authorization
 * server does not grant it), and a call steps up at most MAX_STEP_UPS_PER_CALL times.
 */
import {
  MAX_STEP_UPS_PER_CALL,
  needsMoreScopeLine,
  ScopeNotGrantedError,
  StepUpLimitError,
  type StoredOAuthProviderBase,
} from './oauth-provider';

/** Runs the browser sign-in for a server; false when there is no one to sign in (headless). */
export type McpSignInHandler = (server: string, signal: AbortSignal) => Promise<boolean>;

export async function withScopeStepUp<T>(
  server: string,
  provider: StoredOAuthProviderBase | undefined,
  call: () => Promise<T>,
  signIn: McpSignInHandler,
  signal: AbortSignal,
): Promise<T> {
  for (let signIns = 0; ; signIns++) {
    provider?.clearRefusal();
    try {
      return await call();
    } catch (error) {
      const refusal = provider?.refusal;
      if (!refusal) throw error;
      if (refusal.futile || error instanceof ScopeNotGrantedError)
        throw new Error(new ScopeNotGrantedError(server, refusal.scope).message);
      if (error instanceof StepUpLimitError) throw error;
      if (signIns >= MAX_STEP_UPS_PER_CALL) throw new StepUpLimitError(server);
      if (signal.aborted || !(await signIn(server, signal)))
        throw new Error(needsMoreScopeLine(server, refusal));
    }
  }
}
