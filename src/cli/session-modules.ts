/**
 * The big modules a session needs before its first model request, imported together at the
 * start so their loads overlap git and the settings reads (they are never on the `--version`
 * path). The tool services module is only warmed here: session-services.ts imports it itself.
 */
export async function loadSessionModules() {
  const [select, engine, builtins, , resume, memoryFiles, hookFrames] = await Promise.all([
    import('../model/select'),
    import('../engine/query-engine'),
    import('./session-builtins'),
    import('../tools/session-services'),
    import('../session/resume'),
    import('../config/memory/memory-files'),
    import('../engine/hook-frames'),
  ]);
  return {
    selectModel: select.selectModel,
    QueryEngine: engine.QueryEngine,
    sessionBuiltins: builtins.sessionBuiltins,
    resolveSession: resume.resolveSession,
    memoryFiles,
    HookFrameQueue: hookFrames.HookFrameQueue,
  };
}
