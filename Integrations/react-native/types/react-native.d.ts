// The part of react-native (0.73+) this package uses, declared here because the compiler here cannot
// install it; an app compiles against the real package, which this one lists as a peer dependency.
declare module 'react-native' {
  export interface TurboModule {}
  export const TurboModuleRegistry: { get<T extends TurboModule>(name: string): T | null };
  export const NativeModules: { [name: string]: any };
  export const Platform: { OS: string };
  export class NativeEventEmitter {
    constructor(nativeModule?: unknown);
    addListener(eventType: string, listener: (event: any) => void): { remove(): void };
  }
}
