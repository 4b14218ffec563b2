// Exports WhereaboutsModule (WhereaboutsModule.swift) to JavaScript as the Whereabouts module: one
// promise method taking a bridge method's name and its options as JSON text (src/index.ts encodes
// them: the New Architecture's interop layer would drop every null-valued key of an object), forwarded
// by name.

#import <React/RCTBridgeModule.h>
#import <React/RCTEventEmitter.h>

@interface RCT_EXTERN_REMAP_MODULE(Whereabouts, WhereaboutsModule, RCTEventEmitter)

RCT_EXTERN_METHOD(call:(NSString *)method
                  options:(NSString *)options
                  resolver:(RCTPromiseResolveBlock)resolve
                  rejecter:(RCTPromiseRejectBlock)reject)

@end

// The launch observer: +load runs as the app's binary is loaded, before main, on the main thread.
@interface WhereaboutsAutoStart : NSObject
+ (void)install;
@end

@interface WhereaboutsLaunchLoader : NSObject
@end

@implementation WhereaboutsLaunchLoader
+ (void)load {
  [WhereaboutsAutoStart install];
}
@end
