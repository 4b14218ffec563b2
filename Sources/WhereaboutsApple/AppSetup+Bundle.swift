import Foundation
import WhereaboutsCore

extension AppSetup {
    /// The set-up `bundle`'s Info.plist declares (the app's: `Bundle.main`).
    public init(bundle: Bundle) {
        self.init(reading: { bundle.object(forInfoDictionaryKey: $0) })
    }
}
