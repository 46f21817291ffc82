import type { ControlRequest } from './controlProtocol.js';
import type { ControlChange, ControlState } from './controlState.js';

/**
 * The change an operator's request asks for, made by the running daemon or by a command with no
 * daemon running, on the control state. `clearProtections` clears every tripped protection for a
 * `resume` that asks (`--protections`) and names them: the running daemon's own, or the database's.
 */
export function applyControl(
  state: ControlState,
  request: Exclude<ControlRequest, { command: 'status' }>,
  clearProtections: (by: string) => readonly string[],
): ControlChange {
  switch (request.command) {
    case 'halt':
      return state.halt(request);
    case 'resume': {
      const resumed = state.resume(request.by);
      if (request.protections !== true) return resumed;
      const cleared = clearProtections(request.by);
      return { ...resumed, changed: resumed.changed || cleared.length > 0, cleared };
    }
    case 'pause':
      return state.pause(request.strategy, request.reason, request.by);
    case 'resume-strategy':
      return state.resumeStrategy(request.strategy, request.by);
  }
}
