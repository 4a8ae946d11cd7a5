// What every handler of the app service works with: the core, the chat runtime, the gate, the dialogs and the settings.
import type { EventChannel, EventPayload, InvokeChannel, InvokeResult } from '../../preload/contract';
import type { Core } from '../app';
import type { ChatRuntime } from '../agent/chat-runtime';
import type { ConfirmGate } from '../gate/confirm-gate';
import type { SecretPromptPort } from '../../tools/sdk/types';
import type { DialogHub } from './dialog-hub';
import type { SettingsPlace } from './desktop-settings';
import type { UpdatePort } from './update-handlers';

/** The services a host binds, built once by openAppHost. */
export interface HostContext {
  core: Core;
  runtime: ChatRuntime;
  gate: ConfirmGate;
  dialogs: DialogHub;
  /** store_secret's port over the dialogs: asks, stores, never returns the value. */
  secretAsk: SecretPromptPort;
  settings: SettingsPlace;
  mode: 'electron' | 'web';
  version: string;
  /** Updating the app: the desktop updater, or browser mode's port that says updates come with npm. */
  updates: UpdatePort;
  /** Aborted when the host closes (pending prompts end). */
  signal: AbortSignal;
  /** Sends an event to every listener of the service (redacted on the way out). */
  emit<E extends EventChannel>(channel: E, payload: EventPayload<E>): void;
}

/** A channel's handler: the request is untrusted and checked inside. */
export type Handler<C extends InvokeChannel> = (
  request: unknown,
) => Promise<InvokeResult<C>> | InvokeResult<C>;

/** Handlers for some of the channels. */
export type HandlerTable<C extends InvokeChannel> = { [K in C]: Handler<K> };
