// Whereabouts' launch observer for Capacitor apps. Its +load (WhereaboutsLaunch.m) installs the observer
// of the Swift plugin (WhereaboutsAutoStart) before main runs; the plugin calls WhereaboutsLaunchLinked()
// so that the linker keeps this file.
#import <Foundation/Foundation.h>

/// Does nothing; calling it keeps the launch observer's object file in the app.
void WhereaboutsLaunchLinked(void);
