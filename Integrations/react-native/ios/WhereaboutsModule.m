// Exports WhereaboutsModule (WhereaboutsModule.swift) to JavaScript as the Whereabouts module: one
// promise method per bridge method, each taking an options object and forwarded by name.

#import <React/RCTBridgeModule.h>
#import <React/RCTEventEmitter.h>

@interface RCT_EXTERN_REMAP_MODULE(Whereabouts, WhereaboutsModule, RCTEventEmitter)

RCT_EXTERN_METHOD(call:(NSString *)method
                  options:(NSDictionary *)options
                  resolver:(RCTPromiseResolveBlock)resolve
                  rejecter:(RCTPromiseRejectBlock)reject)

@end
