import type { TurboModule } from 'react-native';
import { TurboModuleRegistry } from 'react-native';

/**
 * The TurboModule spec React Native's codegen reads (`codegenConfig` in package.json): one method
 * taking a Whereabouts method's name and its options as JSON text (an object would lose its
 * null-valued keys in the New Architecture's interop layer) and resolving with `{ result }`, and the
 * two event emitter methods. `null` where the module is not linked; `index.ts` falls back to
 * `NativeModules.Whereabouts` on the old architecture.
 */
export interface Spec extends TurboModule {
  call(method: string, options: string): Promise<Object>;
  addListener(eventName: string): void;
  removeListeners(count: number): void;
}

export default TurboModuleRegistry.get<Spec>('Whereabouts');
