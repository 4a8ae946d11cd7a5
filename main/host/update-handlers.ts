// The update channels (docs/release.md, "Updates") over a host's UpdatePort: the desktop app's updater, or in browser
// mode a port that says updates come with npm but still keeps the setting, which the desktop app reads.
import type { UpdateRestartResult, UpdateView } from '../../preload/contract';
import { readAutoUpdate, saveAutoUpdate } from '../settings/update-setting';
import type { HandlerTable, HostContext } from './host-context';
import { HostError } from './host-error';
import { requestObject } from './request-fields';

/** What a host offers about updating itself. */
export interface UpdatePort {
  view(): UpdateView;
  /** Restarts into a downloaded update, unless a turn or task runs. */
  restart(): UpdateRestartResult;
  /** Saves the setting and starts or stops checking. */
  setEnabled(enabled: boolean): Promise<UpdateView>;
  /** Every change of the view; returns the unsubscribe. */
  onChange(listener: (view: UpdateView) => void): () => void;
}

/** The port of a host that cannot update itself (browser mode): the setting is kept for the desktop app. */
export function staticUpdatePort(home: string, version: string, reason: string): UpdatePort {
  const view = (): UpdateView => ({
    enabled: readAutoUpdate(home),
    current: version,
    status: { state: 'unsupported', reason },
  });
  return {
    view,
    restart: () => ({ restarting: false, reason }),
    async setEnabled(enabled) {
      await saveAutoUpdate(home, enabled);
      return view();
    },
    onChange: () => () => {},
  };
}

/** The handlers of the update channels. */
export function updateHandlers(
  ctx: HostContext,
): HandlerTable<'updates.status' | 'updates.restart' | 'updates.setEnabled'> {
  return {
    'updates.status': () => ctx.updates.view(),
    'updates.restart': () => ctx.updates.restart(),
    'updates.setEnabled': (request) => {
      const enabled = requestObject(request).enabled;
      if (typeof enabled !== 'boolean')
        throw new HostError('invalid_request', '"enabled" must be true or false');
      return ctx.updates.setEnabled(enabled);
    },
  };
}
