import type { TurboModule } from 'react-native';
/**
 * The TurboModule spec React Native's codegen reads (`codegenConfig` in package.json): one method
 * taking a Whereabouts method's name and options and resolving with `{ result }`, and the two event
 * emitter methods. `null` where the module is not linked; `index.ts` falls back to
 * `NativeModules.Whereabouts` on the old architecture.
 */
export interface Spec extends TurboModule {
    call(method: string, options: Object): Promise<Object>;
    addListener(eventName: string): void;
    removeListeners(count: number): void;
}
declare const _default: Spec | null;
export default _default;
