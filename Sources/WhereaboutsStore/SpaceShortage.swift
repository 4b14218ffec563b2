import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Why a file cannot grow, when the system can tell: the process's file-size limit (`ulimit -f`) is
/// reached, or its disk is full. SQLite reports the first as a plain I/O error, so a store looks here
/// to name the cause.
enum SpaceShortage {
    /// A file this close to the limit, or a disk with this little free, counts as full: one more
    /// write (a page, a log frame, a journal) does not fit.
    static let margin: UInt64 = 256 * 1024

    /// What stops the store at `path` (its file, write-ahead log or journal) from growing, in a user's
    /// words, or `nil` when neither a file-size limit nor the disk is near.
    static func describe(at path: String) -> String? {
        if let limit = fileSizeLimit() {
            let sizes = ["", "-wal", "-journal"].compactMap {
                (try? FileManager.default.attributesOfItem(atPath: path + $0))?[.size] as? UInt64
            }
            if let largest = sizes.max(), largest + margin >= limit {
                return "a file reached this process's file-size limit of \(limit) bytes (ulimit -f)"
            }
        }
        var disk = statvfs()
        let folder = (path as NSString).deletingLastPathComponent
        guard statvfs(folder.isEmpty ? "." : folder, &disk) == 0 else { return nil }
        let free = UInt64(disk.f_bavail) * UInt64(disk.f_frsize)
        return free < margin ? "the disk is full: \(free) bytes free" : nil
    }

    /// The process's file-size limit in bytes, or `nil` when there is none (`RLIM_INFINITY`, which is
    /// at least `Int64.max` everywhere).
    private static func fileSizeLimit() -> UInt64? {
        var limit = rlimit()
        #if os(Linux)
            let resource = __rlimit_resource_t(RLIMIT_FSIZE.rawValue)
        #else
            let resource = RLIMIT_FSIZE
        #endif
        guard getrlimit(resource, &limit) == 0, limit.rlim_cur < rlim_t(Int64.max) else { return nil }
        return UInt64(limit.rlim_cur)
    }
}
