// The part of @capacitor/core (6+) this plugin uses, declared here because the compiler here cannot
// install it; an app compiles against the real package, which the plugin lists as a peer dependency.
declare module '@capacitor/core' {
  export interface PluginListenerHandle {
    remove(): Promise<void>;
  }
  export class WebPlugin {
    addListener(eventName: string, listenerFunc: (event: any) => void): Promise<PluginListenerHandle>;
    protected notifyListeners(eventName: string, data: any): void;
  }
  export const Capacitor: { getPlatform(): string };
  export function registerPlugin<T>(name: string, implementations?: { web?: () => Promise<unknown> }): T;
}
