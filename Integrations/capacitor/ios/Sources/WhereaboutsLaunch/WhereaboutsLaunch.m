// The launch observer: +load runs as the app's binary is loaded, before main, on the main thread. The
// Swift class is found at run time, since this target is compiled before the plugin's Swift.
#import "WhereaboutsLaunch.h"

void WhereaboutsLaunchLinked(void) {}

@interface WhereaboutsLaunchLoader : NSObject
@end

@implementation WhereaboutsLaunchLoader
+ (void)load {
  Class autoStart = NSClassFromString(@"WhereaboutsAutoStart");
  SEL install = NSSelectorFromString(@"install");
  if ([autoStart respondsToSelector:install]) {
    ((void (*)(id, SEL))[autoStart methodForSelector:install])(autoStart, install);
  }
}
@end
