import Foundation
import Testing

/// The targets an app links, whose required-reason API use the privacy manifest must declare.
private let linkedTargets = ["CacheHints", "WhereaboutsCore", "WhereaboutsStore", "WhereaboutsDelivery", "Whereabouts", "WhereaboutsApple"]

/// Apple's required-reason API categories and the calls of each (Apple, "Describing use of required
/// reason API"), as they appear in Swift or C source.
private let categories: [String: [String]] = [
    "NSPrivacyAccessedAPICategoryFileTimestamp": [
        "attributesOfItem", "creationDate", "modificationDate", "fileModificationDate", "contentModificationDateKey", "creationDateKey",
        "getattrlist", "stat(", "fstat(", "fstatat(", "lstat(",
    ],
    "NSPrivacyAccessedAPICategorySystemBootTime": ["systemUptime", "mach_absolute_time"],
    "NSPrivacyAccessedAPICategoryDiskSpace": ["volumeAvailableCapacity", "systemFreeSize", "systemSize", "statfs(", "statvfs("],
    "NSPrivacyAccessedAPICategoryActiveKeyboards": ["activeInputModes"],
    "NSPrivacyAccessedAPICategoryUserDefaults": ["UserDefaults"],
]

@Suite("The privacy manifest")
struct PrivacyManifestTests {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The categories the manifest declares, each with at least one reason.
    func declared() throws -> Set<String> {
        let data = try Data(contentsOf: root.appendingPathComponent("Sources/WhereaboutsApple/PrivacyInfo.xcprivacy"))
        let plist = try #require(try PropertyListSerialization.propertyList(from: data, format: nil) as? [String: Any])
        let types = try #require(plist["NSPrivacyAccessedAPITypes"] as? [[String: Any]])
        return Set(
            types.compactMap { entry in
                (entry["NSPrivacyAccessedAPITypeReasons"] as? [String])?.isEmpty == false
                    ? entry["NSPrivacyAccessedAPIType"] as? String : nil
            })
    }

    /// The categories whose calls the linked targets' sources make, with the first file of each.
    func used() throws -> [String: String] {
        var found: [String: String] = [:]
        for target in linkedTargets {
            let folder = root.appendingPathComponent("Sources/\(target)")
            let files = try #require(FileManager.default.enumerator(atPath: folder.path)).compactMap { $0 as? String }
            for file in files.sorted() where file.hasSuffix(".swift") || file.hasSuffix(".c") || file.hasSuffix(".h") {
                let text = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
                for (category, calls) in categories where found[category] == nil && calls.contains(where: text.contains) {
                    found[category] = "\(target)/\(file)"
                }
            }
        }
        return found
    }

    @Test("every required-reason API the linked code calls is declared with a reason")
    func declaresWhatIsUsed() throws {
        let declared = try declared()
        for (category, file) in try used().sorted(by: { $0.key < $1.key }) {
            #expect(declared.contains(category), "\(file) uses \(category); declare it in PrivacyInfo.xcprivacy with its reason")
        }
    }

    @Test("the scan finds the store's file timestamps and the adapter's defaults")
    func scanFindsKnownUses() throws {
        let used = try used()
        #expect(used["NSPrivacyAccessedAPICategoryFileTimestamp"] != nil)
        #expect(used["NSPrivacyAccessedAPICategoryUserDefaults"] != nil)
    }
}
